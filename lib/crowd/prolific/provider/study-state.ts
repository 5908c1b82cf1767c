import { CrowdError } from "../../errors";
import type { CrowdHit } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import { hitRef, type ProlificContext } from "./context";
import { ensurePlaces, queuedHit, queuedHits, submissionsOfHit } from "./queue";
import { forgetStudyView, studyView } from "./study-view";

// A HIT as a share of its batch's study: its status and counts from the sessions it was given, places added,
// expiry (Accord's, kept in the queue), disposal. The study itself pauses or stops when none of its HITs is open.

export const OPEN = new Set(["RESERVED", "ACTIVE"]);

export async function getHit(ctx: ProlificContext, providerHitId: string): Promise<CrowdHit> {
  const { studyId, hitId } = hitRef(providerHitId);
  const [{ study, submissions: all }, hit] = await Promise.all([studyView(ctx, studyId), queuedHit(ctx, studyId, hitId)]);
  const { submissions: subs, held, unlisted } = await submissionsOfHit(ctx, studyId, hitId, all);
  // A session given the HIT after the study's last read is at work: the HIT is not "all in" while it is.
  const pending = subs.filter((s) => OPEN.has(s.status)).length + unlisted;
  const completed = subs.filter((s) => s.status === "APPROVED" || s.status === "REJECTED").length;
  const available = Math.max(0, hit.places - held);
  const expired = study.status === "COMPLETED" || hit.expiresAt.getTime() <= ctx.now().getTime();
  const status: CrowdHit["status"] = hit.disposed
    ? "Disposed"
    : study.status === "ACTIVE" && available > 0 && !expired
      ? "Assignable"
      : pending > 0 || study.status === "UNPUBLISHED" || study.status === "PUBLISHING" || study.status === "SCHEDULED"
        ? "Unassignable"
        : "Reviewable";
  return {
    providerHitId,
    title: study.name,
    status,
    maxAssignments: hit.places,
    rewardCents: Math.round(study.reward),
    createdAt: typeof study.date_created === "string" ? new Date(study.date_created) : new Date(0),
    expiresAt: hit.expiresAt,
    pendingCount: pending,
    availableCount: status === "Assignable" ? available : 0,
    completedCount: completed,
    requesterAnnotation: study.internal_name ?? undefined,
  };
}

/** Places only grow: the HIT's added places are recorded under the token first, so a retry adds nothing twice. */
export async function addPlaces(ctx: ProlificContext, { providerHitId, count, uniqueToken }: { providerHitId: string; count: number; uniqueToken: string }): Promise<{ duplicate: boolean }> {
  if (!Number.isSafeInteger(count) || count < 1) throw new CrowdError("Add at least one place.", "invalid_parameter");
  const { studyId, hitId } = hitRef(providerHitId);
  await queuedHit(ctx, studyId, hitId);
  const fresh = await ctx.store.insert(S.places, `${studyId}|${hitId}|${uniqueToken}`, { count });
  forgetStudyView(ctx, studyId);
  await ensurePlaces(ctx, studyId);
  // A study that was waiting for review or paused takes participants again once started.
  const study = await ctx.client.getStudy(studyId);
  if (study.status === "AWAITING REVIEW" || study.status === "PAUSED") await ctx.client.transitionStudy(studyId, "START");
  return { duplicate: !fresh };
}

/** The HIT takes no one new; the study pauses once none of its HITs is open. */
export async function expireStudy(ctx: ProlificContext, providerHitId: string): Promise<void> {
  const { studyId, hitId } = hitRef(providerHitId);
  await setExpiry(ctx, studyId, hitId, ctx.now());
  const open = (await queuedHits(ctx, studyId)).some((h) => !h.disposed && h.expiresAt.getTime() > ctx.now().getTime());
  const study = await ctx.client.getStudy(studyId);
  if (!open && study.status === "ACTIVE") await ctx.client.transitionStudy(studyId, "PAUSE").catch(() => undefined);
}

export async function extendStudy(ctx: ProlificContext, { providerHitId, expiresAt }: { providerHitId: string; expiresAt: Date }): Promise<void> {
  const { studyId, hitId } = hitRef(providerHitId);
  await setExpiry(ctx, studyId, hitId, expiresAt);
  const study = await ctx.client.getStudy(studyId);
  if (expiresAt.getTime() > ctx.now().getTime() && study.status === "PAUSED") await ctx.client.transitionStudy(studyId, "START");
}

async function setExpiry(ctx: ProlificContext, studyId: string, hitId: string, expiresAt: Date): Promise<void> {
  forgetStudyView(ctx, studyId);
  const key = `${studyId}|${hitId}`;
  const entry = await ctx.store.get(S.hit, key);
  if (!entry) throw new CrowdError(`HIT ${hitId} is not queued in Prolific study ${studyId}.`, "not_found");
  await ctx.store.put(S.hit, key, { ...entry, expiresAt: expiresAt.toISOString() });
}

/** Prolific keeps studies; Accord marks the HIT disposed once its submissions are decided, and stops the study after its last HIT. */
export async function disposeStudy(ctx: ProlificContext, providerHitId: string): Promise<void> {
  const { studyId, hitId } = hitRef(providerHitId);
  const { submissions: subs } = await submissionsOfHit(ctx, studyId, hitId);
  if (subs.some((s) => OPEN.has(s.status) || s.status === "AWAITING REVIEW")) {
    throw new CrowdError(`HIT ${hitId} still has submissions in progress or awaiting review on Prolific.`, "invalid_hit_state");
  }
  await ctx.store.put(S.disposed, providerHitId, { at: ctx.now().toISOString() });
  forgetStudyView(ctx, studyId);
  if ((await queuedHits(ctx, studyId)).some((h) => !h.disposed)) return;
  const study = await ctx.client.getStudy(studyId);
  if (study.status !== "COMPLETED" && study.status !== "UNPUBLISHED") await ctx.client.transitionStudy(studyId, "STOP");
}
