import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { JOB_STATE, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { sampleByClass } from "@/lib/ingest/filters/sampling";
import { enqueueJob } from "@/lib/jobs/queue";
import { JOBS } from "@/lib/jobs/job-types";
import type { JobContext } from "@/lib/jobs/runner";
import { describeGoldOutcome, type GoldOutcome, markTweetsGold, unmarkTweetsGold } from "./gold-marking";
import { goldJobSchema, type GoldJobPayload, type GoldRequest } from "./gold.validation";
import { tweetWhere } from "@/lib/events/tweets";
import { formatInt } from "@/lib/text/format";

/**
 * Gold changes for many tweets: every tweet matching the Data tab's filters, or N per class from an upload's labels
 * (stratified and seeded like the ingest sampling step, so the preview and the change pick the same tweets). Up to
 * GOLD_INLINE_LIMIT tweets run in the request; more run as a recorded "gold" job.
 */
export const GOLD_INLINE_LIMIT = 1_000;
const CHUNK = 500;

type Pick = { id: string; label: string | null };

async function schemeLabelsOf(db: Db, eventId: string): Promise<string[]> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { schemeId: true } });
  const labels = await db.label.findMany({ where: { schemeId: event.schemeId }, orderBy: { position: "asc" }, select: { value: true } });
  return labels.map((l) => l.value);
}

export type GoldFromImportPlan = {
  /** Per scheme label found in the upload: pending unknown tweets with that file label, and how many are picked. */
  classes: Array<{ label: string; available: number; picked: number }>;
  picks: Pick[];
  /** The upload's tweets that stay unknown (not picked, or without a label in the scheme). */
  remaining: number;
  /** Names exactly these picks: the confirm button sends it, and a change whose picks differ now is refused. */
  key: string;
};

/** A short fingerprint of the picked tweets and their labels (order-free). */
export function planKeyOf(picks: readonly Pick[]): string {
  const lines = picks.map((p) => `${p.id}\t${p.label ?? ""}`).sort();
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 24);
}

/** The tweets "make gold from labelled tweets" would pick: perClass per file label, seeded. */
export async function planGoldFromImport(db: Db, { eventId, importId, perClass, seed }: { eventId: string; importId: string; perClass: number; seed: number }): Promise<GoldFromImportPlan> {
  const batch = await db.importBatch.findFirst({ where: { id: importId, eventId }, select: { id: true } });
  if (!batch) throw new UserError("That upload is not part of this event.");
  const labels = await schemeLabelsOf(db, eventId);
  const [candidates, all] = await Promise.all([
    db.tweet.findMany({
      where: { eventId, importId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending, duplicateOfId: null, sourceLabel: { in: labels } },
      select: { id: true, sourceLabel: true },
      orderBy: { externalId: "asc" },
    }),
    db.tweet.count({ where: { eventId, importId, role: TWEET_ROLE.unknown } }),
  ]);
  const { sample, allocation, counts } = sampleByClass(candidates, (t) => t.sourceLabel as string, { perClass, seed });
  const classes = labels.filter((l) => counts.has(l)).map((label) => ({ label, available: counts.get(label) ?? 0, picked: allocation.get(label) ?? 0 }));
  const picks = sample.map((t) => ({ id: t.id, label: t.sourceLabel }));
  return { classes, picks, remaining: all - sample.length, key: planKeyOf(picks) };
}

/** The tweets a request changes, with the label each gets (marking). */
async function resolveRequest(db: Db, eventId: string, request: GoldRequest): Promise<Pick[]> {
  if (request.kind === "fromImport") return (await planGoldFromImport(db, { eventId, ...request })).picks;
  const where = await tweetWhere(db, eventId, request.filter);
  const tweets = await db.tweet.findMany({ where, select: { id: true, sourceLabel: true }, orderBy: { externalId: "asc" } });
  return tweets.map((t) => ({ id: t.id, label: request.mode === "unmark" ? null : (request.goldLabel ?? t.sourceLabel) }));
}

/** Applies a request chunk by chunk; `onChunk` reports progress (the job's). */
export async function applyGoldRequest(
  db: Db,
  { eventId, actorId, request, picks: queuedPicks }: GoldJobPayload,
  onChunk: (done: number, total: number) => Promise<void> = async () => undefined,
): Promise<{ outcome: GoldOutcome; message: string }> {
  // A queued "make gold" applies the picks its confirm previewed, never a fresh sample: a second job of the same
  // confirm (two confirms at once) then finds them gold already and changes nothing. markTweetsGold re-checks each.
  if (queuedPicks && request.kind === "fromImport" && request.planKey !== undefined && planKeyOf(queuedPicks) !== request.planKey) {
    throw new UserError("The queued gold change does not match its preview; press Preview again.", "stale_preview");
  }
  const picks = queuedPicks ?? (await resolveRequest(db, eventId, request));
  const unmark = request.kind === "filter" && request.mode === "unmark";
  const schemeLabels = unmark ? [] : await schemeLabelsOf(db, eventId);
  const reason = request.kind === "fromImport" ? `${request.perClass} per class from an upload (seed ${request.seed})` : "all tweets matching the Data tab's filters";
  const total: GoldOutcome = { changed: 0, retired: 0, skipped: {} };
  for (let i = 0; i < picks.length; i += CHUNK) {
    const chunk = picks.slice(i, i + CHUNK);
    const o = unmark
      ? await unmarkTweetsGold(db, { eventId, ids: chunk.map((p) => p.id), actorId, reason })
      : await markTweetsGold(db, { eventId, picks: chunk, schemeLabels, actorId, reason });
    total.changed += o.changed;
    total.retired += o.retired;
    for (const [why, n] of Object.entries(o.skipped)) total.skipped[why] = (total.skipped[why] ?? 0) + n;
    await onChunk(Math.min(i + CHUNK, picks.length), picks.length);
  }
  return { outcome: total, message: describeGoldOutcome(total, unmark ? "unmarked" : "marked as gold") };
}

/** Runs a request now when small, else records a job; returns what the form shows. */
export async function requestGoldChange(db: Db, payload: GoldJobPayload, inlineLimit = GOLD_INLINE_LIMIT): Promise<{ queued: boolean; message: string }> {
  const picks = await resolveRequest(db, payload.eventId, payload.request);
  const size = picks.length;
  if (payload.request.kind === "fromImport") await refuseRepeatedMake(db, payload.eventId, payload.request, picks);
  if (size === 0) throw new UserError("No tweets match.");
  if (size <= inlineLimit) return { queued: false, message: (await applyGoldRequest(db, payload)).message };
  const queued: GoldJobPayload = payload.request.kind === "fromImport" ? { ...payload, picks } : payload;
  await enqueueJob(db, JOBS.gold, { payload: queued, eventId: payload.eventId, createdById: payload.actorId, maxAttempts: 2 });
  return { queued: true, message: `${formatInt(size)} tweets: the change runs as a job; reload to see it.` };
}

/**
 * "Make N gold tweets" applies once: a confirm whose preview's picks are no longer the picks (made gold already, or
 * the upload changed) is refused, and so is the same request while a job for it is still waiting or running. The
 * check and the enqueue are not one atomic step (lib/jobs has no unique key): two confirms at the same moment may
 * both queue a job, but each carries the same previewed picks, so the second changes nothing.
 */
async function refuseRepeatedMake(db: Db, eventId: string, request: Extract<GoldRequest, { kind: "fromImport" }>, picks: readonly Pick[]): Promise<void> {
  if (request.planKey !== undefined && request.planKey !== planKeyOf(picks)) {
    throw new UserError("These gold tweets were made already (or the upload changed since the preview): press Preview again to see what would be picked now.", "stale_preview");
  }
  const open = await db.job.findMany({ where: { type: JOBS.gold.type, eventId, state: { in: [JOB_STATE.queued, JOB_STATE.running] } }, select: { payload: true } });
  const same = open.some((j) => {
    const r = goldJobSchema.safeParse(j.payload).data?.request;
    return r?.kind === "fromImport" && r.importId === request.importId && r.perClass === request.perClass && r.seed === request.seed;
  });
  if (same) throw new UserError("This change is already running as a job: its progress shows below.", "already_running");
}

/** The "gold" job's handler: its progress is tweets done of the request's total (the last chunk always recorded). */
export async function runGoldJob(ctx: JobContext, payload: GoldJobPayload) {
  await ctx.progress(0, null, "choosing the tweets", true);
  const { outcome, message } = await applyGoldRequest(ctx.db, payload, async (done, total) => {
    await ctx.progress(done, total, `${describeGoldRequest(payload.request)}: ${formatInt(done)} of ${formatInt(total)} tweets`, done === total);
  });
  return { ...outcome, message };
}

/** What a gold request does, in a few words (the Data tab's list of gold jobs). */
export function describeGoldRequest(request: GoldRequest): string {
  if (request.kind === "fromImport") return `make gold, ${request.perClass} per class from an upload (seed ${request.seed})`;
  return `${request.mode === "unmark" ? "unmark gold" : "mark as gold"}: tweets matching the filters`;
}
