import { createRng, randomInt, seedFrom } from "@/lib/util/random";
import type { Interval } from "./bootstrap";
import { cohensKappaFromTable } from "./cohen";

/**
 * The LLM against the crowd on one event (issue 32, item 3): gold accuracy, Cohen's κ with the accepted labels
 * (bootstrap interval over tweets, as Table 3's: seeded resampling with replacement, percentile interval), the
 * confusion table accepted × LLM, the class pairs where they disagree most (with example tweets), and cost per
 * accepted label side by side.
 */
export type CompareTweet = {
  tweet: string;
  /** The crowd's accepted label, if any. */
  accepted?: string | null;
  /** The LLM's label (majority over passes), null when it gave none or its passes tied. */
  llm?: string | null;
  /** The gold label, for gold tweets the LLM was graded on (not the prompt's examples). */
  gold?: string | null;
};

export type CompareOptions = { resamples?: number; seed?: string | number; level?: number; topPairs?: number; examplesPerPair?: number };

export type DisagreementPair = { accepted: string; llm: string; count: number; examples: string[] };

export type LlmCompareFigures = {
  labels: string[];
  gold: { correct: number; total: number; accuracy: number | null };
  /** Tweets with both an accepted and an LLM label. */
  compared: number;
  agreement: number | null;
  kappa: number | null;
  kappaInterval: Interval | null;
  /** confusion[i][j] = tweets accepted labels[i] that the LLM labelled labels[j]; noAnswer[i] = no LLM label. */
  confusion: number[][];
  noAnswer: number[];
  pairs: DisagreementPair[];
};

export const COMPARE_DEFAULTS = { resamples: 1000, seed: "llm-compare", level: 0.95, topPairs: 5, examplesPerPair: 3 } as const;

export function llmCompare(tweets: ReadonlyArray<CompareTweet>, labelsInOrder: readonly string[], options: CompareOptions = {}): LlmCompareFigures {
  const resamples = options.resamples ?? COMPARE_DEFAULTS.resamples;
  const seed = options.seed ?? COMPARE_DEFAULTS.seed;
  const level = options.level ?? COMPARE_DEFAULTS.level;
  const topPairs = options.topPairs ?? COMPARE_DEFAULTS.topPairs;
  const examplesPerPair = options.examplesPerPair ?? COMPARE_DEFAULTS.examplesPerPair;
  const labels = [...labelsInOrder];
  const code = new Map(labels.map((l, i) => [l, i]));
  const codeOf = (l: string) => {
    let c = code.get(l);
    if (c === undefined) {
      c = labels.length;
      labels.push(l);
      code.set(l, c);
    }
    return c;
  };
  let goldCorrect = 0;
  let goldTotal = 0;
  const pairsA: number[] = [];
  const pairsB: number[] = [];
  const pairMap = new Map<string, DisagreementPair>();
  const noAnswerOf: number[] = [];
  for (const t of tweets) {
    if (t.gold) {
      goldTotal++;
      if (t.llm === t.gold) goldCorrect++;
    }
    if (!t.accepted) continue;
    const a = codeOf(t.accepted);
    if (!t.llm) {
      noAnswerOf.push(a);
      continue;
    }
    const b = codeOf(t.llm);
    pairsA.push(a);
    pairsB.push(b);
    if (a !== b) {
      const key = `${t.accepted}\u0000${t.llm}`;
      let p = pairMap.get(key);
      if (!p) pairMap.set(key, (p = { accepted: t.accepted, llm: t.llm, count: 0, examples: [] }));
      p.count++;
      if (p.examples.length < examplesPerPair) p.examples.push(t.tweet);
    }
  }
  const K = labels.length;
  const confusion = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  for (let i = 0; i < pairsA.length; i++) confusion[pairsA[i]][pairsB[i]]++;
  const noAnswer = new Array<number>(K).fill(0);
  for (const a of noAnswerOf) noAnswer[a]++;
  const k = cohensKappaFromTable(confusion);

  let kappaInterval: Interval | null = null;
  const n = pairsA.length;
  if (n > 0) {
    // The same draws as resampleWeights (n indices per resample), counted straight into a flat table.
    const rng = createRng(seedFrom(seed, n));
    const cell = Int32Array.from(pairsA, (a, i) => a * K + pairsB[i]);
    const flat = new Float64Array(K * K);
    const rows = new Float64Array(K);
    const cols = new Float64Array(K);
    const samples: number[] = [];
    for (let b = 0; b < resamples; b++) {
      flat.fill(0);
      for (let d = 0; d < n; d++) flat[cell[randomInt(rng, n)]]++;
      rows.fill(0);
      cols.fill(0);
      let agree = 0;
      for (let x = 0; x < K; x++) {
        for (let y = 0; y < K; y++) {
          const v = flat[x * K + y];
          rows[x] += v;
          cols[y] += v;
        }
        agree += flat[x * K + x];
      }
      let pe = 0;
      for (let x = 0; x < K; x++) pe += (rows[x] / n) * (cols[x] / n);
      const v = pe < 1 ? (agree / n - pe) / (1 - pe) : NaN;
      if (Number.isFinite(v)) samples.push(v);
    }
    if (samples.length >= resamples / 2) {
      samples.sort((x, y) => x - y);
      const at = (p: number) => samples[Math.min(samples.length - 1, Math.max(0, Math.floor(p * samples.length)))];
      kappaInterval = [at((1 - level) / 2), at(1 - (1 - level) / 2)];
    }
  }
  const pairs = [...pairMap.values()].sort((x, y) => y.count - x.count || (code.get(x.accepted)! - code.get(y.accepted)!) || (code.get(x.llm)! - code.get(y.llm)!)).slice(0, topPairs);
  return {
    labels,
    gold: { correct: goldCorrect, total: goldTotal, accuracy: goldTotal > 0 ? goldCorrect / goldTotal : null },
    compared: n,
    agreement: n > 0 ? k.observed : null,
    kappa: Number.isFinite(k.kappa) ? k.kappa : null,
    kappaInterval,
    confusion,
    noAnswer,
    pairs,
  };
}

/** The LLM's label of a tweet from its passes: the most frequent label among the passes that answered; a tie between labels, or no answer at all, gives null. */
export function majorityOverPasses(passes: ReadonlyArray<string | null>): string | null {
  const counts = new Map<string, number>();
  for (const l of passes) if (l) counts.set(l, (counts.get(l) ?? 0) + 1);
  let best: string | null = null;
  let top = 0;
  let tie = false;
  for (const [l, c] of counts) {
    if (c > top) {
      best = l;
      top = c;
      tie = false;
    } else if (c === top) tie = true;
  }
  return tie ? null : best;
}

/** Cost of a run: tokens × price per million, in the run's currency. */
export function llmRunCost(r: { promptTokens: number; completionTokens: number; inputPricePerMillion: number; outputPricePerMillion: number }): number {
  return (r.promptTokens * r.inputPricePerMillion + r.completionTokens * r.outputPricePerMillion) / 1_000_000;
}
