import { z } from "zod";
import { UserError } from "@/lib/errors";
import { evaluate, type MetricName, metricNameSchema, stanceLabels } from "@/lib/metrics/classification";
import { FeatureSpace } from "./features";
import {
  argmax,
  type LinearOptions,
  type LinearWeights,
  type ModelOptions,
  scoreSparse,
  softmax,
  TextClassifier,
  trainLinear,
  type TrainingInfo,
} from "./model";
import { quantiseWeights } from "./serialize";

const ngramRange = z
  .tuple([z.number().int().min(1).max(8), z.number().int().min(1).max(8)])
  .refine(([a, b]) => a <= b, { message: "an n-gram range must be [min, max] with min ≤ max" });

/** Training options; every field has a default (see lib/classify/README.md for how they were chosen). */
export const trainOptionsSchema = z
  .object({
    /** HumAID §5.1: remove stop words / non-ASCII characters before the word n-grams. */
    stopWords: z.boolean().default(true),
    asciiOnly: z.boolean().default(true),
    wordNgrams: ngramRange.default([1, 3]),
    charNgrams: ngramRange.nullable().default([2, 5]),
    charSource: z.enum(["clean", "light"]).default("light"),
    hashBits: z.number().int().min(16).max(24).default(21),
    /** "auto": 1 (keep every n-gram) up to AUTO_MIN_DF_ROWS training tweets, 2 above (keeps big models small). */
    minDf: z.union([z.number().int().min(1), z.literal("auto")]).default("auto"),
    charWeight: z.number().positive().default(1),
    loss: z.enum(["svm", "logistic"]).default("svm"),
    c: z.number().positive().default(0.3),
    classWeight: z.enum(["none", "balanced"]).default("balanced"),
    epsilon: z.number().positive().default(0.1),
    maxIterations: z.number().int().min(1).max(10_000).default(100),
    seed: z.number().int().default(1),
    /** The score that picks the setting on dev data (and is reported for it). */
    metric: metricNameSchema.default("weighted-f1"),
    /**
     * With dev data: try these settings and keep the best on dev (true = the default grid,
     * false = train the given setting only and just score it).
     */
    search: z
      .union([
        z.boolean(),
        z.object({
          c: z.array(z.number().positive()).min(1),
          classWeight: z.array(z.enum(["none", "balanced"])).min(1),
          loss: z.array(z.enum(["svm", "logistic"])).min(1).optional(),
        }),
      ])
      .default(true),
  })
  .strict();

export type TrainOptions = z.input<typeof trainOptionsSchema>;
type ResolvedOptions = z.output<typeof trainOptionsSchema>;

export const AUTO_MIN_DF_ROWS = 20_000;

export const DEFAULT_SEARCH = { c: [0.1, 0.3, 1], classWeight: ["none", "balanced"] as Array<"none" | "balanced"> };

export type LabelledTexts = { texts: readonly string[]; labels: readonly string[] };

function checkData(name: string, d: LabelledTexts): void {
  if (d.texts.length !== d.labels.length) {
    throw new UserError(`${name}: ${d.texts.length} texts but ${d.labels.length} labels`, "invalid_training_data");
  }
  const empty = d.labels.findIndex((l) => typeof l !== "string" || l.trim() === "");
  if (empty >= 0) throw new UserError(`${name}: row ${empty + 1} has no label`, "invalid_training_data");
}

function modelOptions(o: ResolvedOptions, rows: number): ModelOptions {
  return {
    features: {
      preprocess: { stopWords: o.stopWords, asciiOnly: o.asciiOnly },
      wordNgrams: o.wordNgrams,
      charNgrams: o.charNgrams,
      charSource: o.charSource,
      hashBits: o.hashBits,
      minDf: o.minDf === "auto" ? (rows <= AUTO_MIN_DF_ROWS ? 1 : 2) : o.minDf,
      charWeight: o.charWeight,
    },
    linear: {
      loss: o.loss,
      c: o.c,
      classWeight: o.classWeight,
      bias: 1,
      epsilon: o.epsilon,
      maxIterations: o.maxIterations,
      seed: o.seed,
    },
  };
}

/** Fails before any training when the dev metric cannot apply to these labels. */
function checkMetric(metric: MetricName, labels: string[]): void {
  if (metric === "stance") stanceLabels(labels);
  if (metric.startsWith("f1:") && !labels.includes(metric.slice(3))) {
    throw new UserError(`metric ${metric}: the training data has no label "${metric.slice(3)}" (labels: ${labels.join(", ")})`, "invalid_metric");
  }
}

/** The softmax temperature minimising the log-loss of the dev scores (golden-section search on log scale). */
export function fitProbabilityScale(scores: Float64Array[], gold: number[]): number {
  const nll = (logScale: number) => {
    const scale = Math.exp(logScale);
    let total = 0;
    scores.forEach((s, i) => {
      total -= Math.log(Math.max(softmax(s, scale)[gold[i]], 1e-12));
    });
    return total;
  };
  let lo = Math.log(0.05);
  let hi = Math.log(100);
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = hi - phi * (hi - lo);
  let b = lo + phi * (hi - lo);
  let fa = nll(a);
  let fb = nll(b);
  for (let iter = 0; iter < 40; iter++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phi * (hi - lo);
      fa = nll(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phi * (hi - lo);
      fb = nll(b);
    }
  }
  return Math.exp((lo + hi) / 2);
}

/**
 * Trains a tweet classifier. With `dev`, the settings of `options.search` are tried and the one with
 * the best dev score (options.metric) is kept, and the probability scale is fitted on dev.
 * The model is trained on `texts` only (dev data is never trained on).
 */
export function trainClassifier({
  texts,
  labels,
  options = {},
  dev,
}: LabelledTexts & { options?: TrainOptions; dev?: LabelledTexts }): TextClassifier {
  const started = performance.now();
  const parsed = trainOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new UserError(
      `invalid training options: ${parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ")}`,
      "invalid_training_options",
    );
  }
  const o = parsed.data;
  checkData("training data", { texts, labels });
  if (dev) checkData("dev data", dev);
  const names = [...new Set(labels)].sort();
  if (names.length < 2) {
    throw new UserError(`training needs at least two labels; found ${names.length ? `only "${names[0]}"` : "none"}`, "invalid_training_data");
  }
  const index = new Map(names.map((l, i) => [l, i]));
  const y = Int32Array.from(labels, (l) => index.get(l) as number);
  const labelCounts: Record<string, number> = Object.fromEntries(names.map((l) => [l, 0]));
  for (const l of labels) labelCounts[l] += 1;

  const base = modelOptions(o, texts.length);
  const { space, x } = FeatureSpace.fitTransform(texts, base.features);
  // Fits of a search share the features; each starts from the previous fit's dual solution.
  let previous: { loss: string; alpha: Float64Array } | undefined;
  const fit = (linear: LinearOptions) => {
    const warm = linear.loss === "svm" && previous?.loss === "svm" ? previous.alpha : undefined;
    const { weights, alpha, iterations } = trainLinear(x, y, names, linear, warm);
    previous = { loss: linear.loss, alpha };
    return { weights: quantiseWeights(weights), iterations };
  };

  if (!dev || dev.texts.length === 0) {
    const { weights, iterations } = fit(base.linear);
    return new TextClassifier(space, weights, {
      kind: "tfidf-linear",
      trainedAt: new Date().toISOString(),
      rows: texts.length,
      labelCounts,
      features: space.size,
      options: base,
      trainingMs: Math.round(performance.now() - started),
      iterations,
    });
  }

  checkMetric(o.metric as MetricName, names);
  const xDev = space.transform(dev.texts);
  const devGold = dev.labels as string[];
  const grid =
    o.search === false
      ? [base.linear]
      : (() => {
          const g = o.search === true ? { ...DEFAULT_SEARCH, loss: [o.loss] } : { loss: [o.loss], ...o.search };
          // Ascending C within a class weighting: warm starts then come from a more regularised fit.
          const cs = [...g.c].sort((a, b) => a - b);
          return (g.loss ?? [o.loss]).flatMap((loss) =>
            g.classWeight.flatMap((classWeight) => cs.map((c) => ({ ...base.linear, loss, c, classWeight }))),
          );
        })();
  let best: { linear: LinearOptions; weights: LinearWeights; iterations: number; scores: Float64Array[]; score: number } | undefined;
  const search: NonNullable<TrainingInfo["search"]> = [];
  for (const linear of grid) {
    const { weights, iterations } = fit(linear);
    const scores = scoreSparse(weights, xDev);
    const pred = scores.map((s) => names[argmax(s)]);
    const score = evaluate({ gold: devGold, pred, metric: o.metric as MetricName }).score;
    search.push({ loss: linear.loss, c: linear.c, classWeight: linear.classWeight, score });
    if (!best || score > best.score) best = { linear, weights, iterations, scores, score };
  }
  const chosen = best as NonNullable<typeof best>;
  const devIndex = devGold.map((l) => index.get(l) ?? -1);
  const known = devIndex.map((k, i) => [k, i]).filter(([k]) => k >= 0);
  const probabilityScale =
    known.length > 0
      ? fitProbabilityScale(
          known.map(([, i]) => chosen.scores[i]),
          known.map(([k]) => k),
        )
      : chosen.weights.probabilityScale;
  return new TextClassifier(
    space,
    { ...chosen.weights, probabilityScale },
    {
      kind: "tfidf-linear",
      trainedAt: new Date().toISOString(),
      rows: texts.length,
      labelCounts,
      features: space.size,
      options: { features: base.features, linear: chosen.linear },
      trainingMs: Math.round(performance.now() - started),
      iterations: chosen.iterations,
      dev: { rows: dev.texts.length, metric: o.metric as MetricName, score: chosen.score },
      search: grid.length > 1 ? search : undefined,
    },
  );
}
