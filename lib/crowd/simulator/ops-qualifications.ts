import { z } from "zod";
import { buildQuestionFormAnswers, type QuestionFormAnswer } from "../mturk/answers";
import { parseQuestionForm } from "../mturk/question-form";
import { plainRequestError, requestError } from "./errors";
import { extraState, type SimQualificationRequest } from "./ops-state";
import { op, type ExtraOperation } from "./ops-types";
import { checkQualificationTest } from "./qualification-rules";
import { SYSTEM_QUALIFICATION_NAMES } from "./requirements";
import { entityId, maxResults, nextToken } from "./schemas";
import type { MturkSimulatorService } from "./service";
import type { SimQualificationType } from "./state";
import { chooseAnswer, decisionRng, workSeconds, type SimWorker } from "./workers";

/** MTurk frees a deleted type's name after up to 48 hours (docs/mturk-protocol.md §4). */
const NAME_REUSE_DELAY_MS = 48 * 3600 * 1000;

const page = { NextToken: nextToken.optional(), MaxResults: maxResults.optional() };

function requestNotFound(id: string, nowMs: number) {
  return requestError("QualificationRequestDoesNotExist", `QualificationRequest ${id} does not exist.`, nowMs);
}

/** Whether a deleted type still holds its name: for 48 h after deletion, and while live HITs still use it. */
export function qualificationNameReserved(svc: MturkSimulatorService, name: string): boolean {
  return Object.values(extraState(svc.state).deletedQualificationTypes).some(
    (q) =>
      q.Name === name &&
      (svc.time - q.deletedAt < NAME_REUSE_DELAY_MS ||
        svc.state.hitOrder.some((id) => {
          const hit = svc.state.hits[id];
          return !hit.disposed && hit.QualificationRequirements.some((r) => r.QualificationTypeId === q.QualificationTypeId);
        })),
  );
}

function pendingRequest(svc: MturkSimulatorService, typeId: string, workerId: string): SimQualificationRequest | undefined {
  return Object.values(svc.state.extra?.qualificationRequests ?? {}).find((r) => r.QualificationTypeId === typeId && r.WorkerId === workerId);
}

/** A worker may ask for a type that is active and requestable, has no request pending, and whose retry delay (if any) passed. */
export function canRequestQualification(svc: MturkSimulatorService, w: SimWorker, typeId: string): boolean {
  const type = svc.state.qualificationTypes[typeId];
  if (!type || type.QualificationTypeStatus !== "Active" || !(type.Test || type.AutoGranted)) return false;
  if (pendingRequest(svc, typeId, w.workerId)) return false;
  const last = w.testAttempts[typeId];
  if (last === undefined) return true;
  return type.RetryDelayInSeconds !== undefined && svc.time - last >= type.RetryDelayInSeconds * 1000;
}

/**
 * A worker asks for a qualification (the worker's side of MTurk): an auto-granted type is granted at once, a test
 * with an AnswerKey is graded, and a test without one becomes a QualificationRequest for the requester to decide.
 * Returns the granted value, or the pending request's id.
 */
export function requestQualification(
  svc: MturkSimulatorService,
  { workerId, qualificationTypeId, answers = [] }: { workerId: string; qualificationTypeId: string; answers?: QuestionFormAnswer[] },
): { granted: number } | { requestId: string } {
  svc.advance();
  const w = svc.worker(workerId);
  if (!canRequestQualification(svc, w, qualificationTypeId)) {
    throw new Error(`Worker ${workerId} cannot request QualificationType ${qualificationTypeId} now (inactive, not requestable, pending, or retry delay not passed).`);
  }
  const type = svc.state.qualificationTypes[qualificationTypeId];
  if (type.AnswerKey) return { granted: svc.takeQualificationTest({ workerId, qualificationTypeId, answers }).score };
  w.testAttempts[qualificationTypeId] = svc.time;
  if (type.AutoGranted) {
    svc.grant(qualificationTypeId, workerId, type.AutoGrantedValue ?? 1);
    svc.wakeSleepers();
    return { granted: type.AutoGrantedValue ?? 1 };
  }
  const req: SimQualificationRequest = {
    QualificationRequestId: svc.newId(),
    QualificationTypeId: qualificationTypeId,
    WorkerId: workerId,
    Test: type.Test,
    Answer: type.Test ? buildQuestionFormAnswers(answers) : undefined,
    SubmitTime: svc.time,
  };
  extraState(svc.state).qualificationRequests[req.QualificationRequestId] = req;
  return { requestId: req.QualificationRequestId };
}

/** A simulated worker asks for a type it needs; the answers follow its profile. Returns the seconds it spent. */
export function simulateQualificationRequest(svc: MturkSimulatorService, w: SimWorker, typeId: string): number {
  const type = svc.state.qualificationTypes[typeId];
  if (type.AnswerKey) return svc.simulateTest(w, typeId);
  const rng = decisionRng(svc.state.seed, w, `request-${typeId}`);
  let answers: QuestionFormAnswer[] = [];
  if (type.Test) {
    try {
      answers = parseQuestionForm(type.Test)
        .filter((q) => q.kind === "selection" && q.selections.length > 0)
        .map((q) => ({ questionId: q.questionId, selectionIds: [chooseAnswer({ worker: w, options: q.selections.map((s) => s.selectionId), truth: undefined, rng })] }));
    } catch {
      answers = [];
    }
  }
  requestQualification(svc, { workerId: w.workerId, qualificationTypeId: typeId, answers });
  return workSeconds(w, Math.max(1, answers.length), rng);
}

/** Stores a file a worker uploads for a FileUploadAnswer; the answer names it by key (GetFileUploadURL serves it). */
export function uploadAnswerFile(svc: MturkSimulatorService, content: string | Buffer): { uploadedFileKey: string; uploadedFileSizeInBytes: number } {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const key = `${svc.newId("F")}`;
  extraState(svc.state).files[key] = { contentBase64: bytes.toString("base64"), size: bytes.length };
  return { uploadedFileKey: key, uploadedFileSizeInBytes: bytes.length };
}

function typeJsonList(svc: MturkSimulatorService, types: SimQualificationType[]) {
  return types.map((q) => svc.qualificationTypeJson(q.QualificationTypeId));
}

function searchable(q: { Name: string; Description: string; Keywords?: string }): string {
  return `${q.Name} ${q.Description} ${q.Keywords ?? ""}`.toLowerCase();
}

export const qualificationOperations: Record<string, ExtraOperation> = {
  ListQualificationTypes: op(z.object({
      Query: z.string().max(255).optional(),
      MustBeRequestable: z.boolean(),
      MustBeOwnedByCaller: z.boolean().optional(),
      ...page,
    }), (svc, i) => {
    const words = (i.Query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const own = Object.values(svc.state.qualificationTypes).sort((a, b) => a.CreationTime - b.CreationTime || a.QualificationTypeId.localeCompare(b.QualificationTypeId));
    const system = i.MustBeOwnedByCaller ? [] : Object.keys(SYSTEM_QUALIFICATION_NAMES).map((id) => svc.qualificationTypeJson(id));
    const all = [...typeJsonList(svc, own), ...system].filter((q) => {
      if (i.MustBeRequestable && !q.IsRequestable) return false;
      const text = searchable(q as { Name: string; Description: string; Keywords?: string });
      return words.every((w) => text.includes(w));
    });
    const scope = `qtypes|${i.Query ?? ""}|${String(i.MustBeRequestable)}|${String(i.MustBeOwnedByCaller ?? false)}`;
    return svc.pageJson(svc.paginate(all, i.NextToken, i.MaxResults, scope), "QualificationTypes", (q) => q);
  }),
  UpdateQualificationType: op(z.object({
      QualificationTypeId: entityId,
      Description: z.string().min(1).max(2000).optional(),
      QualificationTypeStatus: z.enum(["Active", "Inactive"]).optional(),
      Test: z.string().max(65_535).optional(),
      AnswerKey: z.string().max(65_535).optional(),
      TestDurationInSeconds: z.number().int().min(1).optional(),
      RetryDelayInSeconds: z.number().int().min(0).optional(),
      AutoGranted: z.boolean().optional(),
      AutoGrantedValue: z.number().int().optional(),
    }), (svc, i) => {
    const q = svc.ownedQualificationType(i.QualificationTypeId);
    if (i.Test !== undefined && i.TestDurationInSeconds === undefined) {
      throw plainRequestError("TestDurationInSeconds is required when a Test is given.", svc.time);
    }
    const next = {
      Test: i.Test ?? q.Test,
      AnswerKey: i.AnswerKey ?? q.AnswerKey,
      TestDurationInSeconds: i.TestDurationInSeconds ?? q.TestDurationInSeconds,
      AutoGranted: i.AutoGranted ?? q.AutoGranted,
    };
    checkQualificationTest(next, svc.time);
    Object.assign(q, {
      Description: i.Description ?? q.Description,
      QualificationTypeStatus: i.QualificationTypeStatus ?? q.QualificationTypeStatus,
      ...next,
      RetryDelayInSeconds: i.RetryDelayInSeconds ?? q.RetryDelayInSeconds,
      AutoGrantedValue: next.AutoGranted ? (i.AutoGrantedValue ?? q.AutoGrantedValue ?? 1) : undefined,
      IsRequestable: next.Test !== undefined || next.AutoGranted,
    });
    svc.forgetParsedTest(q.QualificationTypeId);
    svc.wakeSleepers();
    return { QualificationType: svc.qualificationTypeJson(q.QualificationTypeId) };
  }),
  DeleteQualificationType: op(z.object({ QualificationTypeId: entityId }), (svc, i) => {
    const q = svc.ownedQualificationType(i.QualificationTypeId);
    const extra = extraState(svc.state);
    extra.deletedQualificationTypes[q.QualificationTypeId] = { ...q, deletedAt: svc.time };
    delete svc.state.qualificationTypes[q.QualificationTypeId];
    svc.forgetParsedTest(q.QualificationTypeId);
    // Pending requests are rejected and HIT types that require the type are deleted with it; granted values stay.
    for (const [id, r] of Object.entries(extra.qualificationRequests)) if (r.QualificationTypeId === q.QualificationTypeId) delete extra.qualificationRequests[id];
    for (const [id, t] of Object.entries(svc.state.hitTypes)) {
      if (t.QualificationRequirements.some((r) => r.QualificationTypeId === q.QualificationTypeId)) delete svc.state.hitTypes[id];
    }
    return {};
  }),
  ListHITsForQualificationType: op(z.object({ QualificationTypeId: entityId, ...page }), (svc, i) => {
    if (!SYSTEM_QUALIFICATION_NAMES[i.QualificationTypeId]) svc.ownedQualificationType(i.QualificationTypeId);
    const all = svc.state.hitOrder
      .map((id) => svc.state.hits[id])
      .filter((h) => !h.disposed && h.QualificationRequirements.some((r) => r.QualificationTypeId === i.QualificationTypeId));
    return svc.pageJson(svc.paginate(all, i.NextToken, i.MaxResults, `hitsq|${i.QualificationTypeId}`), "HITs", (h) => svc.hitJson(h));
  }),
  ListQualificationRequests: op(z.object({ QualificationTypeId: entityId.optional(), ...page }), (svc, i) => {
    if (i.QualificationTypeId) svc.ownedQualificationType(i.QualificationTypeId);
    const all = Object.values(extraState(svc.state).qualificationRequests)
      .filter((r) => !i.QualificationTypeId || r.QualificationTypeId === i.QualificationTypeId)
      .sort((a, b) => a.SubmitTime - b.SubmitTime || a.QualificationRequestId.localeCompare(b.QualificationRequestId));
    return svc.pageJson(svc.paginate(all, i.NextToken, i.MaxResults, `qreq|${i.QualificationTypeId ?? ""}`), "QualificationRequests", (r) => ({
      QualificationRequestId: r.QualificationRequestId,
      QualificationTypeId: r.QualificationTypeId,
      WorkerId: r.WorkerId,
      Test: r.Test,
      Answer: r.Answer,
      SubmitTime: svc.wire(r.SubmitTime),
    }));
  }),
  AcceptQualificationRequest: op(z.object({ QualificationRequestId: entityId, IntegerValue: z.number().int().optional() }), (svc, i) => {
    const extra = extraState(svc.state);
    const r = extra.qualificationRequests[i.QualificationRequestId];
    if (!r) throw requestNotFound(i.QualificationRequestId, svc.time);
    svc.grant(r.QualificationTypeId, r.WorkerId, i.IntegerValue ?? 1);
    delete extra.qualificationRequests[r.QualificationRequestId];
    svc.wakeSleepers();
    return {};
  }),
  RejectQualificationRequest: op(z.object({ QualificationRequestId: entityId, Reason: z.string().max(1024).optional() }), (svc, i) => {
    const extra = extraState(svc.state);
    if (!extra.qualificationRequests[i.QualificationRequestId]) throw requestNotFound(i.QualificationRequestId, svc.time);
    delete extra.qualificationRequests[i.QualificationRequestId];
    return {};
  }),
};
