import { minCountFor } from "./ratio";
import type { ProcedureSettings } from "./settings";

/**
 * Dynamic overlap (settings.dynamicOverlap, off by default; README.md has the rule and its cost model).
 *
 * Rule: publish every HIT with `initial` (2) assignments instead of judgmentsPerTweet (3). When both are in,
 * a tweet whose two approved judgments agree is accepted (2 of 2 meets the 2/3 rule). If the two disagree on at
 * most `maxDisagreements` unknown tweets (default 20 − 14 = 6, so that the HIT still meets the 14/20 approval
 * rule) the HIT is approved as it is; otherwise it gets the missing assignments up to judgmentsPerTweet and from
 * then on follows the ordinary rules. decideHit applies this; use `initialAssignments` when publishing.
 */

/** MaxAssignments for a newly published HIT. */
export function initialAssignments(settings: ProcedureSettings): number {
  return settings.dynamicOverlap.enabled ? settings.dynamicOverlap.initial : settings.judgmentsPerTweet;
}

/** True while a HIT is in the first (reduced) stage of dynamic overlap. */
export function isDynamicOverlapStage(settings: ProcedureSettings, currentAssignments: number): boolean {
  return settings.dynamicOverlap.enabled && currentAssignments < settings.judgmentsPerTweet;
}

/** Judgments a tweet needs before its label can be accepted, for a HIT with this many assignments. */
export function minJudgmentsForAcceptance(settings: ProcedureSettings, currentAssignments: number): number {
  return isDynamicOverlapStage(settings, currentAssignments)
    ? settings.dynamicOverlap.initial
    : settings.judgmentsPerTweet;
}

export type DynamicOverlapEstimate = {
  /** Probability that a HIT stops after the first stage. */
  stopProbability: number;
  /** Expected assignments per HIT with dynamic overlap (before any ordinary extension). */
  expectedAssignmentsPerHit: number;
  /** Assignments per HIT without it (judgmentsPerTweet). */
  fixedAssignmentsPerHit: number;
  /** 1 − expected/fixed: the share of assignment cost saved (fees are proportional to rewards). */
  costSaving: number;
  /** Expected unknown tweets left without an agreed label in a HIT that stops early. */
  expectedUnlabelledPerStoppedHit: number;
};

/**
 * Expected effect of dynamic overlap when two judgments of an unknown tweet agree with probability
 * `pairAgreement` independently across tweets (the average observed agreement of the paper's Table 3, 0.55–0.83,
 * estimates it). Only valid with initial = 2 (the first stage compares one pair). Exact binomial sums.
 */
export function estimateDynamicOverlap({
  settings,
  pairAgreement,
}: {
  settings: ProcedureSettings;
  pairAgreement: number;
}): DynamicOverlapEstimate {
  if (!(pairAgreement >= 0 && pairAgreement <= 1)) throw new RangeError("pairAgreement must be in [0, 1]");
  if (settings.dynamicOverlap.initial !== 2) throw new RangeError("the cost model covers dynamicOverlap.initial = 2");
  const n = settings.unknownPerHit;
  const allowed = Math.min(settings.dynamicOverlap.maxDisagreements, n - minCountFor(n, settings.hitApproval));
  const q = 1 - pairAgreement;
  let stop = 0;
  let weighted = 0;
  for (let d = 0; d <= allowed; d++) {
    const p = binomialPmf(n, d, q);
    stop += p;
    weighted += d * p;
  }
  const fixed = settings.judgmentsPerTweet;
  const initial = settings.dynamicOverlap.initial;
  const expected = initial + (1 - stop) * (fixed - initial);
  return {
    stopProbability: stop,
    expectedAssignmentsPerHit: expected,
    fixedAssignmentsPerHit: fixed,
    costSaving: 1 - expected / fixed,
    expectedUnlabelledPerStoppedHit: stop > 0 ? weighted / stop : 0,
  };
}

function binomialPmf(n: number, k: number, p: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c * p ** k * (1 - p) ** (n - k);
}
