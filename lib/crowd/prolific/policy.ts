import type { CrowdPolicy, PolicyAction, PolicyInput, RejectionCategory } from "../policy";
import { MIN_REJECTION_MESSAGE_LENGTH } from "./api-types";
import { estimatedMinutes } from "./provider/publish";
import { DECISION } from "@/lib/db/enums";

/**
 * Prolific's rules (researcher help: valid and invalid rejection reasons, return vs reject, attention checks): a
 * participant who completed the study and submitted the code is paid. Gold tweets are knowledge questions, not
 * attention checks, so work below the gold rule is approved and excluded (its judgments leave agreement, labels and
 * exports; the participant joins the block-list group so they are not invited again). Rejection is used only for
 * Prolific's valid reasons, each a setting that is off by default:
 *  - failed fair attention checks (instructed-response items in the HIT): at least 2, or 1 for a study under 5 minutes;
 *  - a completion 3 standard deviations faster than the study's mean, once the study has 10 completions.
 * Accord stops rejecting in a study once `rejectionCapShare` of its places are rejected and holds the rest.
 */

/** Completions a study needs before "3 SD faster than the mean" means something. */
export const MIN_COMPLETIONS_FOR_SPEED = 10;

/** Failed attention checks that allow a rejection (Prolific: 1 for studies under 5 minutes, else 2 or more). */
export const checksToReject = (minutes: number) => (minutes < 5 ? 1 : 2);

/** Whether a completion is exceptionally fast: more than 3 SD below the mean of the study's others (≥ 10 of them). */
export function tooQuick(durationSeconds: number | null, others: readonly number[]): boolean {
  if (durationSeconds === null || others.length < MIN_COMPLETIONS_FOR_SPEED) return false;
  const mean = others.reduce((s, x) => s + x, 0) / others.length;
  const sd = Math.sqrt(others.reduce((s, x) => s + (x - mean) ** 2, 0) / others.length);
  return durationSeconds < mean - 3 * sd;
}

/** The rejection message: what was checked, what the participant did, why that is a valid reason (≥ 100 characters). */
export function prolificRejectionMessage(category: RejectionCategory, detail: { failed?: string[]; durationSeconds?: number; meanSeconds?: number }): string {
  const text =
    category === "FAILED_CHECK"
      ? `Your submission failed ${detail.failed?.length ?? 0} of this study's attention checks (${(detail.failed ?? []).join("; ")}). Each check was an explicit instruction inside the question telling you which answer to choose.`
      : `Your submission was completed in ${Math.round(detail.durationSeconds ?? 0)} seconds, more than three standard deviations faster than this study's mean of ${Math.round(detail.meanSeconds ?? 0)} seconds, too quick to have read the tweets.`;
  return text.length >= MIN_REJECTION_MESSAGE_LENGTH ? text : `${text} Prolific allows rejection for this reason; contact us through Prolific if you believe this is a mistake.`;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

/** A valid reason to reject, if the settings allow one and the submission gives one. */
function validRejection({ attention, durationSeconds, study, settings }: PolicyInput): { category: RejectionCategory; message: string } | null {
  if (settings.attentionChecks && settings.rejectFailedChecks && attention && attention.failed.length >= checksToReject(estimatedMinutes(study.assignmentDurationSeconds))) {
    return { category: "FAILED_CHECK", message: prolificRejectionMessage("FAILED_CHECK", { failed: attention.failed }) };
  }
  if (settings.rejectTooQuick && tooQuick(durationSeconds, study.completionSeconds)) {
    return { category: "TOO_QUICKLY", message: prolificRejectionMessage("TOO_QUICKLY", { durationSeconds: durationSeconds ?? 0, meanSeconds: mean(study.completionSeconds) }) };
  }
  return null;
}

export const prolificPolicy: CrowdPolicy = {
  crowd: "prolific",
  studyFigures: true,
  paysBelowGold: true,
  configurable: true,
  decide(input): PolicyAction {
    const { verdict, study, settings } = input;
    const rejection = validRejection(input);
    if (rejection) {
      // The cap: at most this share of the study's places rejected; beyond it, held for the researcher to review.
      if (study.rejected + 1 > Math.floor(settings.rejectionCapShare * study.places)) {
        return { action: "hold", reason: `Held for review: ${rejection.category} would apply, but this study has rejected ${study.rejected} of ${study.places} places, its cap of ${Math.round(settings.rejectionCapShare * 100)}%.` };
      }
      return { action: "reject", category: rejection.category, message: rejection.message };
    }
    if (verdict.decision === DECISION.approve) return { action: "approve" };
    if (verdict.decision === DECISION.hold) return { action: "hold", reason: verdict.text };
    return {
      action: "exclude",
      reason: `Approved and excluded: ${verdict.correct} of ${verdict.total} gold tweets correct, below the gold rule. Paid (Prolific's rules), its judgments left out, the participant added to the block list.`,
      block: true,
    };
  },
  describe({ settings }) {
    const statements = [
      "A submission at or above the gold rule is approved and paid.",
      "A submission below the gold rule is approved and paid, its judgments are left out of agreement, labels and exports, and the participant joins the block-list group (gold tweets are knowledge questions, which Prolific does not accept as a reason to reject).",
    ];
    if (settings.attentionChecks) statements.push("Each HIT on Accord's Prolific page carries 2 instructed-response attention checks (an item whose question says which answer to choose), counted neither as gold nor as judgments.");
    if (settings.attentionChecks && settings.rejectFailedChecks) statements.push("A submission that fails 2 attention checks (1 in a study under 5 minutes) is rejected as FAILED_CHECK with a message naming the checks.");
    if (settings.rejectTooQuick) statements.push("A completion 3 standard deviations faster than the study's mean (once it has 10 completions) is rejected as TOO_QUICKLY.");
    if (settings.rejectFailedChecks || settings.rejectTooQuick) statements.push(`Rejections stop at ${Math.round(settings.rejectionCapShare * 100)}% of a study's places; the rest are held for your review.`);
    statements.push("A participant who fails the screening is asked to return it, with a message; never rejected.");
    let refusal: string | null = null;
    if (settings.belowGold === "reject") refusal = "Prolific does not allow rejecting for gold tweets: they are knowledge questions, not fair attention checks.";
    else if (settings.rejectFailedChecks && !settings.attentionChecks) refusal = "Prolific allows rejection for failed checks only when the study has fair attention checks: turn attention checks on or stop rejecting.";
    return { statements, refusal };
  },
};
