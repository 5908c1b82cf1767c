import { createRng, randomInt, seedFrom } from "@/lib/util/random";
import type { Judgment } from "./judgments";

export type SyntheticCrowd = {
  judgments: Judgment[];
  /** True label per item (item ids are "i0", "i1", …). */
  truth: string[];
  /** Accuracy drawn for each worker ("w0", "w1", …). */
  workerAccuracy: number[];
};

/**
 * A reproducible simulated crowd for tests and benchmarks: each item gets a true label (skewed class
 * frequencies), then `minJudgments`–`maxJudgments` distinct workers; a worker answers the true label with
 * their accuracy and otherwise a label from their own fixed confusion (so errors are systematic, as
 * Dawid–Skene assumes).
 */
export function generateCrowdJudgments({
  items,
  labels,
  workers,
  minJudgments = 3,
  maxJudgments = 5,
  accuracy = [0.55, 0.95],
  seed = 1,
}: {
  items: number;
  labels: readonly string[];
  workers: number;
  minJudgments?: number;
  maxJudgments?: number;
  accuracy?: [number, number];
  seed?: number | string;
}): SyntheticCrowd {
  const rng = createRng(seedFrom(seed, "crowd"));
  const K = labels.length;
  // Zipf-like class frequencies
  const weights = labels.map((_, k) => 1 / (k + 1));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  const cumulative = weights.map((w) => (running += w / totalWeight));
  const workerAccuracy = Array.from({ length: workers }, () => accuracy[0] + rng() * (accuracy[1] - accuracy[0]));
  // each worker confuses each true class with one preferred wrong class half of the time
  const preferredWrong = Array.from({ length: workers * K }, (_, x) => {
    const t = x % K;
    return (t + 1 + randomInt(rng, Math.max(1, K - 1))) % K;
  });
  const workerIds = Array.from({ length: workers }, (_, w) => `w${w}`);
  const truth: string[] = new Array(items);
  const judgments: Judgment[] = [];
  const chosen: number[] = [];
  for (let i = 0; i < items; i++) {
    const u = rng();
    let t = cumulative.findIndex((c) => u < c);
    if (t < 0) t = K - 1;
    truth[i] = labels[t];
    const r = minJudgments + randomInt(rng, maxJudgments - minJudgments + 1);
    chosen.length = 0;
    while (chosen.length < Math.min(r, workers)) {
      const w = randomInt(rng, workers);
      if (!chosen.includes(w)) chosen.push(w);
    }
    const itemId = `i${i}`;
    for (const w of chosen) {
      let l = t;
      if (rng() >= workerAccuracy[w] && K > 1) {
        l = rng() < 0.5 ? preferredWrong[w * K + t] : (t + 1 + randomInt(rng, K - 1)) % K;
      }
      judgments.push({ item: itemId, annotator: workerIds[w], label: labels[l] });
    }
  }
  return { judgments, truth, workerAccuracy };
}
