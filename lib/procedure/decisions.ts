import { isDynamicOverlapStage, minJudgmentsForAcceptance } from "./dynamic-overlap";
import { meetsRatio, minCountFor, ratioPercentText, type Ratio } from "./ratio";
import type { ProcedureSettings } from "./settings";
import { HIT_STATUS, TWEET_STATUS } from "@/lib/db/enums";

/** MTurk refuses to grow a HIT from fewer than 10 to 10 or more assignments (InvalidMaximumAssignmentsIncrease). */
export const MTURK_ASSIGNMENT_STEP_LIMIT = 10;

export type TweetState = "accepted" | "needs_more" | "unresolved";

export type TweetDecision = {
  state: TweetState;
  /** The accepted label (only when state is "accepted"). */
  label?: string;
  /** Count of the most frequent label. */
  top: number;
  /** Number of approved judgments. */
  total: number;
  /** Label → count, most frequent first (ties by label). */
  votes: Record<string, number>;
  /**
   * Fewest further approved judgments that could still get the tweet accepted within maxJudgmentsPerTweet
   * (0 when accepted, null when no number of further judgments can).
   */
  neededForAcceptance: number | null;
};

/**
 * Label acceptance for one tweet from its APPROVED judgments: the top label is accepted when it is unique, the
 * tweet has at least `minJudgments` judgments (judgmentsPerTweet, or dynamicOverlap.initial in the first stage)
 * and top/total ≥ settings.tweetAcceptance, compared as integers (3·top ≥ 2·n: 2/3 and 3/4 pass, 3/5 and 2/4
 * fail). Otherwise the tweet "needs_more" judgments while more could still get it accepted within
 * maxJudgmentsPerTweet, and is "unresolved" when not (with extendOnlyWhenReachable false: until the cap).
 */
export function decideTweet({
  labels,
  settings,
  minJudgments = settings.judgmentsPerTweet,
}: {
  labels: readonly string[];
  settings: ProcedureSettings;
  minJudgments?: number;
}): TweetDecision {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const votes: Record<string, number> = {};
  for (const [l, c] of sorted) votes[l] = c;
  const total = labels.length;
  const top = sorted.length > 0 ? sorted[0][1] : 0;
  const unique = sorted.length === 1 || (sorted.length > 1 && sorted[1][1] < top);
  const ratio = settings.tweetAcceptance;
  if (total > 0 && total >= minJudgments && unique && meetsRatio(top, total, ratio)) {
    return { state: TWEET_STATUS.accepted, label: sorted[0][0], top, total, votes, neededForAcceptance: 0 };
  }
  const cap = settings.maxJudgmentsPerTweet;
  const needed = judgmentsToAcceptance(top, total, minJudgments, cap, ratio);
  let state: TweetState;
  if (needed !== null) state = "needs_more";
  else state = !settings.extendOnlyWhenReachable && total < cap ? "needs_more" : TWEET_STATUS.unresolved;
  return { state, top, total, votes, neededForAcceptance: needed };
}

/** Best case: every further judgment goes to the current top label (which also breaks any tie). */
function judgmentsToAcceptance(top: number, total: number, minJudgments: number, cap: number, ratio: Ratio): number | null {
  for (let m = Math.max(1, minJudgments - total); total + m <= cap; m++) {
    if (meetsRatio(top + m, total + m, ratio)) return m;
  }
  return null;
}

export type HitState = "approved" | "extend" | "unresolved";

export type HitDecision = {
  state: HitState;
  /** Unknown tweets with an accepted label. */
  accepted: number;
  /** Unknown tweets in the HIT (20, fewer for a final partial HIT). */
  total: number;
  /** Accepted tweets needed (14 of 20). */
  required: number;
  /** Assignments to add (CreateAdditionalAssignmentsForHIT) when state is "extend", else 0. */
  extraAssignments: number;
  reason: {
    rule: "hit_approval" | "dynamic_overlap" | "assignment_cap" | "unreachable" | "no_unknown" | "any_unresolved";
    accepted: number;
    total: number;
    threshold: Ratio;
    text: string;
  };
};

/**
 * HIT decision from its unknown tweets' decisions: approved when accepted/total ≥ settings.hitApproval (14/20).
 * Otherwise the fewest extra assignments that could bring enough tweets to acceptance (each tweet's
 * neededForAcceptance, the k-th smallest among the tweets that need more), never past maxJudgmentsPerTweet
 * assignments and never from < 10 to ≥ 10 (MTurk's rule). "unresolved" when no extension can approve it.
 * `currentAssignments` is the HIT's MaxAssignments so far (approved, rejected and pending ones).
 * In the first stage of dynamic overlap (currentAssignments < judgmentsPerTweet) the HIT is approved when the
 * first judgments disagree on at most maxDisagreements tweets (and the 14/20 rule holds), else extended to
 * judgmentsPerTweet.
 */
export function decideHit({
  tweetStates,
  currentAssignments,
  settings,
}: {
  tweetStates: ReadonlyArray<{ state: TweetState; neededForAcceptance?: number | null }>;
  currentAssignments: number;
  settings: ProcedureSettings;
}): HitDecision {
  const total = tweetStates.length;
  const threshold = settings.hitApproval;
  let accepted = 0;
  for (const t of tweetStates) if (t.state === TWEET_STATUS.accepted) accepted++;
  const required = minCountFor(total, threshold);
  const pct = ratioPercentText(threshold);
  const base = { accepted, total, required };
  const result = (
    state: HitState,
    extraAssignments: number,
    rule: HitDecision["reason"]["rule"],
    text: string,
  ): HitDecision => ({ state, ...base, extraAssignments, reason: { rule, accepted, total, threshold, text } });

  if (total === 0) return result("unresolved", 0, "no_unknown", "The HIT has no unknown tweets to decide.");
  const counts = `${accepted} of ${total} unknown tweets have an accepted label`;
  const meets = meetsRatio(accepted, total, threshold);

  const headroom = assignmentHeadroom(currentAssignments, settings.maxJudgmentsPerTweet);

  if (isDynamicOverlapStage(settings, currentAssignments)) {
    const disagreements = total - accepted;
    const limit = settings.dynamicOverlap.maxDisagreements;
    if (meets && disagreements <= limit) {
      return result(
        "approved",
        0,
        "dynamic_overlap",
        `Approved after ${currentAssignments} judgments: ${counts}; they disagree on ${disagreements} (at most ${limit} allowed).`,
      );
    }
    const extra = Math.min(settings.judgmentsPerTweet - currentAssignments, headroom);
    if (extra > 0) {
      return result(
        "extend",
        extra,
        "dynamic_overlap",
        `${counts} after ${currentAssignments} judgments (${disagreements} without agreement, at most ${limit} allowed): adding ${extra} assignment${extra === 1 ? "" : "s"}.`,
      );
    }
  }

  if (meets) {
    const more = settings.extendWhen === "any-unresolved" ? extraForUnresolved(tweetStates, headroom) : 0;
    if (more > 0) {
      return result("extend", more, "any_unresolved", `${counts} (at least ${required}, ${pct}, needed): adding ${more} assignment${more === 1 ? "" : "s"} for the tweets still without one.`);
    }
    return result("approved", 0, "hit_approval", `Approved: ${counts}; at least ${required} (${pct}) needed.`);
  }

  const missing = required - accepted;
  const needs: number[] = [];
  for (const t of tweetStates) {
    if (t.state === "needs_more") needs.push(t.neededForAcceptance ?? 1);
  }
  if (needs.length < missing) {
    return result(
      "unresolved",
      0,
      "unreachable",
      `Unresolved: ${counts}; at least ${required} (${pct}) needed and only ${needs.length} more can still reach agreement.`,
    );
  }
  needs.sort((a, b) => a - b);
  const extra = needs[missing - 1];
  if (headroom <= 0 || extra > headroom) {
    return result(
      "unresolved",
      0,
      "assignment_cap",
      `Unresolved: ${counts}; at least ${required} (${pct}) needed and the HIT cannot get ${extra} more assignment${extra === 1 ? "" : "s"} (${currentAssignments} of at most ${Math.min(settings.maxJudgmentsPerTweet, currentAssignments + Math.max(headroom, 0))}).`,
    );
  }
  return result(
    "extend",
    extra,
    "hit_approval",
    `${counts}; at least ${required} (${pct}) needed: adding ${extra} assignment${extra === 1 ? "" : "s"}.`,
  );
}

/** Policy "any-unresolved": the fewest extra judgments that could get one more of the tweets accepted (0: none can). */
function extraForUnresolved(tweetStates: ReadonlyArray<{ state: TweetState; neededForAcceptance?: number | null }>, headroom: number): number {
  let best = Infinity;
  for (const t of tweetStates) if (t.state === "needs_more") best = Math.min(best, t.neededForAcceptance ?? 1);
  return best <= headroom ? best : 0;
}

/** How many assignments can still be added: up to the cap, and never across MTurk's 10-assignment step. */
export function assignmentHeadroom(currentAssignments: number, maxAssignments: number): number {
  let limit = maxAssignments;
  if (currentAssignments < MTURK_ASSIGNMENT_STEP_LIMIT) limit = Math.min(limit, MTURK_ASSIGNMENT_STEP_LIMIT - 1);
  return Math.max(0, limit - currentAssignments);
}

/**
 * The whole decision for one HIT from its unknown tweets' approved labels: each tweet with decideTweet (using
 * the first-stage minimum under dynamic overlap), then decideHit; with unresolvedHitLabels "drop", the tweets of a
 * HIT that ends unresolved lose their accepted labels.
 */
export function decideHitFromJudgments({
  tweets,
  currentAssignments,
  settings,
}: {
  tweets: ReadonlyArray<{ tweetId: string; labels: readonly string[] }>;
  currentAssignments: number;
  settings: ProcedureSettings;
}): { hit: HitDecision; tweets: Array<TweetDecision & { tweetId: string }> } {
  const minJudgments = minJudgmentsForAcceptance(settings, currentAssignments);
  const decided = tweets.map((t) => ({
    tweetId: t.tweetId,
    ...decideTweet({ labels: t.labels, settings, minJudgments }),
  }));
  const hit = decideHit({ tweetStates: decided, currentAssignments, settings });
  if (hit.state === HIT_STATUS.unresolved && settings.unresolvedHitLabels === "drop") {
    // Policy "drop": a HIT that ends unresolved releases none of its labels (the paper's rule is about approved HITs).
    return { hit, tweets: decided.map((t) => (t.state === TWEET_STATUS.accepted ? { ...t, state: TWEET_STATUS.unresolved, label: undefined } : t)) };
  }
  return { hit, tweets: decided };
}
