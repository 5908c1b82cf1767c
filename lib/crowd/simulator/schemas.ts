import { z } from "zod";
import { constraintError, parameterValidationError, SimError, validationError } from "./errors";

/**
 * Input shapes of the simulated operations (botocore constraints plus MTurk's documented limits). A missing
 * required member becomes ValidationException, a malformed id ParameterValidationError, anything else out of
 * range a ValidationException naming the constraint, as the real service answers.
 */
const ID_FIELDS = new Set(["HITId", "AssignmentId", "HITTypeId", "QualificationTypeId", "WorkerId", "HITLayoutId", "QualificationRequestId"]);

export const entityId = z.string().min(1).max(64).regex(/^[A-Z0-9]+$/);
export const workerId = z.string().min(1).max(64).regex(/^A[A-Z0-9]+$/);
const currency = z.string().regex(/^[0-9]+(\.)?[0-9]{0,2}$/);
const token = z.string().min(1).max(64);
export const nextToken = z.string().min(1).max(255);
export const maxResults = z.number().int().min(1).max(100);
const seconds = z.number().int().min(30).max(31_536_000);
const autoApproval = z.number().int().min(0).max(2_592_000);
const feedback = z
  .string()
  .max(1024)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u0008\u000B\u000C\u000E-\u001F]*$/);

const locale = z.object({ Country: z.string().regex(/^[A-Z]{2}$/), Subdivision: z.string().min(1).max(3).optional() });

export const COMPARATORS = [
  "LessThan",
  "LessThanOrEqualTo",
  "GreaterThan",
  "GreaterThanOrEqualTo",
  "EqualTo",
  "NotEqualTo",
  "Exists",
  "DoesNotExist",
  "In",
  "NotIn",
] as const;

const requirement = z.object({
  QualificationTypeId: entityId,
  Comparator: z.enum(COMPARATORS),
  IntegerValues: z.array(z.number().int()).max(15).optional(),
  LocaleValues: z.array(locale).max(30).optional(),
  RequiredToPreview: z.boolean().optional(),
  ActionsGuarded: z.enum(["Accept", "PreviewAndAccept", "DiscoverPreviewAndAccept"]).optional(),
});

/** AssignmentReviewPolicy / HITReviewPolicy of CreateHIT (policy names checked when the HIT is created). */
export const reviewPolicy = z.object({
  PolicyName: z.string().min(1),
  Parameters: z
    .array(
      z.object({
        Key: z.string().min(1),
        Values: z.array(z.string()).optional(),
        MapEntries: z.array(z.object({ Key: z.string().min(1), Values: z.array(z.string()).min(1) })).optional(),
      }),
    )
    .optional(),
});

const layoutParams = z.array(z.object({ Name: z.string(), Value: z.string() })).optional();

const hitTypeFields = {
  AssignmentDurationInSeconds: seconds,
  Reward: currency,
  Title: z.string().min(1).max(128),
  Description: z.string().min(1).max(2000),
  AutoApprovalDelayInSeconds: autoApproval.optional(),
  Keywords: z.string().max(999).optional(),
  QualificationRequirements: z.array(requirement).max(10).optional(),
};

/** Members of one HIT (as opposed to its type). */
const hitFields = {
  LifetimeInSeconds: seconds,
  MaxAssignments: z.number().int().min(1).max(1_000_000).optional(),
  Question: z.string().optional(),
  RequesterAnnotation: z.string().max(255).optional(),
  UniqueRequestToken: token.optional(),
  HITLayoutId: entityId.optional(),
  HITLayoutParameters: layoutParams,
  AssignmentReviewPolicy: reviewPolicy.optional(),
  HITReviewPolicy: reviewPolicy.optional(),
};

export const schemas = {
  CreateHIT: z.object({ ...hitTypeFields, ...hitFields }),
  CreateHITType: z.object(hitTypeFields),
  CreateHITWithHITType: z.object({ HITTypeId: entityId, ...hitFields }),
  GetHIT: z.object({ HITId: entityId }),
  ListHITs: z.object({ NextToken: nextToken.optional(), MaxResults: maxResults.optional() }),
  ListReviewableHITs: z.object({
    HITTypeId: entityId.optional(),
    Status: z.enum(["Reviewable", "Reviewing"]).optional(),
    NextToken: nextToken.optional(),
    MaxResults: maxResults.optional(),
  }),
  ListAssignmentsForHIT: z.object({
    HITId: entityId,
    NextToken: nextToken.optional(),
    MaxResults: maxResults.optional(),
    AssignmentStatuses: z.array(z.enum(["Submitted", "Approved", "Rejected"])).optional(),
  }),
  GetAssignment: z.object({ AssignmentId: entityId }),
  ApproveAssignment: z.object({ AssignmentId: entityId, RequesterFeedback: feedback.optional(), OverrideRejection: z.boolean().optional() }),
  RejectAssignment: z.object({ AssignmentId: entityId, RequesterFeedback: feedback }),
  CreateAdditionalAssignmentsForHIT: z.object({
    HITId: entityId,
    NumberOfAdditionalAssignments: z.number().int().min(1),
    UniqueRequestToken: token.optional(),
  }),
  UpdateExpirationForHIT: z.object({ HITId: entityId, ExpireAt: z.number() }),
  UpdateHITReviewStatus: z.object({ HITId: entityId, Revert: z.boolean().optional() }),
  DeleteHIT: z.object({ HITId: entityId }),
  GetAccountBalance: z.object({}),
  CreateQualificationType: z.object({
    Name: z.string().min(1),
    Description: z.string().min(1).max(2000),
    QualificationTypeStatus: z.enum(["Active", "Inactive"]),
    Keywords: z.string().max(999).optional(),
    RetryDelayInSeconds: z.number().int().min(0).optional(),
    Test: z.string().max(65_535).optional(),
    AnswerKey: z.string().max(65_535).optional(),
    TestDurationInSeconds: z.number().int().min(1).optional(),
    AutoGranted: z.boolean().optional(),
    AutoGrantedValue: z.number().int().optional(),
  }),
  GetQualificationType: z.object({ QualificationTypeId: entityId }),
  AssociateQualificationWithWorker: z.object({
    QualificationTypeId: entityId,
    WorkerId: workerId,
    IntegerValue: z.number().int().optional(),
    SendNotification: z.boolean().optional(),
  }),
  DisassociateQualificationFromWorker: z.object({ WorkerId: workerId, QualificationTypeId: entityId, Reason: z.string().optional() }),
  ListWorkersWithQualificationType: z.object({
    QualificationTypeId: entityId,
    Status: z.enum(["Granted", "Revoked"]).optional(),
    NextToken: nextToken.optional(),
    MaxResults: maxResults.optional(),
  }),
  GetQualificationScore: z.object({ QualificationTypeId: entityId, WorkerId: workerId }),
  CreateWorkerBlock: z.object({ WorkerId: workerId, Reason: z.string().min(1) }),
  DeleteWorkerBlock: z.object({ WorkerId: workerId, Reason: z.string().optional() }),
  ListWorkerBlocks: z.object({ NextToken: nextToken.optional(), MaxResults: maxResults.optional() }),
  NotifyWorkers: z.object({
    Subject: z.string().min(1).max(200),
    MessageText: z.string().min(1).max(4096),
    WorkerIds: z.array(workerId).min(1).max(100),
  }),
  SendBonus: z.object({
    WorkerId: workerId,
    BonusAmount: currency,
    AssignmentId: entityId,
    Reason: z.string().min(1),
    UniqueRequestToken: token.optional(),
  }),
} as const;

export type OperationName = keyof typeof schemas;
export type OperationInput<Op extends OperationName> = z.infer<(typeof schemas)[Op]>;

function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let v: unknown = body;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function memberPath(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `${p + 1}.member` : String(p)))
    .map((p, i) => (i === 0 ? p : p.charAt(0).toLowerCase() + p.slice(1)))
    .join(".");
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "too_small":
      return issue.origin === "string" || issue.origin === "array"
        ? `Member must have length greater than or equal to ${String(issue.minimum)}`
        : `Member must have value greater than or equal to ${String(issue.minimum)}`;
    case "too_big":
      return issue.origin === "string" || issue.origin === "array"
        ? `Member must have length less than or equal to ${String(issue.maximum)}`
        : `Member must have value less than or equal to ${String(issue.maximum)}`;
    case "invalid_value":
      return `Member must satisfy enum value set: [${issue.values.map(String).join(", ")}]`;
    case "invalid_format":
      return `Member must satisfy regular expression pattern: ${"pattern" in issue ? String(issue.pattern) : issue.format}`;
    case "invalid_type":
      return `Member must be of type ${issue.expected}`;
    default:
      return issue.message;
  }
}

/** Validates a request body; throws the SimError the real service would answer with. */
export function parseOperationInput<Op extends OperationName>(op: Op, body: unknown, nowMs: number): OperationInput<Op> {
  return parseWireInput<unknown>(schemas[op], body, nowMs) as OperationInput<Op>;
}

/** Validates a body against any operation's schema (the operations outside `schemas` use it too). */
export function parseWireInput<T>(schema: z.ZodType<T>, body: unknown, nowMs: number): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues;
  const missing = issues.find((i) => i.code === "invalid_type" && valueAt(body, i.path) == null);
  if (missing) throw validationError(memberPath(missing.path));
  const issue = issues[0];
  const last = issue.path.at(-1);
  const value = valueAt(body, issue.path);
  if (typeof last === "string" && ID_FIELDS.has(last) && (issue.code === "invalid_format" || issue.code === "too_big" || issue.code === "too_small")) {
    throw parameterValidationError(last, value, nowMs);
  }
  if (issue.path.length >= 2 && issue.path[0] === "WorkerIds" && issue.code === "invalid_format") {
    throw parameterValidationError("WorkerId", value, nowMs);
  }
  return failWith(constraintError(memberPath(issue.path), value, describe(issue)));
}

function failWith(err: SimError): never {
  throw err;
}
