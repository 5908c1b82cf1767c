import { minCountFor, type Ratio } from "./ratio";
import type { ProcedureSettings } from "./settings";
import { recordPosteriorBelow } from "./whole-record";

/**
 * How often the gold rule decides wrongly. A worker answers each of a HIT's n gold tweets right independently
 * with their true accuracy p, so the correct count is Binomial(n, p) and the rule "≥ num/den" rejects when it is
 * below ceil(n·num/den). Exact sums (n ≤ 100).
 */
export function binomialPmf(n: number, k: number, p: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c * p ** k * (1 - p) ** (n - k);
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialAtLeast(n: number, k: number, p: number): number {
  let sum = 0;
  for (let x = Math.max(0, k); x <= n; x++) sum += binomialPmf(n, x, p);
  return Math.min(1, sum);
}

/** Probability that a worker of true accuracy p is rejected by "≥ ratio" on n gold tweets. */
export function rejectProbability(n: number, ratio: Ratio, p: number): number {
  return 1 - binomialAtLeast(n, minCountFor(n, ratio), p);
}

/** Probability that a worker of accuracy p passes (is approved) by "≥ ratio" on n gold tweets. */
export function acceptProbability(n: number, ratio: Ratio, p: number): number {
  return binomialAtLeast(n, minCountFor(n, ratio), p);
}

export type GoldRuleRisk = {
  /** Gold tweets per HIT and the correct answers needed. */
  gold: number;
  needed: number;
  /** Rejection probability of honest workers by their true accuracy. */
  honest: Array<{ accuracy: number; reject: number }>;
  /** Approval probability of a spammer who picks a label at random among `labels`. */
  randomSpammerAccept: number;
  /** Approval probability of a spammer who always gives the gold's most common label (share `constantShare`). */
  constantSpammerAccept: number;
};

/**
 * The gold rule's wrong decisions for an event: honest workers at 70, 80 and 90% accuracy, a random spammer over
 * `labels` labels, and a constant spammer whose one label is right on a `constantShare` of gold tweets (the largest
 * label share among the event's gold; 1/labels when unknown).
 */
export function goldRuleRisk(
  settings: ProcedureSettings,
  { labels, constantShare, accuracies = [0.7, 0.8, 0.9] }: { labels: number; constantShare?: number; accuracies?: number[] },
): GoldRuleRisk {
  const n = settings.goldPerHit;
  const r = settings.assignmentApproval;
  const k = Math.max(1, labels);
  return {
    gold: n,
    needed: minCountFor(n, r),
    honest: accuracies.map((accuracy) => ({ accuracy, reject: rejectProbability(n, r, accuracy) })),
    randomSpammerAccept: acceptProbability(n, r, 1 / k),
    constantSpammerAccept: acceptProbability(n, r, constantShare ?? 1 / k),
  };
}

/** "a 70%-accurate worker is rejected in 35.0% of HITs, …": the risk in one sentence for forms and tables. */
export function describeGoldRuleRisk(risk: GoldRuleRisk): string {
  const pct = (x: number) => `${(100 * x).toFixed(x < 0.001 && x > 0 ? 3 : 1)}%`;
  const honest = risk.honest.map((h) => `${Math.round(h.accuracy * 100)}%-accurate worker ${pct(h.reject)}`).join(", ");
  return `With ${risk.needed} of ${risk.gold} gold needed, the chance of rejecting an honest HIT: ${honest}. Chance that a spammer's HIT is approved: random labels ${pct(risk.randomSpammerAccept)}, one constant label ${pct(risk.constantSpammerAccept)}.`;
}

/**
 * The whole-record rule (Beta-binomial, whole-record.ts): with a uniform prior, a worker with c right of t gold answers over all
 * their HITs has accuracy ~ Beta(1 + c, 1 + t − c); the rule rejects when P(accuracy < threshold) > level.
 * For integer parameters P(θ < x) under Beta(a, b) equals P(Binomial(a + b − 1, x) ≥ a) (summed in log space there).
 */
export function posteriorBelow(correct: number, total: number, threshold: number): number {
  return recordPosteriorBelow({ correct, total }, threshold);
}

export type WorkerGoldRecord = { workerId: string; correct: number; total: number; rejectedAssignments: number; approvedAssignments: number };

/**
 * What the whole-record rule would have changed among an event's decisions: workers it would reject while the
 * per-HIT rule approved all their assignments, and workers with per-HIT rejections that it would keep.
 */
export function wholeRecordChanges(
  records: readonly WorkerGoldRecord[],
  { threshold, level = 0.95 }: { threshold: number; level?: number },
): { rejectionsKept: number; workersSpared: number; workersNewlyRejected: number } {
  let rejectionsKept = 0;
  let workersSpared = 0;
  let workersNewlyRejected = 0;
  for (const r of records) {
    const reject = r.total > 0 && posteriorBelow(r.correct, r.total, threshold) > level;
    if (!reject && r.rejectedAssignments > 0) {
      workersSpared++;
      rejectionsKept += r.rejectedAssignments;
    }
    if (reject && r.rejectedAssignments === 0) workersNewlyRejected++;
  }
  return { rejectionsKept, workersSpared, workersNewlyRejected };
}

/** Beta-binomial pmf: P(K = k) for K ~ Binomial(n, θ), θ ~ Beta(a, b), by exact products (integer a, b; n ≤ 100). */
export function betaBinomialPmf(n: number, k: number, a: number, b: number): number {
  if (k < 0 || k > n) return 0;
  let value = 1;
  for (let i = 1; i <= k; i++) value = (value * (n - k + i)) / i;
  for (let i = 0; i < k; i++) value *= a + i;
  for (let j = 0; j < n - k; j++) value *= b + j;
  for (let m = 0; m < n; m++) value /= a + b + m;
  return value;
}

/**
 * A worker's chance that their next HIT is rejected by "≥ ratio" on n gold tweets, given their gold record so far
 * (`correct` of `total`, uniform prior): the Beta-binomial predictive probability of fewer than the needed count.
 */
export function predictedRejectProbability(n: number, ratio: Ratio, correct: number, total: number): number {
  const needed = minCountFor(n, ratio);
  let p = 0;
  for (let k = 0; k < needed; k++) p += betaBinomialPmf(n, k, 1 + correct, 1 + total - correct);
  return Math.min(1, p);
}
