import { createRng, randomInt, seedFrom } from "@/lib/util/random";
import { firstJudgments, labelCounts, type EncodedJudgments } from "./judgments";
import { runSteps, runStepsPausing } from "./steps";

/**
 * Bootstrap intervals for Table 3's four figures: tweets are resampled with replacement (seeded), and each measure
 * is recomputed from per-tweet parts weighted by how often the tweet was drawn (the same formulas as
 * nominalAgreement, so a resample equals the measures over the duplicated tweets). Percentile intervals.
 */
export type Interval = [number, number];
export type Table3Intervals = {
  fleissKappa: Interval | null;
  averageObservedAgreement: Interval | null;
  krippendorffAlpha: Interval | null;
  averageMajorityAgreement: Interval | null;
};

type Parts = { nLabels: number; raters: Int32Array; counts: Int32Array };

function parts(data: EncodedJudgments): Parts {
  const c = labelCounts(data);
  return { nLabels: c.nLabels, raters: c.raters, counts: c.counts };
}

/** The four measures with item i counted weight[i] times; `first` holds the items of `all` (same order) that have ≥ k judgments. */
export function weightedTable3(all: Parts, first: Parts, firstOf: Int32Array, weight: Int32Array): [number, number, number, number] {
  // κ and Pₒ over the first judgments
  const K = first.nLabels;
  const pi = new Float64Array(K);
  let rated = 0;
  let pairable = 0;
  let po = 0;
  for (let x = 0; x < firstOf.length; x++) {
    const w = weight[firstOf[x]];
    const r = first.raters[x];
    if (w === 0 || r === 0) continue;
    rated += w;
    let sq = 0;
    for (let k = 0; k < K; k++) {
      const c = first.counts[x * K + k];
      if (c === 0) continue;
      pi[k] += (w * c) / r;
      sq += c * c;
    }
    if (r < 2) continue;
    pairable += w;
    po += (w * (sq - r)) / (r * (r - 1));
  }
  let pe = 0;
  for (let k = 0; k < K; k++) pe += rated > 0 ? (pi[k] / rated) ** 2 : 0;
  const observed = pairable > 0 ? po / pairable : NaN;
  const kappa = pairable > 0 && pe < 1 ? (observed - pe) / (1 - pe) : NaN;
  // α and majority over all judgments
  const L = all.nLabels;
  const nc = new Float64Array(L);
  let n = 0;
  let doNum = 0;
  let maj = 0;
  let pairs = 0;
  for (let i = 0; i < weight.length; i++) {
    const w = weight[i];
    const r = all.raters[i];
    if (w === 0 || r < 2) continue;
    let sq = 0;
    let max = 0;
    for (let k = 0; k < L; k++) {
      const c = all.counts[i * L + k];
      if (c === 0) continue;
      nc[k] += w * c;
      sq += c * c;
      if (c > max) max = c;
    }
    pairs += w;
    maj += (w * max) / r;
    n += w * r;
    doNum += (w * (r * r - sq)) / (r - 1);
  }
  let ncSq = 0;
  for (let k = 0; k < L; k++) ncSq += nc[k] * nc[k];
  const de = n * n - ncSq;
  const alpha = pairs > 0 && de > 0 ? 1 - ((n - 1) * doNum) / de : NaN;
  return [kappa, observed, alpha, pairs > 0 ? maj / pairs : NaN];
}

/** Resample weights: `items` draws with replacement from a seeded generator. */
export function resampleWeights(items: number, rng: ReturnType<typeof createRng>): Int32Array {
  const w = new Int32Array(items);
  for (let d = 0; d < items; d++) w[randomInt(rng, items)]++;
  return w;
}

type BootstrapOptions = { first?: number; resamples?: number; seed?: string | number; level?: number };

/** Resamples between two pauses of bootstrapTable3Pausing (a few ms each at HumAID scale). */
export const RESAMPLES_PER_PAUSE = 25;

/** The bootstrap as steps: it stops after every RESAMPLES_PER_PAUSE resamples, so a caller may let other work run. */
function* bootstrapSteps(data: EncodedJudgments, { first = 3, resamples = 1000, seed = "table3", level = 0.95 }: BootstrapOptions): Generator<void, Table3Intervals> {
  const m = data.items.length;
  const none = { fleissKappa: null, averageObservedAgreement: null, krippendorffAlpha: null, averageMajorityAgreement: null };
  if (m === 0) return none;
  const f = firstJudgments(data, first);
  const code = new Map(data.items.map((id, i) => [id, i]));
  const firstOf = Int32Array.from(f.items, (id) => code.get(id) as number);
  const all = parts(data);
  const fp = parts(f);
  const rng = createRng(seedFrom(seed, m));
  const samples: number[][] = [[], [], [], []];
  for (let b = 0; b < resamples; b++) {
    const v = weightedTable3(all, fp, firstOf, resampleWeights(m, rng));
    for (let q = 0; q < 4; q++) if (Number.isFinite(v[q])) samples[q].push(v[q]);
    if ((b + 1) % RESAMPLES_PER_PAUSE === 0) yield;
  }
  const interval = (xs: number[]): Interval | null => {
    if (xs.length < resamples / 2) return null;
    xs.sort((a, b) => a - b);
    const at = (p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.floor(p * xs.length)))];
    return [at((1 - level) / 2), at(1 - (1 - level) / 2)];
  };
  return {
    fleissKappa: interval(samples[0]),
    averageObservedAgreement: interval(samples[1]),
    krippendorffAlpha: interval(samples[2]),
    averageMajorityAgreement: interval(samples[3]),
  };
}

export function bootstrapTable3(data: EncodedJudgments, options: BootstrapOptions = {}): Table3Intervals {
  return runSteps(bootstrapSteps(data, options));
}

/** The same intervals, awaiting `pause` between steps (a server's job yields to its requests there). */
export function bootstrapTable3Pausing(data: EncodedJudgments, pause: () => Promise<void>, options: BootstrapOptions = {}): Promise<Table3Intervals> {
  return runStepsPausing(bootstrapSteps(data, options), pause);
}
