import type { LiveMessage } from "@/lib/live/bus";

/** What one sync of a HIT did. */
export type SyncHitResult = {
  newAssignments: number;
  decided: { approve: number; reject: number; hold: number };
  delivered: number;
  hitDecision: "approved" | "extended" | "unresolved" | "lost" | null;
  extraAssignments: number;
};

export const emptyResult = (): SyncHitResult => ({ newAssignments: 0, decided: { approve: 0, reject: 0, hold: 0 }, delivered: 0, hitDecision: null, extraAssignments: 0 });

/** The outcome of one HIT in a batched sync: what was done, or the error that stopped it (the others go on). */
export type HitSyncOutcome = { result: SyncHitResult; error: unknown };

/** Worker statistics and agreement snapshots to refresh after passes (follow-ups.ts). */
export type SyncFollowUps = { workers: Set<string>; events: Set<string> };

/** A HIT as the sync steps read it. */
export type HitRow = {
  id: string;
  eventId: string;
  status: string;
  providerHitId: string | null;
  maxAssignments: number;
  rewardCents: number;
  expiresAt: Date | null;
  /** The batch (a study on Prolific) the crowd's policy reads its figures from. */
  batchId?: string | null;
  batch: { lifetimeSeconds: number } | null;
  items: Array<{ id: string; position: number; isGold: boolean; tweetId: string; tweet: { goldLabel: string | null } }>;
};

export const HIT_SELECT = {
  id: true,
  eventId: true,
  status: true,
  providerHitId: true,
  maxAssignments: true,
  rewardCents: true,
  expiresAt: true,
  batchId: true,
  batch: { select: { lifetimeSeconds: true } },
  items: { orderBy: { position: "asc" }, select: { id: true, position: true, isGold: true, tweetId: true, tweet: { select: { goldLabel: true } } } },
} as const;

/** An assignment as grading and delivery read it. */
export type SyncAssignment = {
  id: string;
  hitId: string;
  providerAssignmentId: string;
  providerStatus: string;
  status: string;
  decision: string | null;
  decisionSentAt: Date | null;
  feedback: string | null;
  /** Approved (paid) but left out of agreement, labels and exports by the crowd's policy. */
  excludedReason?: string | null;
  workerId: string;
  /** Orders a worker's assignments for the whole-record gold rule. */
  submitTime: Date | null;
  judgments: Array<{ hitItemId: string; label: string }>;
};

export const ASSIGNMENT_SELECT = {
  id: true,
  hitId: true,
  providerAssignmentId: true,
  providerStatus: true,
  status: true,
  decision: true,
  decisionSentAt: true,
  feedback: true,
  excludedReason: true,
  workerId: true,
  submitTime: true,
  judgments: { where: { isGold: true }, select: { hitItemId: true, label: true } },
} as const;

/** A system decision for the audit log. */
export type AuditRow = { eventId: string; entityType: string; entityId: string; action: string; reason: string; details?: object };

/** A live message to send once a step's writes are committed. */
export type Live = Omit<LiveMessage, "at">;

/** One thing a step did to a HIT (added to its SyncHitResult). */
export type HitDelta = { hitId: string } & (
  | { newAssignments: number }
  | { decided: keyof SyncHitResult["decided"] }
  | { delivered: number }
  | { hitDecision: NonNullable<SyncHitResult["hitDecision"]>; extraAssignments?: number }
);

/** What a step did to each HIT, and the live messages to send once its writes are committed. */
export type StepReport = {
  deltas: HitDelta[];
  /** The provider or database error that stopped a HIT. */
  failures: Array<{ hitId: string; error: unknown }>;
  live: Live[];
};

export const emptyReport = (): StepReport => ({ deltas: [], failures: [], live: [] });
