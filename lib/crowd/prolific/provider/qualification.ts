import { gradeAnswerKey, parseAnswerKey } from "../../mturk/answer-key";
import { parseQuestionFormAnswers } from "../../mturk/answers";
import { CrowdError } from "../../errors";
import type { CreateQualificationTypeInput, CreateQualificationTypeResult } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { codeFor, findStudy, PLACEHOLDERS, type ProlificContext } from "./context";
import { blockFilter } from "./participant-groups";
import { alreadyExists, createTestScreening } from "./test-screening";

// A qualification on Prolific: a participant group, and a screening study whose pass code adds the participant to it.

type QualificationRecord = { name: string; testXml: string; answerKeyXml: string; screeningStudyId: string; passCode: string; failCode: string };

export async function createQualificationType(ctx: ProlificContext, input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
  parseAnswerKey(input.answerKeyXml); // validates
  const internalName = `accord-qual:${input.name}`;
  const createGroup = async () => (await ctx.client.createParticipantGroup(ctx.workspaceId, `Accord qualified: ${input.name}`.slice(0, 120), input.description.slice(0, 500))).id;
  if (ctx.testMode) {
    // Test mode: the draft is never published; its test-study copy is the screening study (test-screening.ts).
    const { groupId, screeningStudyId } = await createTestScreening(ctx, { name: input.name, internalName }, { createGroup, createDraft: (groupId) => createScreeningDraft(ctx, input, internalName, groupId) });
    await recordQualification(ctx, input, groupId, screeningStudyId);
    return { qualificationTypeId: groupId };
  }
  if (await findStudy(ctx, internalName)) throw alreadyExists(input.name);
  const groupId = await createGroup();
  const study = await createScreeningDraft(ctx, input, internalName, groupId);
  await recordQualification(ctx, input, groupId, study.id);
  await ctx.client.transitionStudy(study.id, "PUBLISH");
  return { qualificationTypeId: groupId };
}

/** The screening study as a draft: a pass code that approves and adds the participant to the group, a fail code that approves. */
async function createScreeningDraft(ctx: ProlificContext, input: CreateQualificationTypeInput, internalName: string, groupId: string) {
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
      { code: codeFor("pass", groupId), code_type: "COMPLETED", actions: [{ action: "AUTOMATICALLY_APPROVE" }, { action: "ADD_TO_PARTICIPANT_GROUP", participant_group: groupId }] },
      { code: codeFor("fail", groupId), code_type: "FAILED_ATTENTION_CHECK", actions: [{ action: "AUTOMATICALLY_APPROVE" }] },
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
async function recordQualification(ctx: ProlificContext, input: CreateQualificationTypeInput, groupId: string, screeningStudyId: string) {
  const record: QualificationRecord = { name: input.name, testXml: input.testXml, answerKeyXml: input.answerKeyXml, screeningStudyId, passCode: codeFor("pass", groupId), failCode: codeFor("fail", groupId) };
  await ctx.store.put(S.qualification, groupId, record);
}

/** The qualification Accord recorded for this group (its test, key, screening study and codes). */
export async function qualificationOf(ctx: ProlificContext, groupId: string): Promise<QualificationRecord> {
  const q = await ctx.store.get(S.qualification, groupId);
  if (!q) throw new CrowdError(`Qualification ${groupId} is not one Accord created on Prolific.`, "not_found");
  return q as QualificationRecord;
}

/** Grades a screening test taken on Accord's page: the code to send the participant back with (pass joins the group). */
export async function gradeScreening(ctx: ProlificContext, { qualificationTypeId, answerXml, passingScore }: { qualificationTypeId: string; answerXml: string; passingScore: number }) {
  const q = await qualificationOf(ctx, qualificationTypeId);
  const { value } = gradeAnswerKey(parseAnswerKey(q.answerKeyXml), parseQuestionFormAnswers(answerXml));
  const passed = value >= passingScore;
  return { passed, score: value, completionCode: passed ? q.passCode : q.failCode, studyId: q.screeningStudyId };
}

/** Grant = join the group, revoke = leave it. */
export async function setQualified(ctx: ProlificContext, { qualificationTypeId, workerId }: { qualificationTypeId: string; workerId: string }, qualified: boolean): Promise<void> {
  await qualificationOf(ctx, qualificationTypeId);
  if (qualified) await ctx.client.addToParticipantGroup(qualificationTypeId, [workerId]);
  else await ctx.client.removeFromParticipantGroup(qualificationTypeId, [workerId]);
}
