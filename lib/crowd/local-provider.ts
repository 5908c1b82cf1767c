import { randomBytes } from "node:crypto";
import { dueTransition, type HitCounts, hitCounts, hitState } from "./hit-state";
import { CrowdError } from "./errors";
import type { LocalAssignmentRecord, LocalCrowdStore, LocalCrowdStoreTx, LocalHitRecord } from "./local-store";
import { MTURK_FEES } from "./mturk/fees";
import { buildQuestionFormAnswers, type QuestionFormAnswer } from "./mturk/answers";
import { gradeAnswerKey, parseAnswerKey } from "./mturk/answer-key";
import { meetsRequirement } from "./simulator/requirements";
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
} from "./provider";
import { PROVIDER_ASSIGNMENT_STATUS, PROVIDER_KIND } from "@/lib/db/enums";

const DAY_MS = 24 * 3600 * 1000;

export interface LocalProviderOptions {
  store: LocalCrowdStore;
  /** Injectable clock (tests). */
  now?: () => Date;
}

function newId(): string {
  return "L" + randomBytes(20).toString("hex").toUpperCase().slice(0, 29);
}

/**
 * The in-house crowd ("local"): annotators signed in to Accord work on Accord's own task page under the same HIT
 * rules as on MTurk (assignments, deadlines, approval/rejection, qualification test graded by the same AnswerKey),
 * with no money involved. State lives in an injected LocalCrowdStore (lib/crowd/local-store.ts).
 *
 * Besides the CrowdProvider methods, the task page uses the worker-side methods: listAvailableHits, acceptHit,
 * submitAssignment, returnAssignment and takeQualificationTest. Answers are stored as QuestionFormAnswers XML
 * (one FreeText answer per form field), so the sync loop parses local and MTurk work with the same parser.
 * Time-based transitions (abandonment at the deadline, auto-approval) are applied lazily on every read.
 */
export class LocalProvider implements CrowdProvider {
  readonly kind = PROVIDER_KIND.local;
  readonly mode = "local";
  /** In-house rewards are booked at MTurk's assignment fee (as before providers had their own); bonuses carry none. */
  readonly fees = { assignmentFeeCents: MTURK_FEES.assignmentFeeCents, bonusFeeCents: () => 0 };
  private readonly store: LocalCrowdStore;
  private readonly now: () => Date;

  constructor({ store, now }: LocalProviderOptions) {
    this.store = store;
    this.now = now ?? (() => new Date());
  }

  // ───────── helpers ─────────

  private async hitOrThrow(tx: LocalCrowdStoreTx, id: string): Promise<LocalHitRecord> {
    const hit = await tx.getHit(id);
    if (!hit) throw new CrowdError(`HIT ${id} does not exist in the in-house crowd.`, "not_found");
    return hit;
  }

  /** Applies due transitions (deadline → Abandoned, autoApprovalAt → Approved) and returns the fresh list. */
  private async settle(tx: LocalCrowdStoreTx, hitId: string): Promise<LocalAssignmentRecord[]> {
    const now = this.now();
    const list = await tx.listAssignments(hitId);
    for (const a of list) {
      const next = dueTransition({ status: a.status, deadline: a.deadline.getTime(), autoApprovalAt: a.autoApprovalAt?.getTime() }, now.getTime());
      if (next === "Abandoned") {
        a.status = "Abandoned";
        await tx.updateAssignment(a.id, { status: "Abandoned" });
      } else if (next === "Approved") {
        a.status = PROVIDER_ASSIGNMENT_STATUS.Approved;
        a.approvedAt = a.autoApprovalAt;
        await tx.updateAssignment(a.id, { status: PROVIDER_ASSIGNMENT_STATUS.Approved, approvedAt: a.autoApprovalAt });
      }
    }
    return list;
  }

  private counts(hit: LocalHitRecord, list: LocalAssignmentRecord[]): HitCounts & { status: HitStatus } {
    const now = this.now().getTime();
    const counts = hitCounts(list.map((a) => ({ status: a.status, deadline: a.deadline.getTime() })), hit.maxAssignments, now);
    return { ...counts, status: hitState({ disposed: hit.disposed, expired: now >= hit.expiresAt.getTime(), counts }) };
  }

  private toCrowdHit(hit: LocalHitRecord, list: LocalAssignmentRecord[]): CrowdHit {
    const c = this.counts(hit, list);
    return {
      providerHitId: hit.id,
      title: hit.title,
      status: c.status,
      maxAssignments: hit.maxAssignments,
      rewardCents: hit.rewardCents,
      createdAt: hit.createdAt,
      expiresAt: hit.expiresAt,
      pendingCount: c.pending,
      availableCount: c.available,
      completedCount: c.completed,
      requesterAnnotation: hit.requesterAnnotation,
      questionXml: hit.questionXml,
    };
  }

  private async decidable(tx: LocalCrowdStoreTx, assignmentId: string): Promise<LocalAssignmentRecord> {
    const a = await tx.getAssignment(assignmentId);
    if (!a || a.status === "Accepted" || a.status === "Returned" || a.status === "Abandoned") {
      throw new CrowdError(`Assignment ${assignmentId} does not exist in the in-house crowd.`, "not_found");
    }
    await this.settle(tx, a.hitId);
    return (await tx.getAssignment(assignmentId)) as LocalAssignmentRecord;
  }

  // ───────── CrowdProvider ─────────

  async createQualificationType(input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
    parseAnswerKey(input.answerKeyXml); // validates
    return this.store.transaction(async (tx) => {
      if (await tx.findQualificationTypeByName(input.name)) {
        throw new CrowdError(`A qualification type named "${input.name}" already exists.`, "already_exists");
      }
      const id = newId();
      await tx.insertQualificationType({
        id,
        name: input.name,
        description: input.description,
        keywords: input.keywords,
        testXml: input.testXml,
        answerKeyXml: input.answerKeyXml,
        testDurationSeconds: input.testDurationSeconds,
        retryDelaySeconds: input.retryDelaySeconds,
        createdAt: this.now(),
      });
      return { qualificationTypeId: id };
    });
  }

  async publishHit(input: PublishHitInput): Promise<PublishHitResult> {
    return this.store.transaction(async (tx) => {
      const existing = await tx.findHitByAccordId(input.accordHitId);
      if (existing) return { providerHitId: existing.id, expiresAt: existing.expiresAt, duplicate: true };
      const now = this.now();
      const hit: LocalHitRecord = {
        id: newId(),
        accordHitId: input.accordHitId,
        title: input.title,
        description: input.description,
        keywords: input.keywords,
        rewardCents: input.rewardCents,
        maxAssignments: input.maxAssignments,
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.lifetimeSeconds * 1000),
        assignmentDurationSeconds: input.assignmentDurationSeconds,
        autoApprovalDelaySeconds: input.autoApprovalDelaySeconds,
        questionXml: input.questionXml,
        qualificationRequirements: input.qualificationRequirements ?? [],
        requesterAnnotation: input.requesterAnnotation ?? `accord:${input.accordHitId}`,
        disposed: false,
      };
      await tx.insertHit(hit);
      return { providerHitId: hit.id, expiresAt: hit.expiresAt, duplicate: false };
    });
  }

  async getHit({ providerHitId }: { providerHitId: string }): Promise<CrowdHit> {
    return this.store.transaction(async (tx) => {
      const hit = await this.hitOrThrow(tx, providerHitId);
      return this.toCrowdHit(hit, await this.settle(tx, hit.id));
    });
  }

  async *listSubmittedAssignments({ providerHitId, statuses }: ListSubmittedAssignmentsInput): AsyncIterable<CrowdAssignment> {
    const wanted = new Set(statuses && statuses.length > 0 ? statuses : ["Submitted", "Approved", "Rejected"]);
    const list = await this.store.transaction(async (tx) => {
      await this.hitOrThrow(tx, providerHitId);
      return this.settle(tx, providerHitId);
    });
    for (const a of list) {
      if (!wanted.has(a.status)) continue;
      yield {
        assignmentId: a.id,
        workerId: a.workerId,
        providerHitId: a.hitId,
        status: a.status as CrowdAssignment["status"],
        acceptedAt: a.acceptedAt,
        submittedAt: a.submittedAt,
        autoApprovalAt: a.autoApprovalAt,
        approvedAt: a.approvedAt,
        rejectedAt: a.rejectedAt,
        deadline: a.deadline,
        answerXml: a.answerXml ?? "",
        requesterFeedback: a.feedback,
      };
    }
  }

  async approveAssignment({ assignmentId, feedback, overrideRejection }: { assignmentId: string; feedback?: string; overrideRejection?: boolean }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const a = await this.decidable(tx, assignmentId);
      const allowed = a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted || (a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected && overrideRejection && this.now().getTime() - (a.submittedAt?.getTime() ?? 0) <= 30 * DAY_MS);
      if (!allowed) {
        throw new CrowdError(`Assignment ${assignmentId} is ${a.status}; only a submitted assignment can be approved (or a rejected one with overrideRejection within 30 days).`, "invalid_assignment_state");
      }
      await tx.updateAssignment(a.id, { status: PROVIDER_ASSIGNMENT_STATUS.Approved, approvedAt: this.now(), rejectedAt: undefined, feedback: feedback ?? a.feedback });
    });
  }

  async rejectAssignment({ assignmentId, feedback }: { assignmentId: string; feedback: string }): Promise<void> {
    if (!feedback || feedback.trim() === "") throw new CrowdError("Rejecting an assignment needs feedback for the annotator.", "invalid_parameter");
    await this.store.transaction(async (tx) => {
      const a = await this.decidable(tx, assignmentId);
      if (a.status !== PROVIDER_ASSIGNMENT_STATUS.Submitted) throw new CrowdError(`Assignment ${assignmentId} is ${a.status}; only a submitted assignment can be rejected.`, "invalid_assignment_state");
      await tx.updateAssignment(a.id, { status: PROVIDER_ASSIGNMENT_STATUS.Rejected, rejectedAt: this.now(), feedback });
    });
  }

  async addAssignments({ providerHitId, count, uniqueToken }: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }> {
    if (!Number.isInteger(count) || count < 1) throw new CrowdError("Add at least one assignment.", "invalid_parameter");
    return this.store.transaction(async (tx) => {
      const hit = await this.hitOrThrow(tx, providerHitId);
      if (hit.disposed) throw new CrowdError(`HIT ${providerHitId} was deleted.`, "invalid_hit_state");
      if (!(await tx.claimToken("assign", uniqueToken, this.now()))) return { duplicate: true };
      await tx.updateHit(hit.id, { maxAssignments: hit.maxAssignments + count });
      return { duplicate: false };
    });
  }

  async expireHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const hit = await this.hitOrThrow(tx, providerHitId);
      const now = this.now();
      if (hit.expiresAt > now) await tx.updateHit(hit.id, { expiresAt: now });
    });
  }

  async extendHit({ providerHitId, expiresAt }: { providerHitId: string; expiresAt: Date }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const hit = await this.hitOrThrow(tx, providerHitId);
      if (hit.disposed) throw new CrowdError(`HIT ${providerHitId} was deleted.`, "invalid_hit_state");
      await tx.updateHit(hit.id, { expiresAt: expiresAt <= this.now() ? this.now() : expiresAt });
    });
  }

  async deleteHit({ providerHitId }: { providerHitId: string }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const hit = await this.hitOrThrow(tx, providerHitId);
      if (hit.disposed) return;
      const list = await this.settle(tx, hit.id);
      const c = this.counts(hit, list);
      if (c.status !== "Reviewable" || list.some((a) => a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted)) {
        throw new CrowdError(`HIT ${providerHitId} is ${c.status}; it can be deleted once reviewable with every assignment approved or rejected.`, "invalid_hit_state");
      }
      await tx.updateHit(hit.id, { disposed: true });
    });
  }

  async getBalance(): Promise<Balance> {
    return { availableCents: 0, onHoldCents: 0, unlimited: true };
  }

  async grantQualification({ qualificationTypeId, workerId, value = 1 }: { qualificationTypeId: string; workerId: string; value?: number }): Promise<void> {
    await this.store.transaction(async (tx) => {
      if (!(await tx.getQualificationType(qualificationTypeId))) throw new CrowdError(`Qualification type ${qualificationTypeId} does not exist.`, "not_found");
      const prev = await tx.getQualification(qualificationTypeId, workerId);
      await tx.upsertQualification({ typeId: qualificationTypeId, workerId, value, status: "Granted", grantedAt: this.now(), lastTestAt: prev?.lastTestAt });
    });
  }

  async revokeQualification({ qualificationTypeId, workerId }: { qualificationTypeId: string; workerId: string }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const q = await tx.getQualification(qualificationTypeId, workerId);
      if (!q || q.status !== "Granted") throw new CrowdError(`Annotator ${workerId} does not hold qualification ${qualificationTypeId}.`, "not_found");
      await tx.upsertQualification({ ...q, status: "Revoked" });
    });
  }

  async blockWorker({ workerId, reason }: { workerId: string; reason: string }): Promise<void> {
    await this.store.transaction((tx) => tx.setBlock(workerId, { reason, at: this.now() }));
  }

  async unblockWorker({ workerId }: { workerId: string }): Promise<void> {
    await this.store.transaction((tx) => tx.setBlock(workerId, null));
  }

  async notifyWorkers({ workerIds, subject, message }: { workerIds: string[]; subject: string; message: string }): Promise<NotifyWorkersResult> {
    return this.store.transaction(async (tx) => {
      const failures: NotifyWorkersResult["failures"] = [];
      const sent: string[] = [];
      for (const w of workerIds) {
        if (await tx.hasDecidedWork(w)) sent.push(w);
        else failures.push({ workerId: w, kind: "hard", message: `Annotator ${w} has no reviewed work yet.` });
      }
      if (sent.length > 0) await tx.insertNotification({ workerIds: sent, subject, message, at: this.now() });
      return { failures };
    });
  }

  /** Records the bonus (no money moves in the in-house crowd). */
  async sendBonus({ workerId, assignmentId, amountCents, reason, uniqueToken }: { workerId: string; assignmentId: string; amountCents: number; reason: string; uniqueToken: string }): Promise<{ duplicate: boolean }> {
    return this.store.transaction(async (tx) => {
      const a = await tx.getAssignment(assignmentId);
      if (!a || a.workerId !== workerId) throw new CrowdError(`Assignment ${assignmentId} of annotator ${workerId} does not exist.`, "not_found");
      if (!(await tx.claimToken("bonus", uniqueToken, this.now()))) return { duplicate: true };
      await tx.insertBonus({ workerId, assignmentId, amountCents, reason, at: this.now() });
      return { duplicate: false };
    });
  }

  // ───────── worker side (Accord's task page) ─────────

  /** Why the annotator cannot accept the HIT (null = can). Requirements: custom qualification types only. */
  private async blocker(tx: LocalCrowdStoreTx, hit: LocalHitRecord, workerId: string): Promise<string | null> {
    const list = await this.settle(tx, hit.id);
    const c = this.counts(hit, list);
    if (c.status !== "Assignable") return `the HIT is ${c.status}`;
    if (await tx.getBlock(workerId)) return "you are blocked";
    if (list.some((a) => a.workerId === workerId && a.status !== "Returned" && a.status !== "Abandoned")) return "you already worked on this HIT";
    for (const r of hit.qualificationRequirements) {
      const q = await tx.getQualification(r.qualificationTypeId, workerId);
      const v = q && q.status === "Granted" ? q.value : undefined;
      const ok = meetsRequirement(
        { QualificationTypeId: r.qualificationTypeId, Comparator: r.comparator, IntegerValues: r.integerValues },
        v === undefined ? undefined : { integer: v },
      );
      if (!ok) return `the qualification requirement ${r.qualificationTypeId} is not met`;
    }
    return null;
  }

  async acceptHit({ providerHitId, workerId }: { providerHitId: string; workerId: string }): Promise<{ assignmentId: string; deadline: Date }> {
    return this.store.transaction(async (tx) => {
      const hit = await this.hitOrThrow(tx, providerHitId);
      const why = await this.blocker(tx, hit, workerId);
      if (why) throw new CrowdError(`You cannot take this HIT: ${why}.`, "invalid_hit_state");
      const now = this.now();
      const rec: LocalAssignmentRecord = {
        id: newId(),
        hitId: hit.id,
        workerId,
        status: "Accepted",
        acceptedAt: now,
        deadline: new Date(now.getTime() + hit.assignmentDurationSeconds * 1000),
      };
      await tx.insertAssignment(rec);
      return { assignmentId: rec.id, deadline: rec.deadline };
    });
  }

  /** Stores the posted form fields as QuestionFormAnswers (assignmentId excluded) and marks the work submitted. */
  async submitAssignment({ assignmentId, workerId, fields }: { assignmentId: string; workerId: string; fields: Record<string, string> }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const a = await tx.getAssignment(assignmentId);
      if (!a || a.workerId !== workerId) throw new CrowdError(`Assignment ${assignmentId} does not exist.`, "not_found");
      await this.settle(tx, a.hitId);
      const fresh = (await tx.getAssignment(assignmentId)) as LocalAssignmentRecord;
      if (fresh.status !== "Accepted") throw new CrowdError(`This assignment is ${fresh.status} and can no longer be submitted.`, "invalid_assignment_state");
      const hit = await this.hitOrThrow(tx, a.hitId);
      const now = this.now();
      const answers: QuestionFormAnswer[] = Object.entries(fields)
        .filter(([k]) => k !== "assignmentId")
        .map(([questionId, freeText]) => ({ questionId, freeText }));
      await tx.updateAssignment(a.id, {
        status: PROVIDER_ASSIGNMENT_STATUS.Submitted,
        submittedAt: now,
        autoApprovalAt: new Date(now.getTime() + hit.autoApprovalDelaySeconds * 1000),
        answerXml: buildQuestionFormAnswers(answers),
      });
    });
  }

  async returnAssignment({ assignmentId, workerId }: { assignmentId: string; workerId: string }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const a = await tx.getAssignment(assignmentId);
      if (!a || a.workerId !== workerId || a.status !== "Accepted") throw new CrowdError(`Assignment ${assignmentId} cannot be returned.`, "invalid_assignment_state");
      await tx.updateAssignment(a.id, { status: "Returned" });
    });
  }

  /** HITs the annotator could take now, among `providerHitIds` (the campaign engine knows its HITs). */
  async listAvailableHits({ providerHitIds, workerId }: { providerHitIds: string[]; workerId: string }): Promise<string[]> {
    return this.store.transaction(async (tx) => {
      const out: string[] = [];
      for (const id of providerHitIds) {
        const hit = await tx.getHit(id);
        if (hit && (await this.blocker(tx, hit, workerId)) === null) out.push(id);
      }
      return out;
    });
  }

  /** Grades the annotator's test answers with the type's AnswerKey (as MTurk would) and grants the score. */
  async takeQualificationTest({
    qualificationTypeId,
    workerId,
    answers,
  }: {
    qualificationTypeId: string;
    workerId: string;
    /** QuestionIdentifier → chosen SelectionIdentifier. */
    answers: Record<string, string>;
  }): Promise<{ score: number }> {
    return this.store.transaction(async (tx) => {
      const type = await tx.getQualificationType(qualificationTypeId);
      if (!type) throw new CrowdError(`Qualification type ${qualificationTypeId} does not exist.`, "not_found");
      const prev = await tx.getQualification(qualificationTypeId, workerId);
      const now = this.now();
      if (prev?.lastTestAt) {
        const wait = type.retryDelaySeconds;
        if (wait === undefined) throw new CrowdError("You already took this test; it cannot be retaken.", "invalid_parameter");
        if (now.getTime() - prev.lastTestAt.getTime() < wait * 1000) throw new CrowdError("Please wait before retaking the test.", "invalid_parameter");
      }
      const graded = gradeAnswerKey(
        parseAnswerKey(type.answerKeyXml),
        Object.entries(answers).map(([questionId, sel]) => ({ questionId, selectionIds: [sel] })),
      );
      await tx.upsertQualification({ typeId: qualificationTypeId, workerId, value: graded.value, status: "Granted", grantedAt: now, lastTestAt: now });
      return { score: graded.value };
    });
  }
}
