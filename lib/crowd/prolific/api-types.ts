import { z } from "zod";

/**
 * The parts of Prolific's researcher API responses that Accord reads, validated at the boundary.
 * Facts and their confidence: docs/prolific-api.md of the team (each field here is [2+] unless noted).
 * Unknown fields pass through (Prolific adds fields freely); numbers may arrive as floats.
 */

/** Study statuses, spelled as Prolific spells them ("AWAITING REVIEW" with a space). */
export const STUDY_STATUSES = ["UNPUBLISHED", "PUBLISHING", "SCHEDULED", "ACTIVE", "PAUSED", "AWAITING REVIEW", "COMPLETED"] as const;
export type StudyStatus = (typeof STUDY_STATUSES)[number];

/** Submission statuses; PROCESSING is a brief state after approve or reject ([1] Mephisto). */
export const SUBMISSION_STATUSES = [
  "RESERVED",
  "ACTIVE",
  "TIMED-OUT",
  "AWAITING REVIEW",
  "APPROVED",
  "REJECTED",
  "RETURNED",
  "PARTIALLY APPROVED",
  "SCREENED OUT",
  "PROCESSING",
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The fixed list of rejection categories (CLI and Mephisto agree). */
export const REJECTION_CATEGORIES = [
  "TOO_QUICKLY",
  "TOO_SLOWLY",
  "FAILED_INSTRUCTIONS",
  "INCOMP_LONGITUDINAL",
  "FAILED_CHECK",
  "LOW_EFFORT",
  "MALINGERING",
  "NO_CODE",
  "BAD_CODE",
  "NO_DATA",
  "UNSUPP_DEVICE",
  "OTHER",
] as const;
export type RejectionCategory = (typeof REJECTION_CATEGORIES)[number];

/** A rejection's message must be at least this long (docs, CLI, Mephisto, Potato). */
export const MIN_REJECTION_MESSAGE_LENGTH = 100;

export const STUDY_ACTIONS = ["PUBLISH", "PAUSE", "START", "STOP"] as const;
export type StudyAction = (typeof STUDY_ACTIONS)[number];

const id = z.string().min(1);
const minor = z.number();

export const completionCodeSchema = z.looseObject({
  code: z.string(),
  code_type: z.string(),
  actor: z.string().optional(),
  actions: z.array(z.looseObject({ action: z.string(), participant_group: z.string().optional() })).default([]),
});
export type CompletionCode = z.infer<typeof completionCodeSchema>;

export const studySchema = z.looseObject({
  id,
  name: z.string(),
  internal_name: z.string().nullish(),
  status: z.enum(STUDY_STATUSES),
  total_available_places: z.number().int(),
  places_taken: z.number().int().optional(),
  number_of_submissions: z.number().int().optional(),
  reward: minor,
  estimated_completion_time: z.number().optional(),
  maximum_allowed_time: z.number().nullish(),
  external_study_url: z.string().nullish(),
  completion_codes: z.array(completionCodeSchema).default([]),
  project: z.string().nullish(),
});
export type Study = z.infer<typeof studySchema>;

/** POST /researchers/participants/ → 201 (the test participant). */
export const testParticipantSchema = z.looseObject({ participant_id: id });
/** POST /studies/{id}/test-study/ → the published copy. */
export const testStudySchema = z.looseObject({ study_id: id, study_url: z.string().nullish() });

/** Items of GET /studies/{id}/submissions/ (the "list" format: `participant_id`). */
export const submissionListItemSchema = z.looseObject({
  id,
  participant_id: id,
  status: z.enum(SUBMISSION_STATUSES),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  study_code: z.string().nullish(),
  entered_code: z.string().nullish(),
  reward: minor.nullish(),
  time_taken: z.number().nullish(),
});
export type SubmissionListItem = z.infer<typeof submissionListItemSchema>;

/** GET /submissions/{id}/ and transition answers (the "detail" format: `participant`). */
export const submissionDetailSchema = z.looseObject({
  id,
  study_id: z.string().optional(),
  participant: z.string(),
  status: z.enum(SUBMISSION_STATUSES),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  entered_code: z.string().nullish(),
  bonus_payments: z.array(z.number()).default([]),
});
export type SubmissionDetail = z.infer<typeof submissionDetailSchema>;

export const participantGroupSchema = z.looseObject({
  id,
  name: z.string(),
  participant_count: z.number().int().optional(),
  is_deleted: z.boolean().optional(),
});
export type ParticipantGroup = z.infer<typeof participantGroupSchema>;

export const groupMemberSchema = z.looseObject({ participant_id: id, datetime_created: z.string().optional() });

/** POST /submissions/bonus-payments/: amounts in minor units (floats). */
export const bulkBonusSchema = z.looseObject({
  id,
  study: z.string().optional(),
  amount: z.number(),
  fees: z.number().optional(),
  vat: z.number().optional(),
  total_amount: z.number(),
});
export type BulkBonus = z.infer<typeof bulkBonusSchema>;

export const costSchema = z.looseObject({ total_cost: z.number() });

export const balanceSchema = z.looseObject({
  currency_code: z.string(),
  total_balance: z.number(),
  available_balance: z.number(),
});
export type Balance = z.infer<typeof balanceSchema>;

/** A workspace or a project (both have an id and a title). */
export const workspaceSchema = z.looseObject({ id, title: z.string().optional() });

export const userSchema = z.looseObject({ id, email: z.string().optional(), currency_code: z.string().optional() });

export const rewardRecommendationSchema = z.array(
  z.looseObject({ currency: z.string(), min_reward_per_hour: z.number(), recommended_reward_per_hour: z.number() }),
);

export const hookSecretSchema = z.looseObject({ id, value: z.string(), workspace_id: z.string().optional() });
export const hookSubscriptionSchema = z.looseObject({
  id,
  event_type: z.string(),
  target_url: z.string(),
  is_enabled: z.boolean().optional(),
});
export type HookSubscription = z.infer<typeof hookSubscriptionSchema>;

/** A list page: `results`, and where the endpoint pages, `_links.next.href` ([?]: some lists omit `_links`). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    results: z.array(item),
    _links: z.looseObject({ next: z.looseObject({ href: z.string().nullish() }).nullish() }).optional(),
  });
}
