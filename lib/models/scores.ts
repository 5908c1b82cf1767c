import { type ClassificationReport, classificationReport } from "@/lib/metrics/classification";

/**
 * Scores as the HumAID paper's Table 7 reports them — weighted precision, recall and F1 — plus accuracy,
 * macro-F1, per-class scores and the confusion matrix, overall and per event. Used for a model's test
 * split (stored with the model) and for uploaded predictions.
 */
export type EventScores = {
  slug: string;
  name: string;
  n: number;
  /** Class labels present in the event's gold labels (Table 7's "# Cls"). */
  classes: number;
  accuracy: number;
  weighted: { precision: number; recall: number; f1: number };
  macroF1: number;
};

export type ScoresByEvent = {
  overall: ClassificationReport;
  perEvent: EventScores[];
};

export type ScoredPair = { event: { slug: string; name: string }; gold: string; pred: string };

function eventScores(event: { slug: string; name: string }, report: ClassificationReport): EventScores {
  return { slug: event.slug, name: event.name, n: report.n, classes: report.perClass.filter((c) => c.support > 0).length, accuracy: report.accuracy, weighted: report.weighted, macroF1: report.macro.f1 };
}

/** Scores of (gold, predicted) pairs, overall and per event (events in slug order). */
export function scoreByEvent(pairs: readonly ScoredPair[], labels?: readonly string[]): ScoresByEvent {
  const overall = classificationReport({ gold: pairs.map((p) => p.gold), pred: pairs.map((p) => p.pred), labels });
  const groups = new Map<string, { event: { slug: string; name: string }; gold: string[]; pred: string[] }>();
  for (const p of pairs) {
    let g = groups.get(p.event.slug);
    if (!g) groups.set(p.event.slug, (g = { event: p.event, gold: [], pred: [] }));
    g.gold.push(p.gold);
    g.pred.push(p.pred);
  }
  const perEvent = [...groups.values()]
    .sort((a, b) => (a.event.slug < b.event.slug ? -1 : a.event.slug > b.event.slug ? 1 : 0))
    .map((g) => eventScores(g.event, classificationReport({ gold: g.gold, pred: g.pred })));
  return { overall, perEvent };
}
