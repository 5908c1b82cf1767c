import type { SimQualificationType, SimStateData } from "./state";

/** State of the operations Accord itself does not call (qualification requests, notifications, review policies, files). */

export interface SimQualificationRequest {
  QualificationRequestId: string;
  QualificationTypeId: string;
  WorkerId: string;
  /** The type's test when the worker asked (absent for a type without one). */
  Test?: string;
  Answer?: string;
  SubmitTime: number;
}

export interface SimNotificationSpec {
  Destination: string;
  Transport: "Email" | "SQS" | "SNS";
  Version: string;
  EventTypes: string[];
}

/** One message the simulator "sent" (its in-process sink: GET /__simulator/notifications). */
export interface SimNotificationMessage {
  time: number;
  Destination: string;
  Transport: string;
  /** The message body as MTurk's SQS/SNS messages carry it (JSON text). */
  Message: string;
}

export interface SimReviewPolicy {
  PolicyName: string;
  Parameters?: Array<{ Key: string; Values?: string[]; MapEntries?: Array<{ Key: string; Values: string[] }> }>;
}

export interface SimReviewResult {
  ActionId: string;
  SubjectId: string;
  SubjectType: "Assignment" | "HIT";
  QuestionId?: string;
  Key: string;
  Value: string;
}

export interface SimReviewAction {
  ActionId: string;
  ActionName: string;
  TargetId: string;
  TargetType: "Assignment" | "HIT";
  Status: "Intended" | "Succeeded" | "Failed" | "Cancelled";
  CompleteTime?: number;
  Result?: string;
  ErrorCode?: string;
}

export interface SimReviewRecord {
  assignment?: SimReviewPolicy;
  hit?: SimReviewPolicy;
  assignmentResults: SimReviewResult[];
  assignmentActions: SimReviewAction[];
  hitResults: SimReviewResult[];
  hitActions: SimReviewAction[];
  /** Assignments the assignment-level policy has scored; whether the HIT-level policy ran. */
  scored: string[];
  hitReviewed: boolean;
}

export interface SimExtraState {
  qualificationRequests: Record<string, SimQualificationRequest>;
  /** Deleted types, kept so their name stays reserved until MTurk would free it. */
  deletedQualificationTypes: Record<string, SimQualificationType & { deletedAt: number }>;
  /** HITTypeId → the notification specification and whether it is active. */
  notificationSettings: Record<string, { spec: SimNotificationSpec; active: boolean }>;
  notificationOutbox: SimNotificationMessage[];
  /** HITId → its review policies and what they produced. */
  reviews: Record<string, SimReviewRecord>;
  /** UploadedFileKey → the file a worker uploaded for a FileUploadAnswer. */
  files: Record<string, { contentBase64: string; size: number }>;
}

/** The extra state, created on first use (state files written before these operations existed have none). */
export function extraState(state: SimStateData): SimExtraState {
  state.extra ??= {
    qualificationRequests: {},
    deletedQualificationTypes: {},
    notificationSettings: {},
    notificationOutbox: [],
    reviews: {},
    files: {},
  };
  return state.extra;
}
