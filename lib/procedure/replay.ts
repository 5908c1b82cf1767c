import { decideHitFromJudgments } from "./decisions";
import { initialAssignments } from "./dynamic-overlap";
import { meetsRatio, minCountFor, type Ratio } from "./ratio";
import type { ProcedureSettings } from "./settings";
import { HIT_STATUS, TWEET_STATUS } from "@/lib/db/enums";
import { type GoldRecord, judgeWholeRecord } from "./whole-record";

/**
 * Replays recorded work under other thresholds, without any provider: each HIT's recorded assignments in
 * submission order are graded by the gold rule (per HIT, or on the worker's record before it plus its own gold), its tweets decided by the label rule, and the HIT approved,
 * extended (taking the next recorded assignments) or left unresolved, exactly as the sync loop decides. A HIT whose
 * replay asks for more assignments than were recorded stops there ("out of data", counted as unresolved).
 */
export type RecordedAssignment = {
  goldCorrect: number;
  goldTotal: number;
  /** Unknown tweets' answers: tweetId → label. */
  labels: ReadonlyMap<string, string>;
  /** The worker's gold record in the event before this assignment (for the whole-record rule; none when absent). */
  priorRecord?: GoldRecord;
};

export type RecordedHit = { id: string; unknownTweetIds: readonly string[]; assignments: readonly RecordedAssignment[] };

export type ReplayedHit = {
  id: string;
  state: typeof HIT_STATUS.approved | typeof HIT_STATUS.unresolved | "out_of_data";
  /** Assignments the replay used (its final MaxAssignments, at most the recorded ones). */
  assignmentsUsed: number;
  /** Indexes (into the recorded assignments) of the approved ones. */
  approved: number[];
  accepted: Array<{ tweetId: string; label: string }>;
};

/** Whether the event's gold rule (per HIT, or the whole record: settings.goldRule) approves a recorded assignment. */
export function gradeRecorded(a: RecordedAssignment, settings: ProcedureSettings): boolean {
  if (a.goldTotal <= 0) return false;
  if (settings.goldRule === "whole-record") return judgeWholeRecord({ correct: a.goldCorrect, total: a.goldTotal }, a.priorRecord ?? { correct: 0, total: 0 }, settings).passes;
  return meetsRatio(a.goldCorrect, a.goldTotal, settings.assignmentApproval);
}

export function replayHit(hit: RecordedHit, settings: ProcedureSettings): ReplayedHit {
  const recorded = hit.assignments.length;
  let max = initialAssignments(settings);
  for (;;) {
    const used = Math.min(max, recorded);
    const approved: number[] = [];
    const labels = new Map<string, string[]>(hit.unknownTweetIds.map((t) => [t, []]));
    for (let i = 0; i < used; i++) {
      const a = hit.assignments[i];
      if (!gradeRecorded(a, settings)) continue;
      approved.push(i);
      for (const [tweetId, label] of a.labels) labels.get(tweetId)?.push(label);
    }
    const decided = decideHitFromJudgments({
      tweets: hit.unknownTweetIds.map((tweetId) => ({ tweetId, labels: labels.get(tweetId) ?? [] })),
      currentAssignments: max,
      settings,
    });
    const accepted = decided.tweets.filter((t) => t.state === TWEET_STATUS.accepted && t.label).map((t) => ({ tweetId: t.tweetId, label: t.label as string }));
    if (decided.hit.state === "extend") {
      if (max + decided.hit.extraAssignments <= recorded) {
        max += decided.hit.extraAssignments;
        continue;
      }
      return { id: hit.id, state: "out_of_data", assignmentsUsed: used, approved, accepted };
    }
    return { id: hit.id, state: decided.hit.state, assignmentsUsed: used, approved, accepted };
  }
}

export type ReplayThresholds = { assignmentApproval: Ratio; tweetAcceptance: Ratio; hitApproval: Ratio };

/** The label rules every replay tries (the paper's and two stricter ones). */
export const REPLAY_LABEL_RULES: readonly Ratio[] = [
  { num: 2, den: 3 },
  { num: 3, den: 4 },
  { num: 3, den: 5 },
];

/**
 * The grid around an event's own rules: the gold rule at one correct answer fewer, its own and one more (of its
 * gold tweets), each label rule of REPLAY_LABEL_RULES, the HIT rule from two accepted tweets fewer to two more (of
 * its unknown tweets). For the paper's settings: gold 6–8/10 × label 2/3, 3/4, 3/5 × HIT 12–16/20.
 */
export function replayGrid(settings: ProcedureSettings): ReplayThresholds[] {
  const around = (total: number, ratio: Ratio, spread: number) => {
    const needed = minCountFor(total, ratio);
    const counts: number[] = [];
    for (let c = Math.max(1, needed - spread); c <= Math.min(total, needed + spread); c++) counts.push(c);
    return counts.map((num) => ({ num, den: total }));
  };
  const grid: ReplayThresholds[] = [];
  for (const gold of around(settings.goldPerHit, settings.assignmentApproval, 1)) {
    for (const label of REPLAY_LABEL_RULES) {
      for (const hit of around(settings.unknownPerHit, settings.hitApproval, 2)) grid.push({ assignmentApproval: gold, tweetAcceptance: label, hitApproval: hit });
    }
  }
  return grid;
}
