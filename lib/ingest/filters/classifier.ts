import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";

/**
 * Optional step after language (HumAID §3.1 step 4): a classifier predicts each tweet's class, the
 * prediction is kept on the tweet (predictedLabel), and tweets of the chosen classes are removed.
 * Any object with `predict(texts) → labels` will do (the project's baseline classifier, or a fake in tests).
 */
export type TweetClassifier = { predict(texts: string[]): string[] | Promise<string[]> };

const BATCH = 2_000;

export async function filterByClassifier(
  rows: IngestRow[],
  { classifier, dropLabels, enabled = true }: { classifier?: TweetClassifier | null; dropLabels: readonly string[]; enabled?: boolean },
): Promise<{ rows: IngestRow[]; step: FunnelStep }> {
  if (!enabled) return { rows, step: skippedStep("classifier", rows.length, "switched off") };
  if (!classifier) return { rows, step: skippedStep("classifier", rows.length, "no classifier available") };
  const drop = new Set(dropLabels);
  const counter = new StepCounter();
  const kept: IngestRow[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const labels = await classifier.predict(batch.map((r) => r.text));
    if (labels.length !== batch.length) {
      throw new Error(`the classifier returned ${labels.length} predictions for ${batch.length} tweets`);
    }
    batch.forEach((row, k) => {
      row.predictedLabel = labels[k];
      counter.count(`predicted ${labels[k]}`);
      if (drop.has(labels[k])) counter.remove(`predicted ${labels[k]}`, row);
      else kept.push(row);
    });
  }
  return { rows: kept, step: counter.step("classifier", rows.length, { note: `removing ${[...drop].join(", ") || "nothing"}` }) };
}
