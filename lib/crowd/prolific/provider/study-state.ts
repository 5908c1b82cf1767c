import { CrowdError } from "../../errors";
import type { CrowdHit } from "../../provider";
import type { Study } from "../api-types";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { hitIdOf, type ProlificContext } from "./context";

// A published study as Accord's HIT: its status and counts, places added, expiry (Accord's, kept with the intent), disposal.

export const OPEN = new Set(["RESERVED", "ACTIVE"]);

export async function getHit(ctx: ProlificContext, providerHitId: string): Promise<CrowdHit> {
  const study = await ctx.client.getStudy(providerHitId);
  const subs = await ctx.client.listSubmissions(providerHitId);
  const meta = await studyMeta(ctx, study);
  const pending = subs.filter((s) => OPEN.has(s.status)).length;
  const completed = subs.filter((s) => s.status === "APPROVED" || s.status === "REJECTED").length;
  const holding = subs.filter((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW" || s.status === "APPROVED").length;
  const available = Math.max(0, study.total_available_places - holding);
  const expired = study.status === "COMPLETED" || meta.expiresAt.getTime() <= ctx.now().getTime();
  const status: CrowdHit["status"] = meta.disposed
    ? "Disposed"
    : study.status === "ACTIVE" && available > 0 && !expired
      ? "Assignable"
      : pending > 0 || study.status === "UNPUBLISHED" || study.status === "PUBLISHING" || study.status === "SCHEDULED"
        ? "Unassignable"
        : "Reviewable";
  return {
    providerHitId: study.id,
    title: study.name,
    status,
    maxAssignments: study.total_available_places,
    rewardCents: Math.round(study.reward),
    createdAt: meta.createdAt,
    expiresAt: meta.expiresAt,
    pendingCount: pending,
    availableCount: status === "Assignable" ? available : 0,
    completedCount: completed,
    requesterAnnotation: study.internal_name ?? undefined,
  };
}

async function studyMeta(ctx: ProlificContext, study: Study) {
  const hitId = hitIdOf(study);
  const intent = hitId ? ((await ctx.store.get(S.study, hitId)) as { expiresAt: string } | null) : null;
  const created = typeof study.date_created === "string" ? new Date(study.date_created) : new Date(0);
  return {
    createdAt: created,
    expiresAt: intent ? new Date(intent.expiresAt) : new Date(8.64e15),
    disposed: (await ctx.store.get(S.disposed, study.id)) !== null,
  };
}

/** Places only grow: the target (current + count) is recorded under the token first, so a retry adds nothing twice. */
export async function addPlaces(ctx: ProlificContext, { providerHitId, count, uniqueToken }: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }> {
  if (!Number.isSafeInteger(count) || count < 1) throw new CrowdError("Add at least one place.", "invalid_parameter");
  let study = await ctx.client.getStudy(providerHitId);
  const key = `${providerHitId}|${uniqueToken}`;
  const fresh = await ctx.store.insert(S.places, key, { places: study.total_available_places + count });
  const { places } = (await ctx.store.get(S.places, key)) as { places: number };
  if (study.total_available_places < places) study = await ctx.client.updateStudy(providerHitId, { total_available_places: places });
  // A study that was waiting for review, paused or completed takes participants again once started.
  if (study.status === "AWAITING REVIEW" || study.status === "PAUSED") await ctx.client.transitionStudy(providerHitId, "START");
  return { duplicate: !fresh };
}

export async function expireStudy(ctx: ProlificContext, providerHitId: string): Promise<void> {
  const study = await ctx.client.getStudy(providerHitId);
  await setExpiry(ctx, study, ctx.now());
  if (study.status === "ACTIVE" || study.status === "PAUSED") await ctx.client.transitionStudy(providerHitId, "PAUSE").catch(() => undefined);
}

export async function extendStudy(ctx: ProlificContext, { providerHitId, expiresAt }: { providerHitId: string; expiresAt: Date }): Promise<void> {
  const study = await ctx.client.getStudy(providerHitId);
  await setExpiry(ctx, study, expiresAt);
  if (expiresAt.getTime() > ctx.now().getTime() && study.status === "PAUSED") await ctx.client.transitionStudy(providerHitId, "START");
}

async function setExpiry(ctx: ProlificContext, study: Study, expiresAt: Date): Promise<void> {
  const hitId = hitIdOf(study);
  if (!hitId) throw new CrowdError(`Study ${study.id} was not published by Accord.`, "invalid_parameter");
  const intent = (await ctx.store.get(S.study, hitId)) ?? { internalName: study.internal_name };
  await ctx.store.put(S.study, hitId, { ...intent, expiresAt: expiresAt.toISOString() });
}

/** Prolific keeps studies; Accord stops it and marks it disposed once every submission is decided. */
export async function disposeStudy(ctx: ProlificContext, providerHitId: string): Promise<void> {
  const subs = await ctx.client.listSubmissions(providerHitId);
  if (subs.some((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW")) {
    throw new CrowdError(`Study ${providerHitId} still has submissions in progress or awaiting review.`, "invalid_hit_state");
  }
  const study = await ctx.client.getStudy(providerHitId);
  if (study.status !== "COMPLETED" && study.status !== "UNPUBLISHED") await ctx.client.transitionStudy(providerHitId, "STOP");
  await ctx.store.put(S.disposed, providerHitId, { at: ctx.now().toISOString() });
}
