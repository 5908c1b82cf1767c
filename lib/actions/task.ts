"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { collectHitAnswers, collectTestAnswers, listPositions, readHitContent, readQualificationTest } from "@/app/(app)/task/hit-content";
import { openRequirementsFor, qualificationStatus } from "@/app/(app)/task/task-data";
import { requireActionUser } from "@/lib/auth/current-user";
import { createLocalCrowdReader, ensureLocalWorker, getLocalCrowdProvider } from "@/lib/campaign/local-crowd-store";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { type ActionState, errorState, parseForm } from "./action-state";

// Server actions of the in-house crowd's task page (app/(app)/task). The annotator's worker id in the local
// provider is their Worker row's externalId (= their user id; see ensureLocalWorker).

const id = (what: string) => z.string().trim().min(1, `The ${what} is missing.`).max(200);

function fieldsOf(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of formData.entries()) if (typeof v === "string" && !k.startsWith("$ACTION")) out[k] = v;
  return out;
}

async function annotator() {
  const user = await requireActionUser("annotate");
  const db = getDb();
  const worker = await ensureLocalWorker(db, user.id);
  return { user, db, worker, provider: getLocalCrowdProvider(db) };
}

const acceptSchema = z.object({ hitId: id("HIT") });

/** Takes a slot of the HIT and opens it. */
export async function acceptTask(_prev: ActionState, formData: FormData): Promise<ActionState> {
  let target: string;
  try {
    const { worker, provider } = await annotator();
    const parsed = parseForm(acceptSchema, formData);
    if (!parsed.ok) return parsed.state;
    const { assignmentId } = await provider.acceptHit({ providerHitId: parsed.data.hitId, workerId: worker.workerId });
    target = `/task/work/${encodeURIComponent(assignmentId)}`;
  } catch (err) {
    return errorState(err);
  }
  redirect(target);
}

const assignmentSchema = z.object({ assignmentId: id("assignment") });

/** Submits the annotator's labels under the HIT's own field names (exactly one valid label per tweet). */
export async function submitTask(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const { db, worker, provider } = await annotator();
    const parsed = parseForm(assignmentSchema, formData);
    if (!parsed.ok) return parsed.state;
    const reader = createLocalCrowdReader(db);
    const assignment = await reader.getAssignment(parsed.data.assignmentId);
    if (!assignment || assignment.workerId !== worker.workerId) throw new UserError("This assignment is not yours.", "not_found");
    const hit = await reader.getHit(assignment.hitId);
    if (!hit) throw new UserError("This HIT no longer exists.", "not_found");
    const answers = collectHitAnswers(readHitContent(hit.questionXml), fieldsOf(formData));
    if (!answers.ok) {
      const n = answers.missing.length;
      throw new UserError(`${n === 1 ? "Tweet" : "Tweets"} ${listPositions(answers.missing)} still ${n === 1 ? "needs" : "need"} a label.`, "incomplete");
    }
    await provider.submitAssignment({ assignmentId: assignment.id, workerId: worker.workerId, fields: answers.fields });
  } catch (err) {
    return errorState(err);
  }
  redirect("/task?done=submitted");
}

/** Gives the HIT back (its slot becomes available to others). */
export async function returnTask(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const { worker, provider } = await annotator();
    const parsed = parseForm(assignmentSchema, formData);
    if (!parsed.ok) return parsed.state;
    await provider.returnAssignment({ assignmentId: parsed.data.assignmentId, workerId: worker.workerId });
  } catch (err) {
    return errorState(err);
  }
  redirect("/task?done=returned");
}

const testSchema = z.object({ qualificationTypeId: id("qualification test") });

/** Grades the qualification test (the provider's AnswerKey) and reports the score and whether it passes. */
export async function submitQualificationTest(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const { db, worker, provider } = await annotator();
    const parsed = parseForm(testSchema, formData);
    if (!parsed.ok) return parsed.state;
    const typeId = parsed.data.qualificationTypeId;
    const type = await createLocalCrowdReader(db).getQualificationType(typeId);
    if (!type) throw new UserError("This qualification test does not exist.", "not_found");
    const test = readQualificationTest(type.testXml);
    const posted = fieldsOf(formData);
    const answers = collectTestAnswers(test, posted);
    if (!answers.ok) {
      const n = answers.missing.length;
      return {
        ok: false,
        message: `Answer every question: ${n === 1 ? "question" : "questions"} ${listPositions(answers.missing)} ${n === 1 ? "has" : "have"} no answer yet.`,
        values: posted,
      };
    }
    const { score } = await provider.takeQualificationTest({ qualificationTypeId: typeId, workerId: worker.workerId, answers: answers.answers });
    const { requirements, hitCount } = await openRequirementsFor(db, typeId);
    const qualification = await createLocalCrowdReader(db).getQualification(typeId, worker.workerId);
    const status = qualificationStatus(type, requirements, qualification, hitCount, new Date());
    const total = test.questions.length;
    const correct = Math.round((score * total) / 100);
    return {
      ok: true,
      message: status.passed
        ? `You scored ${score}% (${correct} of ${total} correct) and passed. You can now work on the HITs.`
        : `You scored ${score}% (${correct} of ${total} correct); that is not enough to work on these HITs.`,
      data: { score, correct, total, passed: status.passed },
      values: posted,
    };
  } catch (err) {
    return errorState(err, formData);
  }
}
