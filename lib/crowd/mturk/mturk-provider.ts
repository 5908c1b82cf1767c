import "server-only";
import {
  ApproveAssignmentCommand,
  AssociateQualificationWithWorkerCommand,
  CreateAdditionalAssignmentsForHITCommand,
  CreateHITCommand,
  type CreateHITCommandOutput,
  CreateQualificationTypeCommand,
  CreateWorkerBlockCommand,
  DeleteHITCommand,
  DeleteWorkerBlockCommand,
  DisassociateQualificationFromWorkerCommand,
  GetAccountBalanceCommand,
  GetAssignmentCommand,
  GetHITCommand,
  ListAssignmentsForHITCommand,
  NotifyWorkersCommand,
  paginateListHITs,
  RejectAssignmentCommand,
  SendBonusCommand,
  UpdateExpirationForHITCommand,
  type Assignment,
  type HIT,
  type MTurkClient,
} from "@aws-sdk/client-mturk";
import { CrowdError } from "../errors";
import { backoffMs, pause } from "../retry";
import type {
  Balance,
  CreateQualificationTypeInput,
  CreateQualificationTypeResult,
  CrowdAssignment,
  CrowdHit,
  CrowdProvider,
  HitStatus,
  ListSubmittedAssignmentsInput,
  NotifyWorkersResult,
  PublishHitInput,
  PublishHitResult,
} from "../provider";
import { deriveUniqueRequestToken } from "../tokens";
import { createMturkClient, DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY_MODE, mturkEndpoint, type MturkClientConfig, type MturkMode } from "./client";
import { hitIdFromMessage, toCrowdError } from "./errors";
import { questionSlotsOf } from "./question-body";
import { formatCentsAsDollars, MTURK_FEES, parseDollarsToCents } from "./fees";
import { type CallOutcome, ThrottleGate, type ThrottleGateOptions } from "../throttle-gate";
import { assertMturkXmlSize } from "./xml-text";
import { PROVIDER_ASSIGNMENT_STATUS, PROVIDER_KIND } from "@/lib/db/enums";

export interface MturkProviderOptions {
  client: MTurkClient;
  mode: MturkMode;
  /** Endpoint shown in network error messages. */
  endpoint?: string;
  /**
   * Extra attempts on top of the SDK's own retries for service faults and network errors (default 5; throttling has
   * `throttleAttempts`).
   * Needed because the SDK's retry quota (500 tokens, 14 per retried fault, refilled by 1 per success) runs dry
   * under a sustained fault rate, after which the SDK stops retrying at all.
   */
  retries?: number;
  /** Base delay of those extra attempts in ms (default 250, doubling, jittered, at most 8 s). */
  retryBaseMs?: number;
  /**
   * Attempts after a ThrottlingException that reaches the provider (default 16), each after the client-wide pause
   * of the ThrottleGate. With a client made with `throttling: "caller"` (createMturkProvider does), every
   * throttled call comes here at once instead of sleeping in the SDK's own back-off.
   */
  throttleAttempts?: number;
  /** The pauses of the ThrottleGate. */
  throttleGate?: ThrottleGateOptions;
  /** True while the crowd is taken to be down (its breaker is open): a failed call is not tried again. */
  degraded?: () => boolean;
  /**
   * Subscribes to the crowd being taken as down (its breaker opening; returns the unsubscribe): the calls then in
   * flight, or waiting for the gate, give up at once and free their place in the gate's window. Without it, calls
   * hanging on a dead address kept the window full until their sockets timed out, and the breaker's probe waited.
   */
  onDown?: (fn: () => void) => () => void;
}

/** Retried after their own back-off (throttling is paced by the ThrottleGate instead). */
const TRANSIENT = new Set(["service_unavailable", "network"]);

function toDate(value: Date | undefined): Date | undefined {
  return value instanceof Date ? value : undefined;
}

export function hitFromSdk(h: HIT): CrowdHit {
  return {
    providerHitId: h.HITId ?? "",
    hitTypeId: h.HITTypeId,
    title: h.Title ?? "",
    status: (h.HITStatus ?? "Assignable") as HitStatus,
    reviewStatus: h.HITReviewStatus,
    maxAssignments: h.MaxAssignments ?? 0,
    rewardCents: h.Reward ? parseDollarsToCents(h.Reward) : 0,
    createdAt: toDate(h.CreationTime) ?? new Date(0),
    expiresAt: toDate(h.Expiration) ?? new Date(0),
    pendingCount: h.NumberOfAssignmentsPending ?? 0,
    availableCount: h.NumberOfAssignmentsAvailable ?? 0,
    completedCount: h.NumberOfAssignmentsCompleted ?? 0,
    requesterAnnotation: h.RequesterAnnotation,
    questionXml: h.Question,
  };
}

export function assignmentFromSdk(a: Assignment): CrowdAssignment {
  return {
    assignmentId: a.AssignmentId ?? "",
    workerId: a.WorkerId ?? "",
    providerHitId: a.HITId ?? "",
    status: (a.AssignmentStatus ?? PROVIDER_ASSIGNMENT_STATUS.Submitted) as CrowdAssignment["status"],
    acceptedAt: toDate(a.AcceptTime),
    submittedAt: toDate(a.SubmitTime),
    autoApprovalAt: toDate(a.AutoApprovalTime),
    approvedAt: toDate(a.ApprovalTime),
    rejectedAt: toDate(a.RejectionTime),
    deadline: toDate(a.Deadline),
    answerXml: a.Answer ?? "",
    requesterFeedback: a.RequesterFeedback,
  };
}

/**
 * CrowdProvider over the official SDK (`@aws-sdk/client-mturk`) for the simulator, the sandbox and production.
 * Faults and network errors are retried by the SDK (standard mode, 8 attempts by default), then by send() below;
 * throttling is paced by send() through the provider's ThrottleGate. Everything that still fails becomes a
 * CrowdError.
 */
export class MturkProvider implements CrowdProvider {
  readonly kind = PROVIDER_KIND.mturk;
  readonly mode: MturkMode;
  readonly fees = MTURK_FEES;
  readonly client: MTurkClient;
  private readonly endpoint?: string;

  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly throttleAttempts: number;
  /** One back-off for all the calls of this provider when MTurk throttles (see ThrottleGate). */
  readonly gate: ThrottleGate;

  private readonly degraded: () => boolean;
  private readonly onDown: ((fn: () => void) => () => void) | null;

  constructor({ client, mode, endpoint, retries = 5, retryBaseMs = 250, throttleAttempts = 16, throttleGate, degraded = () => false, onDown }: MturkProviderOptions) {
    this.degraded = degraded;
    this.onDown = onDown ?? null;
    this.client = client;
    this.mode = mode;
    this.endpoint = endpoint;
    this.retries = retries;
    this.retryBaseMs = retryBaseMs;
    this.throttleAttempts = throttleAttempts;
    this.gate = new ThrottleGate(throttleGate);
  }

  /**
   * Runs one SDK call through the ThrottleGate; a throttled call closes the gate and goes again when it reopens,
   * other transient failures are tried again after their own back-off (safe: every call is idempotent or
   * state-guarded).
   */
  private async send<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    const down = this.watchDown(operation);
    try {
      return await this.sendThroughGate(operation, fn, down);
    } finally {
      down.stop();
    }
  }

  /** Whether the crowd was taken as down since the call began, and a race that rejects when it is. */
  private watchDown(operation: string) {
    const error = () => new CrowdError(`${operation}: MTurk is treated as unreachable (too many failed calls in a row); the call was given up.`, "network");
    let happened = false;
    const waiting = new Set<(err: CrowdError) => void>();
    const stop = this.onDown?.(() => {
      happened = true;
      for (const reject of waiting) reject(error());
    });
    return {
      get happened() {
        return happened;
      },
      error,
      race<T>(p: Promise<T>): Promise<T> {
        if (!stop) return p;
        return new Promise<T>((resolve, reject) => {
          waiting.add(reject);
          p.then(resolve, reject).finally(() => waiting.delete(reject));
        });
      },
      stop: () => stop?.(),
    };
  }

  private async sendThroughGate<T>(operation: string, fn: () => Promise<T>, down: ReturnType<MturkProvider["watchDown"]>): Promise<T> {
    let throttles = 0;
    for (let attempt = 0; ; ) {
      const ticket = await this.gate.enter();
      if (down.happened) {
        // Given up while it waited for the gate: it does not go out at all.
        this.gate.leave(ticket, "failed");
        throw down.error();
      }
      let outcome: CallOutcome = "failed";
      let error: CrowdError | undefined;
      try {
        const out = await down.race(fn());
        outcome = "succeeded";
        return out;
      } catch (err) {
        error = toCrowdError(err, { operation, mode: this.mode, endpoint: this.endpoint });
        if (error.code === "throttled") outcome = "throttled";
      } finally {
        this.gate.leave(ticket, outcome);
      }
      if (error.code === "throttled") {
        if (throttles++ < this.throttleAttempts) continue;
        throw error;
      }
      if (!TRANSIENT.has(error.code) || attempt >= this.retries || this.degraded()) throw error;
      await pause(backoffMs(attempt++, { baseMs: this.retryBaseMs, capMs: 8000, jitter: "half" }));
    }
  }

  async createQualificationType(input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
    assertMturkXmlSize(input.testXml, "qualification test (QuestionForm)", "Use fewer or shorter gold tweets.");
    assertMturkXmlSize(input.answerKeyXml, "answer key", "Use fewer gold tweets.");
    const out = await this.send("CreateQualificationType", () =>
      this.client.send(
        new CreateQualificationTypeCommand({
          Name: input.name,
          Description: input.description,
          Keywords: input.keywords,
          QualificationTypeStatus: "Active",
          Test: input.testXml,
          AnswerKey: input.answerKeyXml,
          TestDurationInSeconds: input.testDurationSeconds,
          RetryDelayInSeconds: input.retryDelaySeconds,
        }),
      ),
    );
    const id = out.QualificationType?.QualificationTypeId;
    if (!id) throw new CrowdError("MTurk did not return a qualification type id.", "unknown");
    return { qualificationTypeId: id };
  }

  async publishHit(input: PublishHitInput): Promise<PublishHitResult> {
    assertMturkXmlSize(input.questionXml, "HIT question", "Use fewer tweets per HIT.");
    const token = deriveUniqueRequestToken(input.accordHitId);
    const annotation = input.requesterAnnotation ?? `accord:${input.accordHitId}`.slice(0, 255);
    // The question goes into the request body through a slot when the client has them (question-body.ts).
    const slots = questionSlotsOf(this.client);
    const withQuestion = (fn: (question: string) => Promise<CreateHITCommandOutput>) => (slots ? slots.withSlot(input.questionXml, fn) : fn(input.questionXml));
    try {
      const out = await withQuestion((question) => {
        const command = new CreateHITCommand({
          LifetimeInSeconds: input.lifetimeSeconds,
          AssignmentDurationInSeconds: input.assignmentDurationSeconds,
          Reward: formatCentsAsDollars(input.rewardCents),
          Title: input.title,
          Description: input.description,
          MaxAssignments: input.maxAssignments,
          AutoApprovalDelayInSeconds: input.autoApprovalDelaySeconds,
          Keywords: input.keywords,
          Question: question,
          RequesterAnnotation: annotation,
          QualificationRequirements: input.qualificationRequirements?.map((r) => ({
            QualificationTypeId: r.qualificationTypeId,
            Comparator: r.comparator,
            IntegerValues: r.integerValues,
            LocaleValues: r.localeValues?.map((l) => ({ Country: l.country, Subdivision: l.subdivision })),
            ActionsGuarded: r.actionsGuarded,
          })),
          UniqueRequestToken: token,
        });
        return this.send("CreateHIT", () => this.client.send(command));
      });
      const hit = out.HIT;
      if (!hit?.HITId) throw new CrowdError("MTurk did not return a HIT id.", "unknown");
      return { providerHitId: hit.HITId, hitTypeId: hit.HITTypeId, expiresAt: toDate(hit.Expiration) ?? new Date(0), duplicate: false };
    } catch (err) {
      if (!(err instanceof CrowdError) || err.code !== "hit_already_exists") throw err;
      const ce = err;
      // A previous attempt (a retry after a lost response, or an earlier run) created the HIT: recover its id.
      const id = hitIdFromMessage(ce.details.providerMessage ?? ce.message) ?? (await this.findHitByAnnotation(annotation));
      if (!id) {
        throw new CrowdError(
          `HIT already exists for Accord HIT ${input.accordHitId} (token ${token}) but its id could not be recovered; look it up on MTurk.`,
          "hit_already_exists",
          ce.details,
        );
      }
      const existing = await this.getHit({ providerHitId: id });
      return { providerHitId: id, hitTypeId: existing.hitTypeId, expiresAt: existing.expiresAt, duplicate: true };
    }
  }

  private async findHitByAnnotation(annotation: string): Promise<string | undefined> {
    return this.send("ListHITs", async () => {
      for await (const page of paginateListHITs({ client: this.client, pageSize: 100 }, {})) {
        const hit = page.HITs?.find((h) => h.RequesterAnnotation === annotation);
        if (hit?.HITId) return hit.HITId;
      }
      return undefined;
    });
  }

  async getHit({ providerHitId }: { providerHitId: string }): Promise<CrowdHit> {
    const out = await this.send("GetHIT", () => this.client.send(new GetHITCommand({ HITId: providerHitId })));
    if (!out.HIT) throw new CrowdError(`MTurk returned no HIT for ${providerHitId}.`, "not_found");
    return hitFromSdk(out.HIT);
  }

  async *listSubmittedAssignments({ providerHitId, statuses, pageSize = 100 }: ListSubmittedAssignmentsInput): AsyncIterable<CrowdAssignment> {
    const statusFilter = statuses && statuses.length > 0 ? statuses : undefined;
    // Page by page, each page one call through send() (throttling and faults are retried for that page only).
    let nextToken: string | undefined;
    for (;;) {
      const token = nextToken;
      const page = await this.send("ListAssignmentsForHIT", () =>
        this.client.send(new ListAssignmentsForHITCommand({ HITId: providerHitId, AssignmentStatuses: statusFilter, MaxResults: pageSize, NextToken: token })),
      );
      for (const a of page.Assignments ?? []) yield assignmentFromSdk(a);
      nextToken = page.NextToken;
      if (!nextToken || nextToken === token) return;
    }
  }

  /** The assignment's current status (to make approve/reject idempotent). */
  private async assignmentStatus(assignmentId: string): Promise<string | undefined> {
    const out = await this.send("GetAssignment", () => this.client.send(new GetAssignmentCommand({ AssignmentId: assignmentId })));
    return out.Assignment?.AssignmentStatus;
  }

  /** Idempotent: an assignment that is already Approved (a retried call, or auto-approval) counts as done. */
  async approveAssignment({ assignmentId, feedback, overrideRejection }: { assignmentId: string; feedback?: string; overrideRejection?: boolean }): Promise<void> {
    try {
      await this.send("ApproveAssignment", () =>
        this.client.send(new ApproveAssignmentCommand({ AssignmentId: assignmentId, RequesterFeedback: feedback, OverrideRejection: overrideRejection })),
      );
    } catch (err) {
      if (err instanceof CrowdError && err.code === "invalid_assignment_state" && (await this.assignmentStatus(assignmentId)) === "Approved") return;
      throw err;
    }
  }

  async rejectAssignment({ assignmentId, feedback }: { assignmentId: string; feedback: string }): Promise<void> {
    if (!feedback || feedback.trim() === "") {
      throw new CrowdError("Rejecting an assignment needs feedback for the worker (why it was rejected).", "invalid_parameter");
    }
    try {
      await this.send("RejectAssignment", () => this.client.send(new RejectAssignmentCommand({ AssignmentId: assignmentId, RequesterFeedback: feedback })));
    } catch (err) {
      // Idempotent: already Rejected (a retried call) counts as done; Approved stays an error.
      if (err instanceof CrowdError && err.code === "invalid_assignment_state" && (await this.assignmentStatus(assignmentId)) === "Rejected") return;
      throw err;
    }
  }

  async addAssignments({ providerHitId, count, uniqueToken }: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }> {
    try {
      await this.send("CreateAdditionalAssignmentsForHIT", () =>
        this.client.send(
          new CreateAdditionalAssignmentsForHITCommand({
            HITId: providerHitId,
            NumberOfAdditionalAssignments: count,
            UniqueRequestToken: deriveUniqueRequestToken(uniqueToken, "accord-asg"),
          }),
        ),
      );
      return { duplicate: false };
    } catch (err) {
      if (err instanceof CrowdError && err.code === "duplicate_request") return { duplicate: true };
      throw err;
    }
  }

  async expireHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    await this.send("UpdateExpirationForHIT", () => this.client.send(new UpdateExpirationForHITCommand({ HITId: providerHitId, ExpireAt: new Date(0) })));
  }

  async extendHit({ providerHitId, expiresAt }: { providerHitId: string; expiresAt: Date }): Promise<void> {
    await this.send("UpdateExpirationForHIT", () => this.client.send(new UpdateExpirationForHITCommand({ HITId: providerHitId, ExpireAt: expiresAt })));
  }

  async deleteHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    try {
      await this.send("DeleteHIT", () => this.client.send(new DeleteHITCommand({ HITId: providerHitId })));
    } catch (err) {
      // Deleting twice (e.g. a retry after a lost response) is a success.
      if (err instanceof CrowdError && err.code === "invalid_hit_state") {
        const hit = await this.getHit({ providerHitId }).catch(() => null);
        if (hit?.status === "Disposed") return;
      }
      throw err;
    }
  }

  async getBalance(): Promise<Balance> {
    const out = await this.send("GetAccountBalance", () => this.client.send(new GetAccountBalanceCommand({})));
    return {
      availableCents: out.AvailableBalance ? parseDollarsToCents(out.AvailableBalance) : 0,
      onHoldCents: out.OnHoldBalance ? parseDollarsToCents(out.OnHoldBalance) : 0,
    };
  }

  async grantQualification({ qualificationTypeId, workerId, value = 1, notify = false }: { qualificationTypeId: string; workerId: string; value?: number; notify?: boolean }): Promise<void> {
    await this.send("AssociateQualificationWithWorker", () =>
      this.client.send(
        new AssociateQualificationWithWorkerCommand({ QualificationTypeId: qualificationTypeId, WorkerId: workerId, IntegerValue: value, SendNotification: notify }),
      ),
    );
  }

  async revokeQualification({ qualificationTypeId, workerId, reason }: { qualificationTypeId: string; workerId: string; reason?: string }): Promise<void> {
    await this.send("DisassociateQualificationFromWorker", () =>
      this.client.send(new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: qualificationTypeId, WorkerId: workerId, Reason: reason })),
    );
  }

  async blockWorker({ workerId, reason }: { workerId: string; reason: string }): Promise<void> {
    await this.send("CreateWorkerBlock", () => this.client.send(new CreateWorkerBlockCommand({ WorkerId: workerId, Reason: reason })));
  }

  async unblockWorker({ workerId, reason }: { workerId: string; reason?: string }): Promise<void> {
    await this.send("DeleteWorkerBlock", () => this.client.send(new DeleteWorkerBlockCommand({ WorkerId: workerId, Reason: reason })));
  }

  async notifyWorkers({ workerIds, subject, message }: { workerIds: string[]; subject: string; message: string }): Promise<NotifyWorkersResult> {
    const failures: NotifyWorkersResult["failures"] = [];
    for (let i = 0; i < workerIds.length; i += 100) {
      const batch = workerIds.slice(i, i + 100);
      const out = await this.send("NotifyWorkers", () =>
        this.client.send(new NotifyWorkersCommand({ Subject: subject, MessageText: message, WorkerIds: batch })),
      );
      for (const f of out.NotifyWorkersFailureStatuses ?? []) {
        failures.push({
          workerId: f.WorkerId ?? "",
          kind: f.NotifyWorkersFailureCode === "HardFailure" ? "hard" : "soft",
          message: f.NotifyWorkersFailureMessage ?? "",
        });
      }
    }
    return { failures };
  }

  async sendBonus({
    workerId,
    assignmentId,
    amountCents,
    reason,
    uniqueToken,
  }: {
    workerId: string;
    assignmentId: string;
    amountCents: number;
    reason: string;
    uniqueToken: string;
  }): Promise<{ duplicate: boolean }> {
    if (!Number.isSafeInteger(amountCents) || amountCents < 1) {
      throw new CrowdError("A bonus must be a whole number of cents, at least 1.", "invalid_parameter");
    }
    try {
      await this.send("SendBonus", () =>
        this.client.send(
          new SendBonusCommand({
            WorkerId: workerId,
            AssignmentId: assignmentId,
            BonusAmount: formatCentsAsDollars(amountCents),
            Reason: reason,
            UniqueRequestToken: deriveUniqueRequestToken(uniqueToken, "accord-bonus"),
          }),
        ),
      );
      return { duplicate: false };
    } catch (err) {
      if (err instanceof CrowdError && err.code === "duplicate_request") return { duplicate: true };
      throw err;
    }
  }
}

/** Client + provider in one call (the usual way to get an MTurk provider). */
export function createMturkProvider(config: MturkClientConfig & Pick<MturkProviderOptions, "retries" | "retryBaseMs" | "throttleAttempts" | "throttleGate" | "degraded" | "onDown">): MturkProvider {
  const degraded = config.degraded;
  const attempts = config.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  return new MturkProvider({
    // Throttling is paced by the provider's ThrottleGate, not call by call in the SDK (standard mode).
    client: createMturkClient({
      throttling: (config.retryMode ?? DEFAULT_RETRY_MODE) === "standard" ? "caller" : "sdk",
      ...config,
      // While the crowd is down, one attempt per call: the breaker's probe answers quickly either way.
      ...(degraded ? { maxAttempts: () => (degraded() ? 1 : typeof attempts === "function" ? attempts() : attempts) } : {}),
    }),
    degraded,
    onDown: config.onDown,
    mode: config.mode,
    endpoint: mturkEndpoint(config),
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
    throttleAttempts: config.throttleAttempts,
    throttleGate: config.throttleGate,
  });
}
