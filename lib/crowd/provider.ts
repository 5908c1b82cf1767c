/**
 * The crowd provider interface: everything Accord asks of a crowd (MTurk production, MTurk sandbox, the local
 * MTurk simulator, or Accord's in-house crowd). The campaign engine talks only to this interface.
 *
 * Conventions:
 * - Money is integer cents everywhere (no floats); times are `Date`s.
 * - Every method takes one options object and returns a plain object (verb-entity naming).
 * - Every failure is a `CrowdError` (lib/crowd/errors.ts) with a stable `code` and a message a researcher can act
 *   on; transient faults (throttling, 5xx) are retried inside the provider before they surface.
 * - Retries are safe: publishHit, addAssignments and sendBonus carry idempotency tokens, so calling them again
 *   after a timeout or a crash never creates a second HIT, adds assignments twice or pays twice.
 */

/** A registered crowd's kind (lib/crowd/registry.ts): "mturk", "prolific", "local", or a crowd added later. */
export type CrowdProviderKind = string;

/** What the provider charges on top of a reward or a bonus, in integer cents (the ledger writes it as a fee entry). */
export interface FeeRules {
  assignmentFeeCents(input: { rewardCents: number; maxAssignments: number }): number;
  bonusFeeCents(input: { bonusCents: number }): number;
}

/** MTurk comparators (all ten). */
export type Comparator =
  | "LessThan"
  | "LessThanOrEqualTo"
  | "GreaterThan"
  | "GreaterThanOrEqualTo"
  | "EqualTo"
  | "NotEqualTo"
  | "Exists"
  | "DoesNotExist"
  | "In"
  | "NotIn";

export type ActionsGuarded = "Accept" | "PreviewAndAccept" | "DiscoverPreviewAndAccept";

export interface LocaleValue {
  /** ISO 3166-1 alpha-2, e.g. "US". */
  country: string;
  /** ISO 3166-2 subdivision, e.g. "NY". */
  subdivision?: string;
}

export interface QualificationRequirement {
  qualificationTypeId: string;
  comparator: Comparator;
  integerValues?: number[];
  localeValues?: LocaleValue[];
  /** Default (when omitted) is MTurk's: DiscoverPreviewAndAccept. */
  actionsGuarded?: ActionsGuarded;
}

/** Lifecycle of a HIT (MTurk's HITStatus). */
export type HitStatus = "Assignable" | "Unassignable" | "Reviewable" | "Reviewing" | "Disposed";

/** Only decided or submitted assignments are ever listed (accepted/returned/abandoned ones are not). */
export type AssignmentStatus = "Submitted" | "Approved" | "Rejected";

export interface CreateQualificationTypeInput {
  /** Unique per requester account (a duplicate gives code "already_exists"). */
  name: string;
  description: string;
  keywords?: string;
  /** QuestionForm XML (lib/crowd/mturk/qualification-xml.ts buildQualificationTestXml). */
  testXml: string;
  /** AnswerKey XML (buildAnswerKeyXml); the provider grades the test with it and grants the score. */
  answerKeyXml: string;
  testDurationSeconds: number;
  /** How long a worker who failed must wait before retaking; omitted = the test cannot be retaken. */
  retryDelaySeconds?: number;
}

export interface CreateQualificationTypeResult {
  qualificationTypeId: string;
}

export interface PublishHitInput {
  /** Accord's own HIT id: the idempotency token is derived from it (deriveUniqueRequestToken). */
  accordHitId: string;
  title: string;
  description: string;
  keywords?: string;
  /** Reward per assignment in cents. */
  rewardCents: number;
  maxAssignments: number;
  lifetimeSeconds: number;
  assignmentDurationSeconds: number;
  autoApprovalDelaySeconds: number;
  /** HTMLQuestion (buildHitQuestionXml) or QuestionForm XML, ≤ 65,535 bytes. */
  questionXml: string;
  qualificationRequirements?: QualificationRequirement[];
  /** Private note stored on the HIT (≤ 255 chars). Defaults to "accord:<accordHitId>". */
  requesterAnnotation?: string;
  /** Accord's batch and the HIT's place in it: Prolific publishes a batch as one study and queues its HITs in this order. */
  batch?: { key: string; position: number };
}

export interface PublishHitResult {
  providerHitId: string;
  /** HIT type / group id when the provider has one (MTurk). */
  hitTypeId?: string;
  expiresAt: Date;
  /** true when the HIT already existed (a retry or resumed publish): nothing new was created. */
  duplicate: boolean;
}

export interface CrowdHit {
  providerHitId: string;
  hitTypeId?: string;
  title: string;
  status: HitStatus;
  reviewStatus?: string;
  maxAssignments: number;
  rewardCents: number;
  createdAt: Date;
  expiresAt: Date;
  /** Accepted and not yet submitted, returned or abandoned. */
  pendingCount: number;
  availableCount: number;
  /** Approved plus rejected. */
  completedCount: number;
  requesterAnnotation?: string;
  questionXml?: string;
}

export interface CrowdAssignment {
  assignmentId: string;
  workerId: string;
  providerHitId: string;
  status: AssignmentStatus;
  acceptedAt?: Date;
  submittedAt?: Date;
  autoApprovalAt?: Date;
  approvedAt?: Date;
  rejectedAt?: Date;
  deadline?: Date;
  /** QuestionFormAnswers XML; parse it with lib/crowd/mturk/answers.ts parseQuestionFormAnswers. */
  answerXml: string;
  requesterFeedback?: string;
}

export interface ListSubmittedAssignmentsInput {
  providerHitId: string;
  /** Default: all three (Submitted, Approved, Rejected). */
  statuses?: AssignmentStatus[];
  /** Page size for the underlying paginated call (1–100, default 100). */
  pageSize?: number;
}

export interface Balance {
  availableCents: number;
  onHoldCents: number;
  /** true for providers without money (the in-house crowd): the amounts mean nothing. */
  unlimited?: boolean;
}

/**
 * A hosted task's answers as they cross the crowd boundary (crowds whose participants work on Accord's pages): one
 * label per HIT form field (`item-<position>-<itemId>`, nothing on the page is a tweet id). The crowd's folder encodes
 * them as it stores them.
 */
export type HitAnswer = { field: string; label: string };

/** A screening (qualification test) answer taken on Accord's page: the chosen option of each question. */
export type ScreeningAnswer = { questionId: string; choice: string };

export interface NotifyWorkersResult {
  /** Per-worker failures (the call itself succeeded). */
  failures: Array<{ workerId: string; kind: "soft" | "hard"; message: string }>;
}

export interface CrowdProvider {
  readonly kind: CrowdProviderKind;
  /** "simulator" | "sandbox" | "production" for mturk and prolific, "local" for the in-house crowd. */
  readonly mode: string;
  /** The provider's fees as its account is charged (omitted: MTurk's, lib/crowd/mturk/fees.ts). */
  readonly fees?: FeeRules;

  createQualificationType(input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult>;

  /** Refuses, before anything is published, a reward the provider would refuse (Prolific's hourly pay floor). */
  checkReward?(input: { rewardCents: number; assignmentDurationSeconds: number }): Promise<void>;
  /** The smallest reward checkReward accepts for a time per assignment (providers with a pay floor). */
  minimumRewardCents?(input: { assignmentDurationSeconds: number }): Promise<number>;

  /**
   * Creates a HIT. Idempotent on `accordHitId` for 24 hours (MTurk's token window): a second call returns the
   * existing HIT with duplicate=true. Persist `providerHitId` as soon as this returns.
   */
  publishHit(input: PublishHitInput): Promise<PublishHitResult>;

  getHit(input: { providerHitId: string }): Promise<CrowdHit>;

  /** All submitted/decided assignments of a HIT, page by page (async iterable over every page). */
  listSubmittedAssignments(input: ListSubmittedAssignmentsInput): AsyncIterable<CrowdAssignment>;

  /** Submitted → Approved (pays reward + fee). overrideRejection also approves a Rejected one. */
  approveAssignment(input: { assignmentId: string; feedback?: string; overrideRejection?: boolean }): Promise<void>;

  /** Submitted → Rejected. feedback is shown to the worker (≤ 1024 chars). */
  /** `category`: the crowd's rejection reason where it has a list of them (Prolific's FAILED_CHECK, TOO_QUICKLY; others ignore it). */
  rejectAssignment(input: { assignmentId: string; feedback: string; category?: string }): Promise<void>;

  /** Adds assignments to a HIT; uniqueToken makes a retry a no-op. A HIT with < 10 cannot reach ≥ 10. */
  addAssignments(input: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }>;

  /** Expires the HIT now (no new workers; submitted work stays reviewable). */
  expireHit(input: { providerHitId: string }): Promise<void>;

  /** Moves the expiration to `expiresAt` (in the future to extend). */
  extendHit(input: { providerHitId: string; expiresAt: Date }): Promise<void>;

  /** Disposes of a reviewable HIT whose assignments are all approved or rejected. */
  deleteHit(input: { providerHitId: string }): Promise<void>;

  getBalance(): Promise<Balance>;

  grantQualification(input: {
    qualificationTypeId: string;
    workerId: string;
    value?: number;
    notify?: boolean;
  }): Promise<void>;

  revokeQualification(input: { qualificationTypeId: string; workerId: string; reason?: string }): Promise<void>;

  blockWorker(input: { workerId: string; reason: string }): Promise<void>;

  unblockWorker(input: { workerId: string; reason?: string }): Promise<void>;

  /** Emails workers (≤ 100 per call are sent per batch by the provider; it splits larger lists). */
  notifyWorkers(input: { workerIds: string[]; subject: string; message: string }): Promise<NotifyWorkersResult>;

  /**
   * Pays a bonus (plus the provider's fee); uniqueToken makes a retry a no-op. `feeCents`: the fee the account was
   * charged, when the provider reports it (otherwise the ledger takes it from `fees`).
   */
  sendBonus(input: {
    workerId: string;
    assignmentId: string;
    amountCents: number;
    reason: string;
    uniqueToken: string;
  }): Promise<{ duplicate: boolean; feeCents?: number }>;
}
