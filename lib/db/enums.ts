/**
 * The values of the schema's string enumerations (prisma/sqlite/schema.prisma stores them as plain strings so
 * that SQLite and PostgreSQL keep them alike). Code names a status through these, never as a bare literal.
 */
const values = <const T extends Record<string, string>>(o: T) => o;
export type ValueOf<T> = T[keyof T];

/** Tweet.status: where a tweet is in the procedure. */
export const TWEET_STATUS = values({ pending: "pending", in_hit: "in_hit", judged: "judged", accepted: "accepted", unresolved: "unresolved", retired: "retired" });
export type TweetStatus = ValueOf<typeof TWEET_STATUS>;
/** Judged tweets without an accepted label: waiting for more judgments, or unresolved after the last of them. */
export const JUDGED_WITHOUT_LABEL: TweetStatus[] = [TWEET_STATUS.judged, TWEET_STATUS.unresolved];

/** Tweet.role. */
export const TWEET_ROLE = values({ unknown: "unknown", gold: "gold" });
export type TweetRole = ValueOf<typeof TWEET_ROLE>;

/** Hit.status. `lost`: the provider does not know the HIT (its tweets were released; syncError says why). */
export const HIT_STATUS = values({
  draft: "draft",
  published: "published",
  reviewing: "reviewing",
  approved: "approved",
  extended: "extended",
  unresolved: "unresolved",
  expired: "expired",
  deleted: "deleted",
  lost: "lost",
});
export type HitStatus = ValueOf<typeof HIT_STATUS>;
/** The HITs the sync loop works on. */
export const ACTIVE_HIT_STATUSES: HitStatus[] = [HIT_STATUS.published, HIT_STATUS.extended];

/** HitBatch.status. */
export const BATCH_STATUS = values({ queued: "queued", publishing: "publishing", published: "published", failed: "failed", cancelled: "cancelled" });

/** Assignment.status: Accord's view of an assignment. */
export const ASSIGNMENT_STATUS = values({ submitted: "submitted", approved: "approved", rejected: "rejected", held: "held" });
export type AssignmentStatus = ValueOf<typeof ASSIGNMENT_STATUS>;

/** Assignment.providerStatus: as last seen on the provider (MTurk's AssignmentStatus values). */
export const PROVIDER_ASSIGNMENT_STATUS = values({ Submitted: "Submitted", Approved: "Approved", Rejected: "Rejected" });
export type ProviderAssignmentStatus = ValueOf<typeof PROVIDER_ASSIGNMENT_STATUS>;

/** Assignment.decision. */
export const DECISION = values({ approve: "approve", reject: "reject", hold: "hold" });
export type Decision = ValueOf<typeof DECISION>;

/** ImportBatch.kind: a file of tweets to label or of gold tweets. */
export const IMPORT_KIND = values({ tweets: "tweets", gold: "gold" });
/** ImportBatch.kind of another platform's judgments (lib/ingest/judgments): not a tweet file, so not an ImportKind. */
export const JUDGMENTS_IMPORT_KIND = "judgments";
export type ImportKind = ValueOf<typeof IMPORT_KIND>;

/** ImportBatch.status. */
export const IMPORT_STATUS = values({ queued: "queued", running: "running", needs_mapping: "needs_mapping", completed: "completed", failed: "failed", cancelled: "cancelled" });

/** Job.state. */
export const JOB_STATE = values({ queued: "queued", running: "running", succeeded: "succeeded", failed: "failed", cancelled: "cancelled" });
export type JobState = ValueOf<typeof JOB_STATE>;

/** QualificationTest.status. */
export const QUALIFICATION_STATUS = values({ draft: "draft", active: "active", failed: "failed", replaced: "replaced" });

/** CostEntry.kind: the ledger's entries (lib/campaign/ledger.ts writes them). */
export const COST_KIND = values({ reward: "reward", fee: "fee", bonus: "bonus", bonus_fee: "bonus_fee", llm: "llm" });
export type CostKind = ValueOf<typeof COST_KIND>;

/** Event.provider, Hit.provider, Worker.provider. */
export const PROVIDER_KIND = values({ mturk: "mturk", local: "local", prolific: "prolific" });
export type ProviderKind = ValueOf<typeof PROVIDER_KIND>;

/** Whether a stored string is one of some enum values (an array of constants' `includes` refuses a plain string). */
export function isOneOf<T extends string>(value: string, options: readonly T[]): value is T {
  return (options as readonly string[]).includes(value);
}

/** LlmRun.status: a language model's labelling run of an event (issue 32). */
export const LLM_RUN_STATUS = values({ queued: "queued", running: "running", done: "done", failed: "failed", cancelled: "cancelled" });
export type LlmRunStatus = ValueOf<typeof LLM_RUN_STATUS>;
