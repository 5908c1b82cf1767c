import { UserError } from "@/lib/errors";
import { labelCounts, type EncodedJudgments } from "./judgments";
import { majorityVote } from "./majority-vote";
import { runSteps, runStepsPausing } from "./steps";

/** Posterior terms smaller than this fraction of the largest are set to 0 (far below double precision). */
const RELATIVE_FLOOR = 1e-30;
/** Items with at most this many judgments need no rescaling: (1e-36)^(SHORT_ITEM + 1) stays a normal double. */
const SHORT_ITEM = 6;

export type DawidSkeneOptions = {
  /** EM iterations at most (one iteration = M-step then E-step). Default 100. 0 returns the vote shares. */
  maxIterations?: number;
  /** Stop when the log-likelihood improves by less than this. Default 1e-6; 0 runs all iterations. */
  tolerance?: number;
  /** Items with known labels (gold): their posterior is fixed to that label; they anchor the confusion matrices. */
  gold?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /** Pseudo-count added to every confusion cell before normalising (0 = classic maximum likelihood). */
  smoothing?: number;
};

export type WorkerConfusion = {
  annotator: string;
  /** confusion[t][g] = P(the worker answers label g | true label t); rows sum to 1. */
  confusion: number[][];
  judgments: number;
};

export type DawidSkeneResult = {
  items: readonly string[];
  /** The classes (= encoded labels), index k of every vector. */
  labels: readonly string[];
  /** posteriors[i·K + k] = P(item i has label k). */
  posteriors: Float64Array;
  /** Most probable label per item (first on a tie). */
  itemLabels: string[];
  /** Class priors (mean posterior), by label. */
  priors: Record<string, number>;
  workers: WorkerConfusion[];
  iterations: number;
  converged: boolean;
  logLikelihood: number;
  /** Items whose Dawid–Skene label differs from the (unique) majority label; majority null on a tie. */
  disagreements: Array<{ item: string; majority: string | null; dawidSkene: string; posterior: number }>;
};

/**
 * Dawid & Skene (1979) EM for multi-class labels with one confusion matrix per worker and class priors,
 * initialised from vote shares (posterior₀ = nᵢₖ/rᵢ). Each iteration: M-step (priors = mean posterior;
 * confusion[w][t][g] ∝ Σ posterior(t) over w's answers g), then E-step (posterior ∝ prior·Πⱼ confusion, rescaled
 * against underflow). Gold items keep a one-hot posterior. Returned priors and confusion matrices are re-estimated from the
 * final posteriors. Costs O(judgments · K) per iteration on typed arrays.
 */
export function dawidSkene(data: EncodedJudgments, options: DawidSkeneOptions = {}): DawidSkeneResult {
  return runSteps(dawidSkeneSteps(data, options));
}

/** The same result, awaiting `pause` after each iteration (a server's job yields to its requests there). */
export function dawidSkenePausing(data: EncodedJudgments, pause: () => Promise<void>, options: DawidSkeneOptions = {}): Promise<DawidSkeneResult> {
  return runStepsPausing(dawidSkeneSteps(data, options), pause);
}

function* dawidSkeneSteps(data: EncodedJudgments, options: DawidSkeneOptions): Generator<void, DawidSkeneResult> {
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-6;
  const smoothing = options.smoothing ?? 0;
  const { nItems: N, nLabels: K, counts, raters } = labelCounts(data);
  const W = data.annotators.length;
  const { itemStart, annotator, label } = data;

  const T = new Float64Array(N * K);
  for (let i = 0; i < N; i++) {
    const r = raters[i];
    for (let k = 0; k < K; k++) T[i * K + k] = r > 0 ? counts[i * K + k] / r : 1 / K;
  }
  const goldOf = goldCodes(data, options.gold);
  applyGold(T, goldOf, K);

  const priors = new Float64Array(K);
  // conf[(w·K + g)·K + t] = P(worker w answers g | true t): answer-major, so one judgment reads K contiguous cells
  const conf = new Float64Array(W * K * K);
  const acc = new Float64Array(K);
  let logLikelihood = Number.NEGATIVE_INFINITY;
  let iterations = 0;
  let converged = false;

  // The M-step of the next iteration is accumulated while the E-step visits each item (one pass over the
  // judgments per iteration); `next`/`priorNext` collect it and become conf/priors at the end of the pass.
  const next = new Float64Array(W * K * K);
  const priorNext = new Float64Array(K);
  mStep(T, data, K, W, smoothing, priors, conf);

  for (let it = 1; it <= maxIterations; it++) {
    next.fill(smoothing);
    priorNext.fill(0);
    // E-step in linear space. Posteriors, priors and confusion cells are ≥ RELATIVE_FLOOR/N or exactly 0, so
    // an item with up to SHORT_ITEM judgments cannot leave the normal double range; longer items are rescaled
    // after every judgment (terms far below the largest dropped), which also keeps subnormal numbers — very
    // slow to compute with — out of the loop.
    let ll = 0;
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < K; k++) acc[k] = priors[k];
      let logScale = 0;
      let scale = 1;
      let dead = false;
      const s0 = itemStart[i];
      const s1 = itemStart[i + 1];
      if (s1 - s0 <= SHORT_ITEM) {
        for (let j = s0; j < s1; j++) {
          const base = (annotator[j] * K + label[j]) * K;
          for (let k = 0; k < K; k++) acc[k] *= conf[base + k];
        }
      } else {
        for (let j = s0; j < s1 && !dead; j++) {
          const base = (annotator[j] * K + label[j]) * K;
          let max = 0;
          for (let k = 0; k < K; k++) {
            const v = acc[k] * conf[base + k];
            acc[k] = v;
            if (v > max) max = v;
          }
          if (max === 0) {
            dead = true;
            break;
          }
          const inv = 1 / max;
          for (let k = 0; k < K; k++) {
            const v = acc[k] * inv;
            acc[k] = v < RELATIVE_FLOOR ? 0 : v;
          }
          scale *= max;
          if (scale < 1e-200) {
            logScale += Math.log(scale);
            scale = 1;
          }
        }
      }
      let sum = 0;
      if (!dead) for (let k = 0; k < K; k++) sum += acc[k];
      const tb = i * K;
      if (sum === 0) {
        ll = Number.NEGATIVE_INFINITY; // no class can explain this item: it keeps its previous posterior
      } else {
        ll += logScale + Math.log(scale) + Math.log(sum);
        if (goldOf[i] < 0) {
          const inv = 1 / sum;
          for (let k = 0; k < K; k++) {
            const p = acc[k] * inv;
            T[tb + k] = p < RELATIVE_FLOOR ? 0 : p;
          }
        }
      }
      // accumulate the next M-step from this item's (new) posterior
      for (let k = 0; k < K; k++) priorNext[k] += T[tb + k];
      for (let j = s0; j < s1; j++) {
        const base = (annotator[j] * K + label[j]) * K;
        for (let k = 0; k < K; k++) next[base + k] += T[tb + k];
      }
    }
    normaliseConfusion(next, W, K, conf);
    for (let k = 0; k < K; k++) priors[k] = N > 0 ? priorNext[k] / N : 1 / K;
    iterations = it;
    const improvement = ll - logLikelihood;
    logLikelihood = ll;
    if (it > 1 && Math.abs(improvement) < tolerance) {
      converged = true;
      break;
    }
    yield;
  }
  if (maxIterations === 0) converged = false;

  // conf and priors now hold the M-step of the final posteriors (the parameters reported).
  const itemLabels: string[] = new Array(N);
  const best = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    let b = 0;
    for (let k = 1; k < K; k++) if (T[i * K + k] > T[i * K + b]) b = k;
    best[i] = b;
    itemLabels[i] = data.labels[b];
  }
  const judgmentsOf = new Int32Array(W);
  for (let j = 0; j < annotator.length; j++) judgmentsOf[annotator[j]]++;
  const workers: WorkerConfusion[] = data.annotators.map((name, w) => ({
    annotator: name,
    confusion: Array.from({ length: K }, (_, t) => Array.from({ length: K }, (_, g) => conf[(w * K + g) * K + t])),
    judgments: judgmentsOf[w],
  }));
  const priorRecord: Record<string, number> = {};
  data.labels.forEach((l, k) => (priorRecord[l] = priors[k]));

  const mv = majorityVote(data);
  const disagreements: DawidSkeneResult["disagreements"] = [];
  for (let i = 0; i < N; i++) {
    const p = mv.plurality[i];
    if (p !== best[i]) {
      disagreements.push({
        item: data.items[i],
        majority: p >= 0 ? data.labels[p] : null,
        dawidSkene: itemLabels[i],
        posterior: T[i * K + best[i]],
      });
    }
  }
  return {
    items: data.items,
    labels: data.labels,
    posteriors: T,
    itemLabels,
    priors: priorRecord,
    workers,
    iterations,
    converged,
    logLikelihood,
    disagreements,
  };
}

function mStep(
  T: Float64Array,
  data: EncodedJudgments,
  K: number,
  W: number,
  smoothing: number,
  priors: Float64Array,
  conf: Float64Array,
): void {
  const N = data.items.length;
  priors.fill(0);
  for (let i = 0; i < N; i++) for (let k = 0; k < K; k++) priors[k] += T[i * K + k];
  for (let k = 0; k < K; k++) priors[k] = N > 0 ? priors[k] / N : 1 / K;
  conf.fill(smoothing);
  const { itemStart, annotator, label } = data;
  for (let i = 0; i < N; i++) {
    const tb = i * K;
    for (let j = itemStart[i]; j < itemStart[i + 1]; j++) {
      const base = (annotator[j] * K + label[j]) * K;
      for (let k = 0; k < K; k++) conf[base + k] += T[tb + k];
    }
  }
  normaliseConfusion(conf, W, K, conf);
}

/** out = counts normalised over answers g for each worker and true class t (cells (w·K + g)·K + t). */
function normaliseConfusion(counts: Float64Array, W: number, K: number, out: Float64Array): void {
  const sums = new Float64Array(K);
  for (let w = 0; w < W; w++) {
    sums.fill(0);
    const wb = w * K * K;
    for (let g = 0; g < K; g++) for (let t = 0; t < K; t++) sums[t] += counts[wb + g * K + t];
    for (let g = 0; g < K; g++) {
      for (let t = 0; t < K; t++) {
        // no evidence for this true class: uninformative
        out[wb + g * K + t] = sums[t] > 0 ? counts[wb + g * K + t] / sums[t] : 1 / K;
      }
    }
  }
}

function goldCodes(data: EncodedJudgments, gold: DawidSkeneOptions["gold"]): Int32Array {
  const out = new Int32Array(data.items.length).fill(-1);
  if (!gold) return out;
  const entries: Array<[string, string]> = gold instanceof Map ? [...gold.entries()] : Object.entries(gold);
  const itemIndex = new Map(data.items.map((id, i) => [id, i]));
  const labelIndex = new Map(data.labels.map((l, k) => [l, k]));
  for (const [item, l] of entries) {
    const i = itemIndex.get(item);
    if (i === undefined) continue;
    const k = labelIndex.get(l);
    if (k === undefined) throw new UserError(`Gold label "${l}" of item "${item}" is not among the judged labels.`);
    out[i] = k;
  }
  return out;
}

function applyGold(T: Float64Array, goldOf: Int32Array, K: number): void {
  for (let i = 0; i < goldOf.length; i++) {
    const g = goldOf[i];
    if (g < 0) continue;
    for (let k = 0; k < K; k++) T[i * K + k] = k === g ? 1 : 0;
  }
}
