import { GOLD_RULES } from "./policies";
import { minCountFor, ratioPercentText, ratioText } from "./ratio";
import type { ProcedureSettings } from "./settings";

/**
 * The procedure's rules in words, from an event's settings: the one source of every number of the procedure that
 * a page, chart caption, feedback text or export README prints (nothing hard-codes the paper's 7/10 or 2/3).
 */
export type RuleKey =
  | "hit"
  | "judgments"
  | "qualification"
  | "assignment"
  | "goldRule"
  | "tweet"
  | "hitApproval"
  | "extension"
  | "unresolvedHits"
  | "release";

export type DescribedRules = {
  /** One sentence per rule, in the order of the procedure. */
  lines: Array<{ key: RuleKey; text: string }>;
  /** Short forms for tables and captions. */
  short: {
    /** "10 gold + 20 unknown" */
    hitComposition: string;
    /** "30 tweets" */
    hitSize: string;
    /** "≥ 7/10" */
    assignmentApproval: string;
    /** The gold rule that decides: "≥ 7/10 correct", or "P(accuracy < 7/10) ≤ 95% over the worker's gold record". */
    goldRule: string;
    /** "≥ 2/3" */
    tweetAcceptance: string;
    /** "≥ 14/20" */
    hitApproval: string;
    /** "3 (up to 5)" */
    judgments: string;
    /** "≥ 6/10" */
    qualification: string;
  };
};

const levelText = (level: number) => `${Math.round(level * 1000) / 10}%`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function describeRules(s: ProcedureSettings): DescribedRules {
  const goldNeeded = minCountFor(s.goldPerHit, s.assignmentApproval);
  const hitNeeded = minCountFor(s.unknownPerHit, s.hitApproval);
  const below = s.belowThresholdAction === "reject" ? "rejected (and not paid)" : "held for a researcher's review";
  const extension = s.dynamicOverlap.enabled
    ? `Dynamic overlap: each HIT starts with ${plural(s.dynamicOverlap.initial, "assignment")}; it gets the rest up to ${s.judgmentsPerTweet} only when they disagree on more than ${plural(s.dynamicOverlap.maxDisagreements, "unknown tweet")}, then up to ${s.maxJudgmentsPerTweet} while the HIT can still be approved.`
    : s.extendWhen === "any-unresolved"
      ? `More assignments (up to ${s.maxJudgmentsPerTweet}) while any tweet of the HIT lacks an accepted label and could still get one, even after the HIT is approved.`
      : `More assignments (up to ${s.maxJudgmentsPerTweet}) only while the HIT can still reach ${hitNeeded}/${s.unknownPerHit}${s.extendOnlyWhenReachable ? " and the extra judgments can still change a tweet's outcome" : ""}.`;
  const dropped = s.release.dropLabels;
  const release = `The released dataset ${dropped.length ? `leaves out the label${dropped.length === 1 ? "" : "s"} ${dropped.join(", ")} and ` : ""}leaves out, per event, labels with fewer than ${s.release.minTweetsPerLabel} tweets.`;
  return {
    lines: [
      { key: "hit", text: `Each HIT has ${plural(s.hitSize, "tweet")}: ${s.goldPerHit} gold + ${s.unknownPerHit} unknown, gold positions shuffled.` },
      { key: "judgments", text: `Each tweet gets ${plural(s.judgmentsPerTweet, "judgment")}, up to ${s.maxJudgmentsPerTweet} when agreement is missing.` },
      { key: "qualification", text: `Workers qualify with a test of ${plural(s.qualification.questions, "gold tweet")}, passing with at least ${s.qualification.passCorrect} right.` },
      {
        key: "assignment",
        text:
          s.goldRule === "whole-record"
            ? `An assignment is judged on its worker's gold record over this event's HITs up to it (${s.goldPerHit} gold tweets per HIT): it is ${below} when, under a uniform prior, the probability that the worker's accuracy is below ${ratioText(s.assignmentApproval)} (${ratioPercentText(s.assignmentApproval)}) exceeds ${levelText(s.wholeRecordLevel)}, and approved otherwise.`
            : `An assignment is approved when at least ${goldNeeded} of its ${s.goldPerHit} gold tweets are right (≥ ${ratioText(s.assignmentApproval)}, ${ratioPercentText(s.assignmentApproval)}); below that it is ${below}.`,
      },
      { key: "goldRule", text: GOLD_RULES.find((r) => r.value === s.goldRule)?.cost ?? "" },
      {
        key: "tweet",
        text: `A tweet's label is accepted when it is the unique top label of at least ${ratioText(s.tweetAcceptance)} (${ratioPercentText(s.tweetAcceptance)}) of the tweet's approved judgments, with at least ${plural(s.judgmentsPerTweet, "judgment")}.`,
      },
      {
        key: "hitApproval",
        text: `A HIT is approved when at least ${hitNeeded} of its ${s.unknownPerHit} unknown tweets have an accepted label (${ratioPercentText(s.hitApproval)}).`,
      },
      { key: "extension", text: extension },
      {
        key: "unresolvedHits",
        text: s.unresolvedHitLabels === "keep" ? "Accepted labels of tweets in HITs that end unresolved are kept." : "Accepted labels of tweets in HITs that end unresolved are dropped.",
      },
      { key: "release", text: release },
    ],
    short: {
      hitComposition: `${s.goldPerHit} gold + ${s.unknownPerHit} unknown`,
      hitSize: plural(s.hitSize, "tweet"),
      assignmentApproval: `≥ ${ratioText(s.assignmentApproval)}`,
      goldRule:
        s.goldRule === "whole-record"
          ? `P(accuracy < ${ratioText(s.assignmentApproval)}) ≤ ${levelText(s.wholeRecordLevel)} over the worker's gold record`
          : `≥ ${ratioText(s.assignmentApproval)} correct`,
      tweetAcceptance: `≥ ${ratioText(s.tweetAcceptance)}`,
      hitApproval: `≥ ${hitNeeded}/${s.unknownPerHit}`,
      judgments: `${s.judgmentsPerTweet} (up to ${s.maxJudgmentsPerTweet})`,
      qualification: `≥ ${s.qualification.passCorrect}/${s.qualification.questions}`,
    },
  };
}
