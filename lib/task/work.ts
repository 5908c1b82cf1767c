import "server-only";
import { createLocalCrowdReader, ensureLocalWorker, getLocalCrowdProvider } from "@/lib/crowd/local/db-store";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { collectHitAnswers, collectTestAnswers, listPositions, readHitContent, readQualificationTest } from "./hit-content";
import { openRequirementsFor, qualificationStatus } from "./task-data";

// What an annotator does on the task page, through the local provider. Their worker id there is their Worker row's
// externalId (= their user id; see ensureLocalWorker).

async function annotator(db: Db, userId: string) {
  const worker = await ensureLocalWorker(db, userId);
  return { workerId: worker.workerId, provider: getLocalCrowdProvider(db) };
}

/** Takes a slot of the HIT; returns the new assignment's id. */
export async function acceptTaskHit(db: Db, { userId, hitId }: { userId: string; hitId: string }): Promise<string> {
  const { workerId, provider } = await annotator(db, userId);
  const { assignmentId } = await provider.acceptHit({ providerHitId: hitId, workerId });
  return assignmentId;
}

/** Submits the annotator's labels under the HIT's own field names (exactly one valid label per tweet). */
export async function submitTaskAnswers(db: Db, { userId, assignmentId, fields }: { userId: string; assignmentId: string; fields: Record<string, string> }) {
  const { workerId, provider } = await annotator(db, userId);
  const reader = createLocalCrowdReader(db);
  const assignment = await reader.getAssignment(assignmentId);
  if (!assignment || assignment.workerId !== workerId) throw new UserError("This assignment is not yours.", "not_found");
  const hit = await reader.getHit(assignment.hitId);
  if (!hit) throw new UserError("This HIT no longer exists.", "not_found");
  const answers = collectHitAnswers(readHitContent(hit.questionXml), fields);
  if (!answers.ok) {
    const n = answers.missing.length;
    throw new UserError(`${n === 1 ? "Tweet" : "Tweets"} ${listPositions(answers.missing)} still ${n === 1 ? "needs" : "need"} a label.`, "incomplete");
  }
  await provider.submitAssignment({ assignmentId: assignment.id, workerId, fields: answers.fields });
}

/** Gives the HIT back (its slot becomes available to others). */
export async function returnTaskHit(db: Db, { userId, assignmentId }: { userId: string; assignmentId: string }) {
  const { workerId, provider } = await annotator(db, userId);
  await provider.returnAssignment({ assignmentId, workerId });
}

/** Grades the qualification test (the provider's AnswerKey): the score and whether it lets the annotator work. */
export async function takeQualificationTest(db: Db, { userId, qualificationTypeId, fields }: { userId: string; qualificationTypeId: string; fields: Record<string, string> }) {
  const { workerId, provider } = await annotator(db, userId);
  const reader = createLocalCrowdReader(db);
  const type = await reader.getQualificationType(qualificationTypeId);
  if (!type) throw new UserError("This qualification test does not exist.", "not_found");
  const test = readQualificationTest(type.testXml);
  const answers = collectTestAnswers(test, fields);
  if (!answers.ok) {
    const n = answers.missing.length;
    throw new UserError(`Answer every question: ${n === 1 ? "question" : "questions"} ${listPositions(answers.missing)} ${n === 1 ? "has" : "have"} no answer yet.`, "incomplete");
  }
  const { score } = await provider.takeQualificationTest({ qualificationTypeId, workerId, answers: answers.answers });
  const { requirements, hitCount } = await openRequirementsFor(db, qualificationTypeId);
  const qualification = await reader.getQualification(qualificationTypeId, workerId);
  const status = qualificationStatus(type, requirements, qualification, hitCount, new Date());
  const total = test.questions.length;
  return { score, correct: Math.round((score * total) / 100), total, passed: status.passed };
}
