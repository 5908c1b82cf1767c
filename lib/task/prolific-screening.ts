import "server-only";
import { z } from "zod";
import { buildQuestionFormAnswers } from "@/lib/crowd/mturk/answers";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { Db } from "@/lib/db/client";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { recordScreeningResult } from "@/lib/campaign/screening-results";
import { collectTestAnswers, listPositions, type QualificationTestContent, readQualificationTest } from "./hit-content";
import { checkProlificSession, prolificId } from "./prolific-work";

/**
 * What Accord's Prolific screening page does: the qualification's 10-gold test (its QuestionForm) for a participant
 * whose session in the screening study Prolific confirms; the answers graded with the AnswerKey against the event's
 * pass mark, recorded in Accord's tables (lib/campaign/screening-results.ts), and the participant sent back with the
 * pass code (which adds them to the allow-list group) or the fail code.
 */
export const prolificScreeningSchema = z.object({ qualification: prolificId, PROLIFIC_PID: prolificId, STUDY_ID: prolificId, SESSION_ID: prolificId });
export type ProlificScreeningParams = z.infer<typeof prolificScreeningSchema>;

export type ScreeningContent = QualificationTestContent & { tweetIds: string[] };

export async function openProlificScreening(db: Db, provider: ProlificProvider, raw: unknown): Promise<{ p: ProlificScreeningParams; content: ScreeningContent; passPercent: number; testId: string }> {
  const parsed = prolificScreeningSchema.safeParse(raw);
  if (!parsed.success) throw new UserError("This link is incomplete: open the study again from Prolific.", "invalid_link");
  const p = parsed.data;
  const test = await db.qualificationTest.findFirst({ where: { providerQualTypeId: p.qualification, provider: PROVIDER_KIND.prolific }, select: { id: true, passPercent: true, goldTweetIds: true } });
  const screening = test ? await provider.screeningTest(p.qualification).catch(() => null) : null;
  if (!test || !screening || screening.studyId !== p.STUDY_ID) throw new UserError("This study is not one of Accord's.", "not_found");
  await checkProlificSession(provider, p);
  // The gold tweets' external ids, in question order (simulated participants look their truth up by them).
  const ids = test.goldTweetIds as string[];
  const tweets = new Map((await db.tweet.findMany({ where: { id: { in: ids } }, select: { id: true, externalId: true } })).map((t) => [t.id, t.externalId]));
  return { p, content: { ...readQualificationTest(screening.testXml), tweetIds: ids.map((id) => tweets.get(id) ?? "") }, passPercent: test.passPercent, testId: test.id };
}

export async function submitProlificScreening(db: Db, provider: ProlificProvider, raw: unknown, posted: Record<string, unknown>): Promise<{ redirectUrl: string; passed: boolean }> {
  const { p, content, passPercent, testId } = await openProlificScreening(db, provider, raw);
  const answers = collectTestAnswers(content, posted);
  if (!answers.ok) {
    const n = answers.missing.length;
    throw new UserError(`${n === 1 ? "Question" : "Questions"} ${listPositions(answers.missing)} still ${n === 1 ? "needs" : "need"} an answer.`, "incomplete");
  }
  const answerXml = buildQuestionFormAnswers(Object.entries(answers.answers).map(([questionId, selection]) => ({ questionId, selectionIds: [selection] })));
  const graded = await provider.gradeScreening({ qualificationTypeId: p.qualification, answerXml, passingScore: passPercent });
  // Accord's own record (Workers page, qualification panel) before the participant is sent back with the code.
  await recordScreeningResult(db, { testId, participantId: p.PROLIFIC_PID, score: graded.score, passed: graded.passed, answers: answers.answers });
  return { redirectUrl: provider.completionUrl(graded.completionCode), passed: graded.passed };
}
