import { meetsRatio } from "./ratio";
import type { ProcedureSettings } from "./settings";

/**
 * The whole-record gold rule (issue 20, point 5): an assignment is judged by its worker's gold record across this
 * event's HITs up to and including it, in submission order. Under a uniform Beta(1, 1) prior the worker's accuracy
 * given c right of t gold answers is Beta(1 + c, 1 + t − c); the assignment is rejected (or held) when
 * P(accuracy < assignmentApproval | record) > wholeRecordLevel, else approved.
 */
export type GoldRecord = { correct: number; total: number };

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: relative error ≈ 1e-15). */
function logGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * P(θ < x) for θ ~ Beta(a, b) with integer a, b ≥ 1, through P(Binomial(a + b − 1, x) ≥ a), summed in log space so
 * that long records (thousands of gold answers) neither overflow nor underflow.
 */
export function betaBelow(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const n = a + b - 1;
  const lx = Math.log(x);
  const l1x = Math.log1p(-x);
  const ratio = lx - l1x;
  let log = logGamma(n + 1) - logGamma(a + 1) - logGamma(n - a + 1) + a * lx + (n - a) * l1x;
  let sum = 0;
  for (let k = a; k <= n; k++) {
    sum += Math.exp(log);
    log += Math.log((n - k) / (k + 1)) + ratio;
  }
  return Math.min(1, Math.max(0, sum));
}

/** The posterior probability that the accuracy behind `record` is below `threshold` (uniform prior). */
export function recordPosteriorBelow(record: GoldRecord, threshold: number): number {
  return betaBelow(1 + record.correct, 1 + record.total - record.correct, threshold);
}

export type WholeRecordJudgement = { record: GoldRecord; posterior: number; level: number; passes: boolean };

/**
 * The whole-record rule for one assignment: its own gold (`own`) added to the worker's earlier record in this event
 * (`prior`); it passes unless the posterior probability of an accuracy below assignmentApproval exceeds the level.
 */
export function judgeWholeRecord(own: GoldRecord, prior: GoldRecord, settings: ProcedureSettings): WholeRecordJudgement {
  const record = { correct: prior.correct + own.correct, total: prior.total + own.total };
  const a = settings.assignmentApproval;
  const posterior = recordPosteriorBelow(record, a.num / a.den);
  return { record, posterior, level: settings.wholeRecordLevel, passes: !(posterior > settings.wholeRecordLevel) };
}

/**
 * Each worker's record before each of `items` (given in submission order), starting from `start` (their record
 * before the first item; none when absent). Items with no gold add nothing.
 */
export function priorRecords(items: ReadonlyArray<{ workerId: string } & GoldRecord>, start: ReadonlyMap<string, GoldRecord> = new Map()): GoldRecord[] {
  const running = new Map<string, GoldRecord>();
  return items.map((it) => {
    const before = running.get(it.workerId) ?? start.get(it.workerId) ?? { correct: 0, total: 0 };
    running.set(it.workerId, { correct: before.correct + it.correct, total: before.total + it.total });
    return before;
  });
}

export type GoldRuleComparison = {
  /** Graded assignments with gold (the ones either rule decides). */
  assignments: number;
  /** Assignments each rule turns down (rejects or holds). */
  perHitRejects: number;
  wholeRecordRejects: number;
  /** Per-HIT rejections the whole-record rule would approve. */
  rejectionsSpared: number;
  /** Per-HIT approvals the whole-record rule would turn down. */
  approvalsTurnedDown: number;
};

/**
 * Both gold rules over an event's graded assignments (in submission order, with running records): how many of the
 * per-HIT rule's rejections the whole-record rule would have changed, and the reverse. Threshold and level from
 * `settings`, whichever rule the event uses.
 */
export function compareGoldRules(items: ReadonlyArray<{ workerId: string } & GoldRecord>, settings: ProcedureSettings): GoldRuleComparison {
  const priors = priorRecords(items);
  const out: GoldRuleComparison = { assignments: 0, perHitRejects: 0, wholeRecordRejects: 0, rejectionsSpared: 0, approvalsTurnedDown: 0 };
  const a = settings.assignmentApproval;
  items.forEach((it, i) => {
    if (it.total <= 0) return;
    out.assignments++;
    const perHit = meetsRatio(it.correct, it.total, a);
    const whole = judgeWholeRecord(it, priors[i], settings).passes;
    if (!perHit) out.perHitRejects++;
    if (!whole) out.wholeRecordRejects++;
    if (!perHit && whole) out.rejectionsSpared++;
    if (perHit && !whole) out.approvalsTurnedDown++;
  });
  return out;
}

/** The comparison in one sentence, for the Settings page and the event's rules card. */
export function describeGoldRuleComparison(c: GoldRuleComparison): string {
  if (c.assignments === 0) return "No assignment of this event has been graded yet, so neither rule has decided anything to compare.";
  const s = (n: number) => (n === 1 ? "" : "s");
  return `Of this event's ${c.assignments} graded assignment${s(c.assignments)}, the whole-record rule would have changed ${c.rejectionsSpared} of the per-HIT rule's ${c.perHitRejects} rejection${s(c.perHitRejects)} (approving them) and turned down ${c.approvalsTurnedDown} assignment${s(c.approvalsTurnedDown)} the per-HIT rule approved.`;
}

/** Submission order for the whole-record rule: submit time (none last), then id. */
export function bySubmission(x: { id: string; submitTime: Date | null }, y: { id: string; submitTime: Date | null }): number {
  const at = (t: Date | null) => (t ? t.getTime() : Infinity);
  return at(x.submitTime) - at(y.submitTime) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
}
