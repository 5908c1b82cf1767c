import { z } from "zod";
import type { Decision } from "@/lib/db/enums";

/**
 * A crowd's decision policy. The procedure (lib/procedure, pure) decides what a submission's work is worth (gold ≥ 7/10
 * or not); the crowd's policy decides what to do about it by that crowd's rules: approve, reject (with a reason the
 * crowd accepts), hold for review, or approve (pay) and exclude the work from agreement, labels and exports.
 * Policies are pure: the sync loop gives them the figures they need and writes what they answer.
 */

/** What the procedure made of the submission. */
export type WorkVerdict = {
  /** The procedure's outcome: approve (passed the gold rule), reject (below it), hold (could not be graded, or held by setting). */
  decision: Decision;
  /** The rule and score, worker-facing ("Rejected: 6 of 10 gold tweets correct; at least 7 of 10 needed."). */
  text: string;
  correct: number;
  total: number;
};

/** The event's crowd-policy settings (each crowd reads the ones it knows; defaults are the safe ones). */
export const crowdPolicySettingsSchema = z.strictObject({
  /** Below the gold rule: "exclude" (approve, pay, leave the work out) or "reject" (MTurk's way; forbidden on Prolific). */
  belowGold: z.enum(["exclude", "reject"]).default("exclude"),
  /** Instructed-response attention checks in each HIT (2, neither gold nor judgments). */
  attentionChecks: z.boolean().default(false),
  /** Reject (FAILED_CHECK) a submission that failed the attention checks (needs attentionChecks). */
  rejectFailedChecks: z.boolean().default(false),
  /** Reject (TOO_QUICKLY) a completion 3 standard deviations faster than the study's mean (after 10 completions). */
  rejectTooQuick: z.boolean().default(false),
  /** Stop rejecting in a study once this share of its places is rejected; hold the rest for review. */
  rejectionCapShare: z.number().min(0).max(0.5).default(0.05),
});
export type CrowdPolicySettings = z.infer<typeof crowdPolicySettingsSchema>;

/** The settings an event stores (null or invalid: the defaults). */
export function parseCrowdPolicySettings(raw: unknown): CrowdPolicySettings {
  const parsed = crowdPolicySettingsSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : crowdPolicySettingsSchema.parse({});
}

/** What one submission's decision may look at besides its verdict. */
export type PolicyInput = {
  verdict: WorkVerdict;
  /** The attention checks of the HIT and which the submission failed (null: the HIT had none). */
  attention: { names: string[]; failed: string[] } | null;
  /** Seconds from start to completion (null: unknown). */
  durationSeconds: number | null;
  /**
   * The study (batch) so far: completion times of its other submissions, its places, how many it rejected, and the
   * time allowed per assignment (Prolific's estimate derives from it: the one-check rule for studies under 5 minutes).
   */
  study: { completionSeconds: number[]; places: number; rejected: number; assignmentDurationSeconds: number };
  settings: CrowdPolicySettings;
};

export type RejectionCategory = "FAILED_CHECK" | "TOO_QUICKLY";

export type PolicyAction =
  | { action: "approve" }
  /** Paid, its judgments left out; `block`: the worker is kept out of this crowd's next studies. */
  | { action: "exclude"; reason: string; block: boolean }
  | { action: "reject"; category: RejectionCategory | null; message: string }
  | { action: "hold"; reason: string };

/** What the Publish panel's pre-launch check says: each consequence in a sentence, and a refusal when forbidden. */
export type PolicyStatement = { statements: string[]; refusal: string | null };

export interface CrowdPolicy {
  readonly crowd: string;
  /** Whether decide() reads the study's figures (completion times, rejections): the sync loop loads them only then. */
  readonly studyFigures: boolean;
  /** Whether work below the gold rule is paid on this crowd (Prolific: approved and excluded): the replay's cost counts it. */
  readonly paysBelowGold: boolean;
  /**
   * Whether decide() reads the event's policy settings (below-gold choice, attention checks, rejection rules): the
   * Publish panel offers them only then (MTurk follows the event's "below the threshold" rule; in-house never rejects).
   */
  readonly configurable: boolean;
  decide(input: PolicyInput): PolicyAction;
  describe(input: { settings: CrowdPolicySettings; belowThresholdAction: "reject" | "hold" }): PolicyStatement;
}
