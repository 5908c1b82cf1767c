import "server-only";
import { z } from "zod";
import { type CrowdErrorCode, isCrowdError } from "@/lib/crowd/errors";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { JOBS, type JobPayload } from "@/lib/jobs/job-types";
import { enqueueJob } from "@/lib/jobs/queue";
import type { JobContext } from "@/lib/jobs/runner";
import { recordScreeningResult } from "@/lib/campaign/screening-results";
import { collectTestAnswers, listPositions, type QualificationTestContent, readQualificationTest } from "./hit-content";
import { checkSessionOpen, ownProlificSession, prolificId } from "./prolific-work";

/**
 * What Accord's Prolific screening page does: the qualification's 10-gold test (its QuestionForm) for a participant
 * whose session in the screening study Prolific confirms; the answers graded with the AnswerKey against the event's
 * pass mark, recorded in Accord's tables (lib/campaign/screening-results.ts), and the participant sent back with the
 * pass code (which adds them to the allow-list group) or the fail code. A participant takes it once, in one session:
 * the page refuses another attempt (GET or POST) with the same words whatever the first result was, so the pass and
 * fail codes cannot be searched for by trying answer sets. The page shows the gold tweets' text only (no tweet id).
 */
export const prolificScreeningSchema = z.object({ qualification: prolificId, PROLIFIC_PID: prolificId, STUDY_ID: prolificId, SESSION_ID: prolificId });
export type ProlificScreeningParams = z.infer<typeof prolificScreeningSchema>;

export type ScreeningContent = QualificationTestContent;

/** The refusal of a second attempt: the same whatever the first result (it must not tell pass from fail). */
export const SCREENING_TAKEN = "You have already taken this screening test: it can be taken once only.";
const alreadyTaken = () => new UserError(SCREENING_TAKEN, "already_taken");

export async function openProlificScreening(db: Db, provider: ProlificProvider, raw: unknown): Promise<{ p: ProlificScreeningParams; content: ScreeningContent; passPercent: number; testId: string }> {
  const parsed = prolificScreeningSchema.safeParse(raw);
  if (!parsed.success) throw new UserError("This link is incomplete: open the study again from Prolific.", "invalid_link");
  const p = parsed.data;
  const test = await db.qualificationTest.findFirst({ where: { providerQualTypeId: p.qualification, provider: provider.kind }, select: { id: true, passPercent: true } });
  const screening = test ? await provider.screeningTest(p.qualification).catch(() => null) : null;
  if (!test || !screening || screening.studyId !== p.STUDY_ID) throw new UserError("This study is not one of Accord's.", "not_found");
  // Whose session it is first; then taken or not, before its status (which could differ with the first result).
  const session = await ownProlificSession(provider, p);
  if (await provider.screeningTaken(attemptOf(p))) throw alreadyTaken();
  checkSessionOpen(session);
  return { p, content: readQualificationTest(screening.testXml), passPercent: test.passPercent, testId: test.id };
}

const attemptOf = (p: ProlificScreeningParams) => ({ qualificationTypeId: p.qualification, participantId: p.PROLIFIC_PID, sessionId: p.SESSION_ID });

/** What a participant who did not reach the mark is told (they are asked to return the study, never rejected). */
export const SCREENING_RETURN_MESSAGE =
  "Thank you for taking the screening test. Your answers did not reach this study's mark, so we cannot invite you to its tasks. Please return the study on Prolific: returning costs you nothing and does not count against you.";

/**
 * Grades the screening: who passes is sent back with the pass code (and joins the group); who fails is asked, on the
 * page and through Prolific's request-return (best effort: retried by a job when Prolific errs), to return the study (comprehension is not a reason Prolific accepts
 * for a rejection, and a failed screening must not be approved as done).
 */
export async function submitProlificScreening(db: Db, provider: ProlificProvider, raw: unknown, posted: Record<string, unknown>): Promise<{ redirectUrl: string | null; passed: boolean; message?: string }> {
  const { p, content, passPercent, testId } = await openProlificScreening(db, provider, raw);
  const answers = collectTestAnswers(content, posted);
  if (!answers.ok) {
    const n = answers.missing.length;
    throw new UserError(`${n === 1 ? "Question" : "Questions"} ${listPositions(answers.missing)} still ${n === 1 ? "needs" : "need"} an answer.`, "incomplete");
  }
  const chosen = Object.entries(answers.answers).map(([questionId, choice]) => ({ questionId, choice }));
  const graded = await provider.gradeScreening({ ...attemptOf(p), answers: chosen, passingScore: passPercent }).catch((err: unknown) => {
    if (isCrowdError(err, "already_exists")) throw alreadyTaken(); // another post of this participant got there first
    throw err;
  });
  // Accord's own record (Workers page, qualification panel) before the participant is sent back with the code.
  await recordScreeningResult(db, { crowd: provider.kind, testId, participantId: p.PROLIFIC_PID, score: graded.score, passed: graded.passed, answers: answers.answers });
  if (!graded.passed) {
    await requestScreeningReturn(db, provider, p.SESSION_ID);
    return { redirectUrl: null, passed: false, message: SCREENING_RETURN_MESSAGE };
  }
  return { redirectUrl: provider.completionUrl(graded.completionCode), passed: graded.passed };
}

const RETURN_REASON = "Did not reach the screening test's mark";
/** Tries of the return request by its job (the runner waits 2, 4, 8, … s between them: about 8.5 minutes in all). */
const RETURN_ATTEMPTS = 9;

/**
 * Asks Prolific to have a failed participant return the screening, best effort: the attempt is already recorded
 * (a retry of the page meets SCREENING_TAKEN), so a Prolific error must not cost the participant the return
 * message nor the request. It is then recorded as a job that asks again with backoff (runProlificReturnJob).
 */
export async function requestScreeningReturn(db: Db, provider: Pick<ProlificProvider, "requestReturn">, submissionId: string): Promise<"requested" | "queued"> {
  try {
    await provider.requestReturn({ submissionId, reason: RETURN_REASON });
    return "requested";
  } catch (err) {
    console.error(`[accord] Prolific return request for submission ${submissionId} failed; it is retried by a job:`, err);
    await enqueueJob(db, JOBS.prolificReturn, { payload: { submissionId, reason: RETURN_REASON }, maxAttempts: RETURN_ATTEMPTS });
    return "queued";
  }
}

/**
 * The job that asks again. Prolific being unreachable or busy is retried (thrown as a plain error: the runner retries
 * those, not UserErrors); a refusal (the submission was returned or ended meanwhile) ends the job failed with it.
 */
export async function runProlificReturnJob(
  ctx: JobContext,
  payload: JobPayload<typeof JOBS.prolificReturn>,
  { provider }: { provider: (db: Db) => Promise<Pick<ProlificProvider, "requestReturn">> },
): Promise<{ submissionId: string }> {
  const prolific = await provider(ctx.db);
  try {
    await prolific.requestReturn({ submissionId: payload.submissionId, reason: payload.reason });
  } catch (err) {
    if (isCrowdError(err) && RETRYABLE.has(err.code)) throw new Error(`Prolific: ${err.message}`);
    throw err;
  }
  return { submissionId: payload.submissionId };
}

const RETRYABLE = new Set<CrowdErrorCode>(["throttled", "service_unavailable", "network", "unknown"]);
