import { CrowdError } from "../../errors";
import type { PublishHitInput, PublishHitResult } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { BATCH_PREFIX, findStudy, legacyCode, newCompletionCode, PLACEHOLDERS, providerHitIdOf, serialized, type ProlificContext } from "./context";
import { money } from "./fees";
import { allowFilters, blockFilter } from "./participant-groups";
import { ensurePlaces, queuedHit, queueHit } from "./queue";
import { publishTestCopy, type StudyIntent } from "./test-study";

// A batch published as one study: its intent recorded first, the study looked up by its internal name on a retry;
// each HIT of the batch is queued in it with its places (./queue.ts).

/** The study's estimated completion time: a third of the time allowed for the HIT (at least a minute). */
export function estimatedMinutes(assignmentDurationSeconds: number): number {
  return Math.max(1, Math.round(assignmentDurationSeconds / 60 / 3));
}

/** The study's external URL: Accord's page with Prolific's three placeholders (the page gives the participant a HIT). */
export function studyUrl(ctx: ProlificContext): string {
  const url = new URL(ctx.taskUrl);
  return `${url.toString()}${url.search ? "&" : "?"}${PLACEHOLDERS}`;
}

/** The batch study's code: the random one its intent recorded, else (published before codes were random) the legacy one. */
const codeOf = (intent: StudyIntent, batchKey: string) => intent.code ?? legacyCode("batch", batchKey);

/** The code Accord's page sends a participant back with, for the study of this batch (read from Accord's records). */
export async function completionCode(ctx: ProlificContext, batchKey: string): Promise<string> {
  const intent = (await ctx.store.get(S.study, batchKey)) as StudyIntent | null;
  if (!intent) throw new CrowdError(`Batch ${batchKey} has no study Accord published on Prolific.`, "not_found");
  return codeOf(intent, batchKey);
}

/** The batch a HIT belongs to (a caller without batches publishes each HIT as its own one-HIT batch). */
const batchOf = (input: PublishHitInput) => input.batch ?? { key: input.accordHitId, position: 0 };

export async function publishHit(ctx: ProlificContext, input: PublishHitInput): Promise<PublishHitResult> {
  const batch = batchOf(input);
  const expiresAt = new Date(ctx.now().getTime() + input.lifetimeSeconds * 1000);
  const { studyId, created } = await serialized(ctx, `batch:${batch.key}`, () => batchStudy(ctx, batch.key, input));
  const fresh = await queueHit(ctx, studyId, { hitId: input.accordHitId, batchKey: batch.key, position: batch.position, places: input.maxAssignments, expiresAt });
  const queued = await queuedHit(ctx, studyId, input.accordHitId);
  // A test copy is live already; a draft is published once its first HIT's places are in.
  await ensurePlaces(ctx, studyId, { publish: !ctx.testMode });
  return { providerHitId: providerHitIdOf(studyId, input.accordHitId), expiresAt: queued.expiresAt, duplicate: !fresh && !created };
}

/**
 * The batch's study (its test copy in test mode): recorded intent first, then created with the first HIT's places.
 * A fresh intent means no earlier attempt can have created it: only a retry lists the project's studies.
 */
async function batchStudy(ctx: ProlificContext, batchKey: string, input: PublishHitInput): Promise<{ studyId: string; created: boolean }> {
  const internalName = `${BATCH_PREFIX}${batchKey}`;
  // The code is drawn with the intent, before the study exists: a retry creates or finds the study with the same code.
  const fresh = await ctx.store.insert(S.study, batchKey, { internalName, code: newCompletionCode() });
  const intent = (await ctx.store.get(S.study, batchKey)) as StudyIntent;
  const code = codeOf(intent, batchKey);
  if (intent.studyId) return { studyId: intent.studyId, created: false };
  if (ctx.testMode) {
    const copy = await publishTestCopy(ctx, batchKey, intent, fresh, () => createBatchStudy(ctx, input, internalName, code));
    return { studyId: copy.studyId, created: !copy.duplicate };
  }
  const found = fresh ? null : await findStudy(ctx, internalName);
  const study = found ?? (await createBatchStudy(ctx, input, internalName, code));
  await ctx.store.put(S.study, batchKey, { ...intent, studyId: study.id });
  return { studyId: study.id, created: found === null };
}

/** The batch's study as a draft (one call, never repeated blindly: the caller looked it up first). */
async function createBatchStudy(ctx: ProlificContext, input: PublishHitInput, internalName: string, code: string) {
  const estimated = estimatedMinutes(input.assignmentDurationSeconds);
  return ctx.client.createStudy({
    name: input.title,
    internal_name: internalName,
    description: input.description,
    external_study_url: studyUrl(ctx),
    prolific_id_option: "url_parameters",
    completion_codes: [{ code, code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
    total_available_places: input.maxAssignments,
    estimated_completion_time: estimated,
    maximum_allowed_time: Math.max(estimated, Math.ceil(input.assignmentDurationSeconds / 60)),
    reward: input.rewardCents,
    filters: [...(await allowFilters(ctx, input)), ...(await blockFilter(ctx))],
    project: ctx.projectId,
    submissions_config: { max_submissions_per_participant: 1 },
  });
}

/** The smallest reward (minor units of the workspace's currency) Prolific's hourly floor allows for the study's estimated time. */
export async function minimumReward(ctx: ProlificContext, { assignmentDurationSeconds }: { assignmentDurationSeconds: number }) {
  const { currency_code: currency } = await ctx.client.getBalance(ctx.workspaceId);
  const floor = (await ctx.client.getRewardRecommendations(ctx.workspaceId, currency)).find((r) => r.currency === currency)?.min_reward_per_hour ?? 0;
  const minutes = estimatedMinutes(assignmentDurationSeconds);
  return { currency, floor, minutes, rewardCents: Math.ceil((floor * minutes) / 60) };
}

/** Prolific's minimum reward per hour for the workspace's currency, checked against the study's estimated time. */
export async function checkReward(ctx: ProlificContext, { rewardCents, assignmentDurationSeconds }: { rewardCents: number; assignmentDurationSeconds: number }): Promise<void> {
  const { currency, floor, minutes, rewardCents: needed } = await minimumReward(ctx, { assignmentDurationSeconds });
  const perHour = Math.floor((rewardCents * 60) / minutes);
  if (perHour >= floor) return;
  throw new CrowdError(
    `${money(rewardCents, currency)} for an estimated ${minutes} minutes is ${money(perHour, currency)} an hour, below Prolific's minimum of ${money(Math.round(floor), currency)} an hour: raise the reward to at least ${money(needed, currency)} or shorten the time allowed.`,
    "invalid_parameter",
  );
}
