import { decideHitFromJudgments } from "./decisions";
import { initialAssignments } from "./dynamic-overlap";
import { meetsRatio, type Ratio } from "./ratio";
import type { ProcedureSettings } from "./settings";

/**
 * Replays recorded work under other thresholds, without any provider: each HIT's recorded assignments in
 * submission order are graded by the gold rule, its tweets decided by the label rule, and the HIT approved,
 * extended (taking the next recorded assignments) or left unresolved, exactly as the sync loop decides. A HIT whose
 * replay asks for more assignments than were recorded stops there ("out of data", counted as unresolved).
 */
export type RecordedAssignment = {
  goldCorrect: number;
  goldTotal: number;
  /** Unknown tweets' answers: tweetId → label. */
  labels: ReadonlyMap<string, string>;
};

export type RecordedHit = { id: string; unknownTweetIds: readonly string[]; assignments: readonly RecordedAssignment[] };

export type ReplayedHit = {
  id: string;
  state: "approved" | "unresolved" | "out_of_data";
  /** Assignments the replay used (its final MaxAssignments, at most the recorded ones). */
  assignmentsUsed: number;
  /** Indexes (into the recorded assignments) of the approved ones. */
  approved: number[];
  accepted: Array<{ tweetId: string; label: string }>;
};

export function gradeRecorded(a: RecordedAssignment, rule: Ratio): boolean {
  return a.goldTotal > 0 && meetsRatio(a.goldCorrect, a.goldTotal, rule);
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
      if (!gradeRecorded(a, settings.assignmentApproval)) continue;
      approved.push(i);
      for (const [tweetId, label] of a.labels) labels.get(tweetId)?.push(label);
    }
    const decided = decideHitFromJudgments({
      tweets: hit.unknownTweetIds.map((tweetId) => ({ tweetId, labels: labels.get(tweetId) ?? [] })),
      currentAssignments: max,
      settings,
    });
    const accepted = decided.tweets.filter((t) => t.state === "accepted" && t.label).map((t) => ({ tweetId: t.tweetId, label: t.label as string }));
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

/** The grid of the issue: gold 6–8/10 × label 2/3, 3/4, 3/5 × HIT 12–16/20. */
export function replayGrid(): ReplayThresholds[] {
  const grid: ReplayThresholds[] = [];
  for (const gold of [6, 7, 8]) {
    for (const label of [{ num: 2, den: 3 }, { num: 3, den: 4 }, { num: 3, den: 5 }]) {
      for (let hit = 12; hit <= 16; hit++) grid.push({ assignmentApproval: { num: gold, den: 10 }, tweetAcceptance: label, hitApproval: { num: hit, den: 20 } });
    }
  }
  return grid;
}
