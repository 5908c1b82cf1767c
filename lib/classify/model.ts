import type { MetricName } from "@/lib/metrics/classification";
import { FeatureSpace, type FeatureOptions, type SparseRows } from "./features";
import { type Loss, trainOneVsRest } from "./linear";

/** What the ingest pipeline needs from a model: one predicted label per text. */
export type LabelPredictor = { predict(texts: string[]): string[] };

export type LinearWeights = {
  loss: Loss;
  /** Class names; column order of scores and probabilities. */
  labels: string[];
  /** Number of score vectors: 1 for two classes (score of labels[1]), else one per class. */
  outputs: number;
  /** weights[col * outputs + k]: feature-major, so one sparse row touches contiguous memory. */
  weights: Float32Array;
  biases: Float32Array;
  /** Softmax temperature applied to the scores for probabilities (fitted on dev data when given). */
  probabilityScale: number;
};

/** How a model was trained; stored with it. */
export type TrainingInfo = {
  kind: "tfidf-linear";
  trainedAt: string;
  rows: number;
  labelCounts: Record<string, number>;
  /** Feature columns kept after pruning. */
  features: number;
  options: ModelOptions;
  /** Wall-clock training time, including the search on dev data. */
  trainingMs: number;
  /** Solver passes over the data of the kept fit. */
  iterations: number;
  dev?: { rows: number; metric: MetricName; score: number };
  /** Dev score of every setting tried (when searched). */
  search?: Array<{ loss: Loss; c: number; classWeight: "none" | "balanced"; score: number }>;
};

/** A trained tweet classifier: hashed tf-idf features + a linear model. */
export class TextClassifier implements LabelPredictor {
  constructor(
    readonly features: FeatureSpace,
    readonly linear: LinearWeights,
    readonly info: TrainingInfo,
  ) {}

  get labels(): string[] {
    return this.linear.labels;
  }

  /** Raw scores per featurised row, one per class (a two-class model scores [0, s]). */
  scoreRows(x: SparseRows): Float64Array[] {
    return scoreSparse(this.linear, x);
  }

  scores(texts: readonly string[]): Float64Array[] {
    return this.scoreRows(this.features.transform(texts));
  }

  predict(texts: string[]): string[] {
    return this.scores(texts).map((s) => this.labels[argmax(s)]);
  }

  /** Class probabilities per text, in `labels` order. */
  predictProba(texts: string[]): number[][] {
    return this.scores(texts).map((s) => softmax(s, this.linear.probabilityScale));
  }
}

/** Scores of sparse rows under linear weights, one per class (a two-class model scores [0, s]). */
export function scoreSparse({ outputs, weights, biases, labels }: LinearWeights, x: SparseRows): Float64Array[] {
  const out: Float64Array[] = [];
  for (let i = 0; i < x.rows; i++) {
    const s = new Float64Array(outputs);
    for (let k = 0; k < outputs; k++) s[k] = biases[k];
    for (let j = x.indptr[i]; j < x.indptr[i + 1]; j++) {
      const base = x.indices[j] * outputs;
      const v = x.values[j];
      for (let k = 0; k < outputs; k++) s[k] += weights[base + k] * v;
    }
    out.push(outputs === 1 && labels.length === 2 ? Float64Array.of(0, s[0]) : s);
  }
  return out;
}

export function argmax(s: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < s.length; k++) if (s[k] > s[best]) best = k;
  return best;
}

export function softmax(s: ArrayLike<number>, scale: number): number[] {
  const m = s[argmax(s)];
  const e = Array.from(s, (v) => Math.exp(scale * (v - m)));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

export type LinearOptions = {
  loss: Loss;
  /** Cost C of the regularised objective (larger = less regularisation). */
  c: number;
  /** "balanced": each class weighted n / (k · n_class), as scikit-learn does. */
  classWeight: "none" | "balanced";
  bias: number;
  epsilon: number;
  maxIterations: number;
  seed: number;
};

/**
 * Trains the linear part on already-featurised rows. Returns the dual variables too, which can warm
 * start the next fit of the same rows (see trainClassifier's parameter search).
 */
export function trainLinear(
  x: SparseRows,
  y: Int32Array,
  labels: string[],
  o: LinearOptions,
  warmStart?: Float64Array,
): { weights: LinearWeights; alpha: Float64Array; iterations: number } {
  const k = labels.length;
  const counts = new Array<number>(k).fill(0);
  for (const v of y) counts[v]++;
  const classCost = counts.map((n) => (o.classWeight === "balanced" && n > 0 ? (o.c * y.length) / (k * n) : o.c));
  const cost = Float64Array.from(y, (v) => classCost[v]);
  const solution = trainOneVsRest(
    { x, y, classes: k, cost, bias: o.bias },
    { loss: o.loss, epsilon: o.epsilon, maxIterations: o.maxIterations, seed: o.seed, warmStart },
  );
  const weights: LinearWeights = {
    loss: o.loss,
    labels,
    outputs: solution.outputs,
    weights: solution.weights,
    biases: Float32Array.from(solution.biases),
    probabilityScale: o.loss === "logistic" ? 1 : 2,
  };
  return { weights, alpha: solution.alpha, iterations: solution.iterations };
}

export type ModelOptions = { features: FeatureOptions; linear: LinearOptions };
