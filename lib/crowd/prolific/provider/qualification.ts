import { gradeAnswerKey, parseAnswerKey } from "../../mturk/answer-key";
import { parseQuestionFormAnswers } from "../../mturk/answers";
import { CrowdError } from "../../errors";
import type { CreateQualificationTypeInput, CreateQualificationTypeResult } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { findStudy, newCompletionCode, PLACEHOLDERS, type ProlificContext } from "./context";
import { blockFilter } from "./participant-groups";
import { alreadyExists, createTestScreening } from "./test-screening";

// A qualification on Prolific: a participant group, and a screening study whose pass code adds the participant to it.

type QualificationRecord = { name: string; testXml: string; answerKeyXml: string; screeningStudyId: string } & ScreeningCodes;
export type ScreeningCodes = { passCode: string; failCode: string };
/** Who takes a screening: the participant and their Prolific session in the screening study. */
export type ScreeningAttempt = { qualificationTypeId: string; participantId: string; sessionId: string };

const newCodes = (): ScreeningCodes => ({ passCode: newCompletionCode(), failCode: newCompletionCode() });

export async function createQualificationType(ctx: ProlificContext, input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
  parseAnswerKey(input.answerKeyXml); // validates
  const internalName = `accord-qual:${input.name}`;
  const createGroup = async () => (await ctx.client.createParticipantGroup(ctx.workspaceId, `Accord qualified: ${input.name}`.slice(0, 120), input.description.slice(0, 500))).id;
  if (ctx.testMode) {
    // Test mode: the draft is never published; its test-study copy is the screening study (test-screening.ts).
    const { groupId, screeningStudyId, codes } = await createTestScreening(ctx, { name: input.name, internalName, codes: newCodes() }, { createGroup, createDraft: (groupId, codes) => createScreeningDraft(ctx, input, internalName, groupId, codes) });
    await recordQualification(ctx, input, groupId, screeningStudyId, codes);
    return { qualificationTypeId: groupId };
  }
  if (await findStudy(ctx, internalName)) throw alreadyExists(input.name);
  const groupId = await createGroup();
  const codes = newCodes();
  const study = await createScreeningDraft(ctx, input, internalName, groupId, codes);
  await recordQualification(ctx, input, groupId, study.id, codes);
  await ctx.client.transitionStudy(study.id, "PUBLISH");
  return { qualificationTypeId: groupId };
}

/** The screening study as a draft: a pass code that approves and adds the participant to the group, a fail code that approves. */
async function createScreeningDraft(ctx: ProlificContext, input: CreateQualificationTypeInput, internalName: string, groupId: string, codes: ScreeningCodes) {
  const screening = ctx.screening ?? { rewardMinor: 100, places: 50, estimatedMinutes: 5 };
  const url = new URL(ctx.screeningUrl);
  url.searchParams.set("qualification", groupId);
  return ctx.client.createStudy({
    name: `Qualification: ${input.name}`.slice(0, 255),
    internal_name: internalName,
    description: input.description,
    external_study_url: `${url.toString()}&${PLACEHOLDERS}`,
    prolific_id_option: "url_parameters",
    completion_codes: [
      { code: codes.passCode, code_type: "COMPLETED", actions: [{ action: "AUTOMATICALLY_APPROVE" }, { action: "ADD_TO_PARTICIPANT_GROUP", participant_group: groupId }] },
      { code: codes.failCode, code_type: "FAILED_ATTENTION_CHECK", actions: [{ action: "AUTOMATICALLY_APPROVE" }] },
    ],
    total_available_places: screening.places,
    estimated_completion_time: screening.estimatedMinutes,
    maximum_allowed_time: Math.max(screening.estimatedMinutes, Math.ceil(input.testDurationSeconds / 60)),
    reward: screening.rewardMinor,
    filters: await blockFilter(ctx),
    project: ctx.projectId,
  });
}

/** What the screening page and grading need: the test, its key, the screening study (a test copy in test mode) and the codes. */
async function recordQualification(ctx: ProlificContext, input: CreateQualificationTypeInput, groupId: string, screeningStudyId: string, codes: ScreeningCodes) {
  const record: QualificationRecord = { name: input.name, testXml: input.testXml, answerKeyXml: input.answerKeyXml, screeningStudyId, passCode: codes.passCode, failCode: codes.failCode };
  await ctx.store.put(S.qualification, groupId, record);
}

/** The qualification Accord recorded for this group (its test, key, screening study and codes). */
export async function qualificationOf(ctx: ProlificContext, groupId: string): Promise<QualificationRecord> {
  const q = await ctx.store.get(S.qualification, groupId);
  if (!q) throw new CrowdError(`Qualification ${groupId} is not one Accord created on Prolific.`, "not_found");
  return q as QualificationRecord;
}

// One attempt per participant and per session: the first post claims both keys (insert = compare-and-set), so two
// posts at once cannot both be graded, and another attempt is refused whatever the first one's result.
const participantKey = (a: ScreeningAttempt) => `${a.qualificationTypeId}|participant|${a.participantId}`;
const sessionKey = (a: ScreeningAttempt) => `${a.qualificationTypeId}|session|${a.sessionId}`;

/** Whether this participant, or this session, has taken the screening already. */
export async function screeningTaken(ctx: ProlificContext, attempt: ScreeningAttempt): Promise<boolean> {
  return (await ctx.store.get(S.screened, participantKey(attempt))) !== null || (await ctx.store.get(S.screened, sessionKey(attempt))) !== null;
}

/**
 * Grades a screening test taken on Accord's page once per participant and session: the code to send the participant
 * back with (pass joins the group). The attempt is claimed before grading and its result recorded with the claim; a
 * second attempt is CrowdError "already_exists" (its message says nothing of the first result).
 */
export async function gradeScreening(ctx: ProlificContext, input: ScreeningAttempt & { answerXml: string; passingScore: number }) {
  const q = await qualificationOf(ctx, input.qualificationTypeId);
  const { value } = gradeAnswerKey(parseAnswerKey(q.answerKeyXml), parseQuestionFormAnswers(input.answerXml));
  const passed = value >= input.passingScore;
  const claim = { participantId: input.participantId, sessionId: input.sessionId, at: ctx.now().toISOString() };
  // The session first: a session is one participant's, so a refused claim of the participant costs no one an attempt.
  if (!(await ctx.store.insert(S.screened, sessionKey(input), claim))) throw screeningAlreadyTaken();
  if (!(await ctx.store.insert(S.screened, participantKey(input), claim))) throw screeningAlreadyTaken();
  await ctx.store.put(S.screened, participantKey(input), { ...claim, passed, score: value });
  return { passed, score: value, completionCode: passed ? q.passCode : q.failCode, studyId: q.screeningStudyId };
}

export const screeningAlreadyTaken = () => new CrowdError("This screening test has been taken already: it can be taken once.", "already_exists");

/** Grant = join the group, revoke = leave it. */
export async function setQualified(ctx: ProlificContext, { qualificationTypeId, workerId }: { qualificationTypeId: string; workerId: string }, qualified: boolean): Promise<void> {
  await qualificationOf(ctx, qualificationTypeId);
  if (qualified) await ctx.client.addToParticipantGroup(qualificationTypeId, [workerId]);
  else await ctx.client.removeFromParticipantGroup(qualificationTypeId, [workerId]);
}
