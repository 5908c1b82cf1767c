import { CrowdError } from "../../errors";
import type { PublishHitInput, PublishHitResult } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { codeFor, findStudy, PLACEHOLDERS, type ProlificContext } from "./context";
import { money } from "./fees";
import { allowFilters, blockFilter } from "./participant-groups";
import { publishTestCopy, type StudyIntent } from "./test-study";

// An Accord HIT published as one study: the intent recorded first, the study looked up by its internal name on a retry.

/** The study's estimated completion time: a third of the time allowed for the HIT (at least a minute). */
export function estimatedMinutes(assignmentDurationSeconds: number): number {
  return Math.max(1, Math.round(assignmentDurationSeconds / 60 / 3));
}

/** The study's external URL: Accord's page for this HIT with Prolific's three placeholders. */
export function studyUrl(ctx: ProlificContext, accordHitId: string): string {
  const url = new URL(ctx.taskUrl);
  url.searchParams.set("hit", accordHitId);
  return `${url.toString()}&${PLACEHOLDERS}`;
}

/** The code Accord's page sends a participant back with, for the study of this HIT. */
export function completionCode(accordHitId: string): string {
  return codeFor("hit", accordHitId);
}

export async function publishHit(ctx: ProlificContext, input: PublishHitInput): Promise<PublishHitResult> {
  const internalName = `accord:${input.accordHitId}`;
  const expiresAt = new Date(ctx.now().getTime() + input.lifetimeSeconds * 1000);
  // The intent first: a restart finds it and looks the study up by its internal name instead of creating another.
  const fresh = await ctx.store.insert(S.study, input.accordHitId, { internalName, expiresAt: expiresAt.toISOString() });
  const intent = (await ctx.store.get(S.study, input.accordHitId)) as StudyIntent;
  if (ctx.testMode) {
    const copy = await publishTestCopy(ctx, input.accordHitId, intent, fresh, () => createHitStudy(ctx, input, intent.internalName));
    return { providerHitId: copy.studyId, expiresAt: new Date(intent.expiresAt), duplicate: copy.duplicate };
  }
  // A fresh intent means no earlier attempt can have created the study: only a retry lists the project's studies.
  let study = fresh ? null : await findStudy(ctx, intent.internalName);
  const duplicate = study !== null;
  study ??= await createHitStudy(ctx, input, intent.internalName);
  if (study.status === "UNPUBLISHED") study = await ctx.client.transitionStudy(study.id, "PUBLISH");
  return { providerHitId: study.id, expiresAt: new Date(intent.expiresAt), duplicate };
}

/** The HIT's study as a draft (one call, never repeated blindly: the caller looked it up first). */
async function createHitStudy(ctx: ProlificContext, input: PublishHitInput, internalName: string) {
  const estimated = estimatedMinutes(input.assignmentDurationSeconds);
  return ctx.client.createStudy({
    name: input.title,
    internal_name: internalName,
    description: input.description,
    external_study_url: studyUrl(ctx, input.accordHitId),
    prolific_id_option: "url_parameters",
    completion_codes: [{ code: completionCode(input.accordHitId), code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
    total_available_places: input.maxAssignments,
    estimated_completion_time: estimated,
    maximum_allowed_time: Math.max(estimated, Math.ceil(input.assignmentDurationSeconds / 60)),
    reward: input.rewardCents,
    filters: [...(await allowFilters(ctx, input)), ...(await blockFilter(ctx))],
    project: ctx.projectId,
    submissions_config: { max_submissions_per_participant: 1 },
  });
}

/** Prolific's minimum reward per hour for the workspace's currency, checked against the study's estimated time. */
export async function checkReward(ctx: ProlificContext, { rewardCents, assignmentDurationSeconds }: { rewardCents: number; assignmentDurationSeconds: number }): Promise<void> {
  const { currency_code: currency } = await ctx.client.getBalance(ctx.workspaceId);
  const floor = (await ctx.client.getRewardRecommendations(ctx.workspaceId, currency)).find((r) => r.currency === currency)?.min_reward_per_hour ?? 0;
  const minutes = estimatedMinutes(assignmentDurationSeconds);
  const perHour = Math.floor((rewardCents * 60) / minutes);
  if (perHour >= floor) return;
  const needed = Math.ceil((floor * minutes) / 60);
  throw new CrowdError(
    `${money(rewardCents, currency)} for an estimated ${minutes} minutes is ${money(perHour, currency)} an hour, below Prolific's minimum of ${money(Math.round(floor), currency)} an hour: raise the reward to at least ${money(needed, currency)} or shorten the time allowed.`,
    "invalid_parameter",
  );
}
