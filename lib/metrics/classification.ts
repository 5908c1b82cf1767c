import { z } from "zod";
import { UserError } from "@/lib/errors";

/**
 * Classifier scores as the seed papers report them: accuracy, per-class and weighted precision /
 * recall / F1 (HumAID Table 7), macro-F1 and macro recall, F1 of one class, and TweetEval's stance
 * metric (the mean F1 of "favor" and "against"), all read off one confusion matrix.
 *
 * Conventions follow scikit-learn's classification_report, which TweetEval's official script uses:
 * the label set is the union of gold and predicted labels, a ratio with a zero denominator counts as
 * 0, macro averages weigh every label of that set equally, weighted averages weigh by gold support.
 * Scores are fractions in [0, 1].
 */

export type ConfusionMatrix = {
  /** Row and column order. */
  labels: string[];
  /** matrix[g][p] = number of items with gold labels[g] predicted as labels[p]. */
  matrix: number[][];
};

export type ClassScores = { label: string; precision: number; recall: number; f1: number; support: number };
export type AveragedScores = { precision: number; recall: number; f1: number };

export type ClassificationReport = {
  n: number;
  accuracy: number;
  perClass: ClassScores[];
  macro: AveragedScores;
  weighted: AveragedScores;
  confusion: ConfusionMatrix;
};

export const METRIC_NAMES = ["accuracy", "weighted-f1", "macro-f1", "macro-recall", "f1:LABEL", "stance"] as const;

/** A metric name: accuracy | weighted-f1 | macro-f1 | macro-recall | f1:<label> | stance. */
export type MetricName = "accuracy" | "weighted-f1" | "macro-f1" | "macro-recall" | "stance" | `f1:${string}`;

export const metricNameSchema = z
  .string()
  .refine(
    (m) => ["accuracy", "weighted-f1", "macro-f1", "macro-recall", "stance"].includes(m) || /^f1:.+/.test(m),
    { message: `metric must be one of ${METRIC_NAMES.join(", ")}` },
  )
  .transform((m) => m as MetricName);

const pairSchema = z
  .object({ gold: z.array(z.string()), pred: z.array(z.string()) })
  .refine((v) => v.gold.length === v.pred.length, { message: "gold and pred must have the same length" });

function checkPairs(gold: readonly string[], pred: readonly string[]): void {
  const parsed = pairSchema.safeParse({ gold, pred });
  if (!parsed.success) throw new UserError(parsed.error.issues.map((i) => i.message).join("; "), "invalid_predictions");
}

const ratio = (num: number, den: number): number => (den === 0 ? 0 : num / den);
const harmonic = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

/** Sorted union of the labels in gold and pred, plus any extra labels asked for. */
export function labelSet(gold: readonly string[], pred: readonly string[], extra: readonly string[] = []): string[] {
  return [...new Set([...gold, ...pred, ...extra])].sort();
}

export type PredictionPairs = {
  gold: readonly string[];
  pred: readonly string[];
  /** Row/column order; labels present in the data but missing here are appended (sorted). */
  labels?: readonly string[];
};

export function confusionMatrix({ gold, pred, labels }: PredictionPairs): ConfusionMatrix {
  checkPairs(gold, pred);
  const order = labels ? [...labels] : [];
  const seen = new Set(order);
  for (const l of labelSet(gold, pred)) if (!seen.has(l)) order.push(l);
  const index = new Map(order.map((l, i) => [l, i]));
  const matrix = order.map(() => order.map(() => 0));
  for (let i = 0; i < gold.length; i++) {
    matrix[index.get(gold[i]) as number][index.get(pred[i]) as number] += 1;
  }
  return { labels: order, matrix };
}

/** Every score of the report, computed from the confusion matrix. */
export function reportFromConfusion(confusion: ConfusionMatrix): ClassificationReport {
  const { labels, matrix } = confusion;
  const rowSums = matrix.map((row) => row.reduce((a, b) => a + b, 0));
  const colSums = labels.map((_, j) => matrix.reduce((a, row) => a + row[j], 0));
  const n = rowSums.reduce((a, b) => a + b, 0);
  let correct = 0;
  const perClass: ClassScores[] = labels.map((label, i) => {
    const tp = matrix[i][i];
    correct += tp;
    const precision = ratio(tp, colSums[i]);
    const recall = ratio(tp, rowSums[i]);
    return { label, precision, recall, f1: harmonic(precision, recall), support: rowSums[i] };
  });
  const avg = (pick: (c: ClassScores) => number, weight: (c: ClassScores) => number): number => {
    const total = perClass.reduce((a, c) => a + weight(c), 0);
    return ratio(
      perClass.reduce((a, c) => a + pick(c) * weight(c), 0),
      total,
    );
  };
  const macro = {
    precision: avg((c) => c.precision, () => 1),
    recall: avg((c) => c.recall, () => 1),
    f1: avg((c) => c.f1, () => 1),
  };
  const weighted = {
    precision: avg((c) => c.precision, (c) => c.support),
    recall: avg((c) => c.recall, (c) => c.support),
    f1: avg((c) => c.f1, (c) => c.support),
  };
  return { n, accuracy: ratio(correct, n), perClass, macro, weighted, confusion };
}

export function classificationReport(pairs: PredictionPairs): ClassificationReport {
  return reportFromConfusion(confusionMatrix(pairs));
}

/** F1 of one class (0 when the class never occurs in gold or pred). */
export function f1Of(report: ClassificationReport, label: string): number {
  return report.perClass.find((c) => c.label === label)?.f1 ?? 0;
}

const FAVOR = ["favor", "favour"];
const AGAINST = ["against"];

/** The labels that play "favor" and "against" in a stance task (case-insensitive; "favour" accepted). */
export function stanceLabels(
  labels: readonly string[],
  explicit: { favor?: string; against?: string } = {},
): { favor: string; against: string } {
  const find = (names: string[]) => labels.find((l) => names.includes(l.trim().toLowerCase()));
  const favor = explicit.favor ?? find(FAVOR);
  const against = explicit.against ?? find(AGAINST);
  if (!favor || !against) {
    throw new UserError(
      `the stance metric needs a "favor" and an "against" label; labels found: ${labels.join(", ") || "(none)"}`,
      "invalid_metric",
    );
  }
  return { favor, against };
}

/** TweetEval's stance score: (F1(against) + F1(favor)) / 2. */
export function stanceScore(report: ClassificationReport, explicit: { favor?: string; against?: string } = {}): number {
  const { favor, against } = stanceLabels(
    report.perClass.map((c) => c.label),
    explicit,
  );
  return (f1Of(report, favor) + f1Of(report, against)) / 2;
}

/** One number for a report under a metric name. */
export function scoreOf(
  report: ClassificationReport,
  metric: MetricName,
  stance: { favor?: string; against?: string } = {},
): number {
  switch (metric) {
    case "accuracy":
      return report.accuracy;
    case "weighted-f1":
      return report.weighted.f1;
    case "macro-f1":
      return report.macro.f1;
    case "macro-recall":
      return report.macro.recall;
    case "stance":
      return stanceScore(report, stance);
    default: {
      const label = metric.slice("f1:".length);
      if (!metric.startsWith("f1:") || !label) throw new UserError(`unknown metric "${metric}"`, "invalid_metric");
      if (!report.perClass.some((c) => c.label === label)) {
        const known = report.perClass.map((c) => c.label).join(", ");
        throw new UserError(`label "${label}" occurs in neither gold nor predictions (labels: ${known})`, "invalid_metric");
      }
      return f1Of(report, label);
    }
  }
}

export type Evaluation = { metric: MetricName; score: number; report: ClassificationReport };

/** Scores predictions against gold labels under one metric, with the full report beside it. */
export function evaluate({
  gold,
  pred,
  metric = "weighted-f1",
  labels,
  stance,
}: PredictionPairs & {
  metric?: MetricName;
  stance?: { favor?: string; against?: string };
}): Evaluation {
  const parsedMetric = metricNameSchema.safeParse(metric);
  if (!parsedMetric.success) throw new UserError(parsedMetric.error.issues[0].message, "invalid_metric");
  if (gold.length === 0) throw new UserError("nothing to evaluate: no gold labels", "invalid_predictions");
  const report = classificationReport({ gold, pred, labels });
  return { metric: parsedMetric.data, score: scoreOf(report, parsedMetric.data, stance), report };
}
