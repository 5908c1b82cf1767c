import { CrowdError, isCrowdError } from "../../errors";
import { buildQuestionFormAnswers } from "../../mturk/answers";
import type { CrowdAssignment, ListSubmittedAssignmentsInput } from "../../provider";
import { REJECTION_CATEGORIES, type RejectionCategory, type SubmissionListItem } from "../api-types";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { rejectionMessage } from "../rejection";
import { hitRef, type ProlificContext } from "./context";
import { completionCode } from "./publish";
import { hitOfSession, queuedHit, submissionsOfHit } from "./queue";
import { forgetStudyView } from "./study-view";

// Submissions as Accord's assignments: a HIT's are the sessions its queue gave it, joined to the answers Accord's
// page stored; decisions.

/** Prolific approves what is still awaiting review 21 days after completion (docs; the simulator does the same). */
const AUTO_APPROVE_MS = 21 * 24 * 3600 * 1000;
const NO_ANSWERS = buildQuestionFormAnswers([]);
const DECIDED: Record<string, CrowdAssignment["status"] | undefined> = { "AWAITING REVIEW": "Submitted", APPROVED: "Approved", REJECTED: "Rejected" };

/**
 * Accord's task page calls this when the participant submits the HIT their session was given (write-once: a
 * resubmission keeps the first); the code is the batch study's.
 */
export async function saveAnswers(ctx: ProlificContext, { submissionId, studyId, accordHitId, answerXml }: { submissionId: string; studyId: string; accordHitId: string; answerXml: string }): Promise<{ completionCode: string }> {
  if ((await hitOfSession(ctx, submissionId)) !== accordHitId) throw new CrowdError(`Session ${submissionId} was not given HIT ${accordHitId}.`, "invalid_parameter");
  const { batchKey } = await queuedHit(ctx, studyId, accordHitId);
  await ctx.store.insert(S.answer, submissionId, { answerXml, hitId: accordHitId });
  forgetStudyView(ctx, studyId); // the participant is about to come back with the code
  return { completionCode: await completionCode(ctx, batchKey) };
}

export async function* listSubmitted(ctx: ProlificContext, { providerHitId, statuses }: ListSubmittedAssignmentsInput): AsyncIterable<CrowdAssignment> {
  const wanted = new Set(statuses ?? ["Submitted", "Approved", "Rejected"]);
  const { studyId, hitId } = hitRef(providerHitId);
  for (const s of (await submissionsOfHit(ctx, studyId, hitId)).submissions) {
    const status = DECIDED[s.status];
    if (!status || !wanted.has(status)) continue;
    yield await toAssignment(ctx, providerHitId, s, status);
  }
}

async function toAssignment(ctx: ProlificContext, providerHitId: string, s: SubmissionListItem, status: CrowdAssignment["status"]): Promise<CrowdAssignment> {
  const answer = (await ctx.store.get(S.answer, s.id)) as { answerXml: string } | null;
  const completedAt = s.completed_at ? new Date(s.completed_at) : undefined;
  return {
    assignmentId: s.id,
    workerId: s.participant_id,
    providerHitId,
    status,
    acceptedAt: s.started_at ? new Date(s.started_at) : undefined,
    submittedAt: completedAt,
    autoApprovalAt: completedAt ? new Date(completedAt.getTime() + AUTO_APPROVE_MS) : undefined,
    // A participant who came back without posting answers on Accord's page has none (graded as such).
    answerXml: answer?.answerXml ?? NO_ANSWERS,
  };
}

/**
 * Only a submission awaiting review can be decided; the same decision again is a no-op (Prolific's transitions are
 * idempotent). The study's view is forgotten once the decision is made, so the next listing shows it.
 */
async function decide(ctx: ProlificContext, submissionId: string, target: "APPROVED" | "REJECTED", send: () => Promise<unknown>): Promise<void> {
  const sub = await ctx.client.getSubmission(submissionId).catch((err: unknown) => {
    if (isCrowdError(err, "not_found")) throw new CrowdError(`Submission ${submissionId} does not exist on Prolific.`, "not_found");
    throw err;
  });
  if (sub.status === target) return;
  if (sub.status !== "AWAITING REVIEW") throw new CrowdError(`Submission ${submissionId} is ${sub.status} on Prolific and cannot become ${target}.`, "invalid_assignment_state");
  await send();
  forgetStudyView(ctx, sub.study_id);
}

export function approveSubmission(ctx: ProlificContext, submissionId: string): Promise<void> {
  return decide(ctx, submissionId, "APPROVED", () => ctx.client.approveSubmission(submissionId));
}

/** Rejected for one of Prolific's reasons (FAILED_CHECK unless the crowd policy named another) with a message of ≥ 100 characters. */
export function rejectSubmission(ctx: ProlificContext, submissionId: string, feedback: string, category?: string): Promise<void> {
  const reason = (REJECTION_CATEGORIES as readonly string[]).includes(category ?? "") ? (category as RejectionCategory) : "FAILED_CHECK";
  return decide(ctx, submissionId, "REJECTED", () => ctx.client.rejectSubmission(submissionId, reason, rejectionMessage(feedback)));
}
