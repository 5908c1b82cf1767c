import { gradeAnswerKey, parseAnswerKey } from "../../mturk/answer-key";
import { parseQuestionFormAnswers } from "../../mturk/answers";
import { CrowdError } from "../../errors";
import type { CreateQualificationTypeInput, CreateQualificationTypeResult } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { codeFor, findStudy, PLACEHOLDERS, type ProlificContext } from "./context";
import { blockFilter } from "./participant-groups";

// A qualification on Prolific: a participant group, and a screening study whose pass code adds the participant to it.

type QualificationRecord = { name: string; testXml: string; answerKeyXml: string; screeningStudyId: string; passCode: string; failCode: string };

export async function createQualificationType(ctx: ProlificContext, input: CreateQualificationTypeInput): Promise<CreateQualificationTypeResult> {
  parseAnswerKey(input.answerKeyXml); // validates
  const internalName = `accord-qual:${input.name}`;
  const screening = ctx.screening ?? { rewardMinor: 100, places: 50, estimatedMinutes: 5 };
  const existing = await findStudy(ctx, internalName);
  if (existing) throw new CrowdError(`A qualification named "${input.name}" already exists on Prolific.`, "already_exists");
  const group = await ctx.client.createParticipantGroup(ctx.workspaceId, `Accord qualified: ${input.name}`.slice(0, 120), input.description.slice(0, 500));
  const passCode = codeFor("pass", group.id);
  const failCode = codeFor("fail", group.id);
  const url = new URL(ctx.screeningUrl);
  url.searchParams.set("qualification", group.id);
  const study = await ctx.client.createStudy({
    name: `Qualification: ${input.name}`.slice(0, 255),
    internal_name: internalName,
    description: input.description,
    external_study_url: `${url.toString()}&${PLACEHOLDERS}`,
    prolific_id_option: "url_parameters",
    completion_codes: [
      { code: passCode, code_type: "COMPLETED", actions: [{ action: "AUTOMATICALLY_APPROVE" }, { action: "ADD_TO_PARTICIPANT_GROUP", participant_group: group.id }] },
      { code: failCode, code_type: "FAILED_ATTENTION_CHECK", actions: [{ action: "AUTOMATICALLY_APPROVE" }] },
    ],
    total_available_places: screening.places,
    estimated_completion_time: screening.estimatedMinutes,
    maximum_allowed_time: Math.max(screening.estimatedMinutes, Math.ceil(input.testDurationSeconds / 60)),
    reward: screening.rewardMinor,
    filters: await blockFilter(ctx),
    project: ctx.projectId,
  });
  const record: QualificationRecord = { name: input.name, testXml: input.testXml, answerKeyXml: input.answerKeyXml, screeningStudyId: study.id, passCode, failCode };
  await ctx.store.put(S.qualification, group.id, record);
  await ctx.client.transitionStudy(study.id, "PUBLISH");
  return { qualificationTypeId: group.id };
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
