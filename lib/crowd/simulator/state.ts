import type { SimWorker } from "./workers";
import type { SimExtraState } from "./ops-state";
import type { WireRequirement } from "./requirements";

/** The simulator's whole state: plain JSON, so it can be persisted to a file and loaded again. */

export type SimAssignmentStatus = "Accepted" | "Submitted" | "Approved" | "Rejected" | "Returned" | "Abandoned";

export interface SimHit {
  HITId: string;
  HITTypeId: string;
  HITLayoutId?: string;
  /** Epoch ms. */
  creationTime: number;
  expiration: number;
  Title: string;
  Description: string;
  Keywords?: string;
  Question: string;
  rewardCents: number;
  MaxAssignments: number;
  AutoApprovalDelayInSeconds: number;
  AssignmentDurationInSeconds: number;
  LifetimeInSeconds: number;
  RequesterAnnotation?: string;
  QualificationRequirements: WireRequirement[];
  HITReviewStatus: "NotReviewed" | "MarkedForReview" | "ReviewedAppropriate" | "ReviewedInappropriate";
  reviewing: boolean;
  disposed: boolean;
  assignmentIds: string[];
}

export interface SimAssignment {
  AssignmentId: string;
  HITId: string;
  WorkerId: string;
  status: SimAssignmentStatus;
  acceptTime: number;
  deadline: number;
  submitTime?: number;
  autoApprovalTime?: number;
  approvalTime?: number;
  rejectionTime?: number;
  Answer?: string;
  RequesterFeedback?: string;
}

export interface SimHitType {
  HITTypeId: string;
  /** Canonical JSON of the type's parameters: identical parameters → same type. */
  key: string;
  AssignmentDurationInSeconds: number;
  Reward: string;
  Title: string;
  Description: string;
  AutoApprovalDelayInSeconds: number;
  Keywords?: string;
  QualificationRequirements: WireRequirement[];
}

export interface SimQualificationType {
  QualificationTypeId: string;
  CreationTime: number;
  Name: string;
  Description: string;
  Keywords?: string;
  QualificationTypeStatus: "Active" | "Inactive";
  Test?: string;
  TestDurationInSeconds?: number;
  AnswerKey?: string;
  RetryDelayInSeconds?: number;
  AutoGranted: boolean;
  AutoGrantedValue?: number;
  IsRequestable: boolean;
}

export interface SimQualification {
  QualificationTypeId: string;
  WorkerId: string;
  GrantTime: number;
  IntegerValue?: number;
  Status: "Granted" | "Revoked";
}

export interface SimEvent {
  time: number;
  seq: number;
  kind: "wake" | "submit" | "return" | "deadline" | "autoApprove";
  workerId?: string;
  assignmentId?: string;
}

export interface SimLedgerEntry {
  time: number;
  kind: "approval" | "bonus" | "deposit";
  amountCents: number;
  feeCents: number;
  ref: string;
}

export interface SimStateData {
  version: 1;
  seed: number;
  idCounter: number;
  eventSeq: number;
  balanceCents: number;
  onHoldCents: number;
  hits: Record<string, SimHit>;
  /** HIT ids in creation order. */
  hitOrder: string[];
  assignments: Record<string, SimAssignment>;
  hitTypes: Record<string, SimHitType>;
  qualificationTypes: Record<string, SimQualificationType>;
  /** Key: `${QualificationTypeId}|${WorkerId}`. */
  qualifications: Record<string, SimQualification>;
  blocks: Record<string, { reason: string; time: number }>;
  /** Key: `${scope}|${UniqueRequestToken}` → the entity it created and when (tokens live 24 h). */
  tokens: Record<string, { time: number; id: string }>;
  /** Workers the requester approved or rejected at least once (NotifyWorkers may email only those). */
  decidedWorkers: Record<string, true>;
  notifications: Array<{ time: number; subject: string; message: string; workerIds: string[] }>;
  bonuses: Array<{ time: number; workerId: string; assignmentId: string; amountCents: number; feeCents: number; reason: string }>;
  ledger: SimLedgerEntry[];
  workers: SimWorker[];
  /** Pending timed events; the service keeps them in a heap and copies them here before persisting. */
  events: SimEvent[];
  /** State of the operations beyond Accord's own (ops-state.ts); created on first use. */
  extra?: SimExtraState;
}

export function emptyState({ seed, balanceCents }: { seed: number; balanceCents: number }): SimStateData {
  return {
    version: 1,
    seed,
    idCounter: 0,
    eventSeq: 0,
    balanceCents,
    onHoldCents: 0,
    hits: {},
    hitOrder: [],
    assignments: {},
    hitTypes: {},
    qualificationTypes: {},
    qualifications: {},
    blocks: {},
    tokens: {},
    decidedWorkers: {},
    notifications: [],
    bonuses: [],
    ledger: [],
    workers: [],
    events: [],
  };
}
