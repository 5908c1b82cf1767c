import type { Study } from "../api-types";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import type { ProlificContext } from "./context";

/**
 * The publish intent of a batch: its completion code (random, absent on intents recorded before codes were), its
 * study once created, or in test mode the test copy Accord uses as the batch's study.
 */
export type StudyIntent = { internalName: string; code?: string; studyId?: string; testStudyId?: string };

/**
 * Test mode: the batch's draft is not published; `POST /studies/{id}/test-study` publishes a copy to the workspace's
 * test participant and the copy is the batch's study. A retry uses the recorded copy, else looks the project's studies
 * up by internal name (the copy carries the draft's, [?]) before creating a draft or asking for another copy.
 */
export async function publishTestCopy(ctx: ProlificContext, batchKey: string, intent: StudyIntent, fresh: boolean, createDraft: () => Promise<Study>): Promise<{ studyId: string; duplicate: boolean }> {
  if (intent.testStudyId) return { studyId: intent.testStudyId, duplicate: true };
  const named = fresh ? [] : (await ctx.client.listProjectStudies(ctx.projectId)).filter((s) => s.internal_name === intent.internalName);
  let studyId = named.find((s) => s.status !== "UNPUBLISHED")?.id;
  if (!studyId) {
    const draft = named.find((s) => s.status === "UNPUBLISHED") ?? (await createDraft());
    studyId = (await ctx.client.createTestStudy(draft.id)).study_id;
  }
  await ctx.store.put(S.study, batchKey, { ...intent, testStudyId: studyId });
  return { studyId, duplicate: named.length > 0 };
}
