import "server-only";
import type { Db, Prisma } from "@/lib/db/client";

/**
 * Accord's record of a screening (qualification test) taken on Accord's page, as Prolific's are: the participant's
 * Worker row (of the crowd `crowd`, created on first sight), one QualificationResult per test and participant (the screening is
 * graded once per participant: lib/task/prolific-screening.ts refuses another attempt), and Worker.qualified,
 * true while any of the participant's results passed. The Workers page and the qualification panel read these.
 */
export type ScreeningResultInput = {
  /** The crowd kind the participant works for (the test's crowd). */
  crowd: string;
  testId: string;
  participantId: string;
  /** Percent, as the AnswerKey's PercentageMapping grades it. */
  score: number;
  passed: boolean;
  answers?: Record<string, string>;
};

export async function recordScreeningResult(db: Db, input: ScreeningResultInput): Promise<{ workerId: string; qualified: boolean }> {
  const where = { provider_externalId: { provider: input.crowd, externalId: input.participantId } };
  const worker = await db.worker.upsert({ where, create: { provider: input.crowd, externalId: input.participantId }, update: { lastSeenAt: new Date() }, select: { id: true } });
  const result = { score: input.score, passed: input.passed, answers: input.answers as Prisma.InputJsonObject | undefined, createdAt: new Date() };
  await db.qualificationResult.upsert({ where: { testId_workerId: { testId: input.testId, workerId: worker.id } }, create: { testId: input.testId, workerId: worker.id, ...result }, update: result });
  const qualified = (await db.qualificationResult.count({ where: { workerId: worker.id, passed: true } })) > 0;
  await db.worker.update({ where: { id: worker.id }, data: { qualified } });
  return { workerId: worker.id, qualified };
}

/** How many took an event's latest qualification test and how many passed (the qualification panel's counts). */
export async function qualificationCounts(db: Db, testId: string): Promise<{ taken: number; passed: number }> {
  const [taken, passed] = await Promise.all([db.qualificationResult.count({ where: { testId } }), db.qualificationResult.count({ where: { testId, passed: true } })]);
  return { taken, passed };
}
