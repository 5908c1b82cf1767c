"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { acceptTaskSchema, assignmentTaskSchema, qualificationTestSchema } from "@/lib/task/task.validation";
import { acceptTaskHit, returnTaskHit, submitTaskAnswers, takeQualificationTest } from "@/lib/task/work";
import { formValues } from "./action-state";
import { formAction } from "./define-action";

// Server actions of the in-house crowd's task page (app/(app)/task): annotators (and admins) only.

/** Takes a slot of the HIT and opens it. */
export const acceptTask = formAction({ access: "annotate", input: acceptTaskSchema, echo: false }, async ({ user, input }) => {
  const assignmentId = await acceptTaskHit(getDb(), { userId: user.id, hitId: input.hitId });
  redirect(`/task/work/${encodeURIComponent(assignmentId)}`);
});

/** Submits the annotator's labels under the HIT's own field names. */
export const submitTask = formAction({ access: "annotate", input: assignmentTaskSchema, echo: false }, async ({ user, input, formData }) => {
  await submitTaskAnswers(getDb(), { userId: user.id, assignmentId: input.assignmentId, fields: formValues(formData) });
  redirect("/task?done=submitted");
});

/** Gives the HIT back (its slot becomes available to others). */
export const returnTask = formAction({ access: "annotate", input: assignmentTaskSchema, echo: false }, async ({ user, input }) => {
  await returnTaskHit(getDb(), { userId: user.id, assignmentId: input.assignmentId });
  redirect("/task?done=returned");
});

/** Grades the qualification test and reports the score and whether it passes. */
export const submitQualificationTest = formAction({ access: "annotate", input: qualificationTestSchema }, async ({ user, input, formData }) => {
  const result = await takeQualificationTest(getDb(), { userId: user.id, qualificationTypeId: input.qualificationTypeId, fields: formValues(formData) });
  const { score, correct, total, passed } = result;
  return {
    ok: true,
    message: passed
      ? `You scored ${score}% (${correct} of ${total} correct) and passed. You can now work on the HITs.`
      : `You scored ${score}% (${correct} of ${total} correct); that is not enough to work on these HITs.`,
    data: { ...result },
    values: formValues(formData),
  };
});
