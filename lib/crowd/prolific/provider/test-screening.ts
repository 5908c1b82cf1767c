import type { Study } from "../api-types";
import { CrowdError } from "../../errors";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { legacyCode, type ProlificContext } from "./context";
import type { ScreeningCodes } from "./qualification";

// Test mode for a qualification: the screening study goes out as a test study (a copy only the test participant can take).

/**
 * A test-mode screening's intent, recorded before anything is created on Prolific and completed as each id is known;
 * its codes are drawn with it (intents recorded before codes were random have none: the legacy ones are theirs).
 */
type ScreeningIntent = { internalName: string; passCode?: string; failCode?: string; groupId?: string; testStudyId?: string };

/** The refusal of a qualification whose name is taken on Prolific (or was already created by Accord). */
export function alreadyExists(name: string): CrowdError {
  return new CrowdError(`A qualification named "${name}" already exists on Prolific.`, "already_exists");
}

/**
 * The group and the screening study of a qualification in test mode: the draft is never published, and
 * `POST /studies/{id}/test-study` publishes the copy that is returned as the screening study. The intent (keyed by
 * the qualification's name) comes first and records the group and the copy as they are made; a retry lists the
 * project's studies by internal name (the copy carries the draft's, [?]) and takes the copy, else copies the draft it
 * finds, so a crash anywhere creates no second draft or copy. A study of that name met before the group is recorded,
 * or an intent whose qualification was recorded, is a name already taken.
 */
export async function createTestScreening(
  ctx: ProlificContext,
  { name, internalName, codes: fresh }: { name: string; internalName: string; codes: ScreeningCodes },
  make: { createGroup: () => Promise<string>; createDraft: (groupId: string, codes: ScreeningCodes) => Promise<Study> },
): Promise<{ groupId: string; screeningStudyId: string; codes: ScreeningCodes }> {
  await ctx.store.insert(S.screening, name, { internalName, ...fresh });
  let intent = (await ctx.store.get(S.screening, name)) as ScreeningIntent;
  const update = async (patch: Partial<ScreeningIntent>) => {
    intent = { ...intent, ...patch };
    await ctx.store.put(S.screening, name, intent);
  };
  if (intent.groupId && (await ctx.store.get(S.qualification, intent.groupId))) throw alreadyExists(name);
  const named = intent.testStudyId ? [] : (await ctx.client.listProjectStudies(ctx.projectId)).filter((s) => s.internal_name === internalName);
  // Accord creates the draft only once the group is recorded: a study of that name without one is someone else's.
  if (!intent.groupId && named.length) throw alreadyExists(name);
  if (!intent.groupId) await update({ groupId: await make.createGroup() });
  const groupId = intent.groupId!;
  const codes = { passCode: intent.passCode ?? legacyCode("pass", groupId), failCode: intent.failCode ?? legacyCode("fail", groupId) };
  if (!intent.testStudyId) {
    const copy = named.find((s) => s.status !== "UNPUBLISHED");
    const draft = copy ? null : (named.find((s) => s.status === "UNPUBLISHED") ?? (await make.createDraft(groupId, codes)));
    await update({ testStudyId: copy?.id ?? (await ctx.client.createTestStudy(draft!.id)).study_id });
  }
  return { groupId, screeningStudyId: intent.testStudyId!, codes };
}
