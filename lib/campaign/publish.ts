import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import { buildHitQuestionXml } from "@/lib/crowd/mturk/hit-question";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { deriveUniqueRequestToken } from "@/lib/crowd/tokens";
import { type BulkUpdate, insertMany, updateManyById } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { BATCH_STATUS, HIT_STATUS, JOB_STATE, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { newId } from "@/lib/db/ids";
import { UserError } from "@/lib/errors";
import { JOBS, type JobPayload } from "@/lib/jobs/job-types";
import { enqueueJob } from "@/lib/jobs/queue";
import type { JobContext } from "@/lib/jobs/runner";
import { publishLive } from "@/lib/live/bus";
import { initialAssignments } from "@/lib/procedure/dynamic-overlap";
import { packHits } from "@/lib/procedure/hit-packing";
import { crowdOf } from "@/lib/crowd/registry";
import { seedFrom } from "@/lib/util/random";
import { assertPolicyAllowed } from "./prelaunch-check";
import { loadEventContext } from "./context";
import { estimateBatch } from "./estimate";
import { getProvider } from "./providers";
import { hitRequirementsFor } from "./qualification";
import { formatInt } from "@/lib/text/format";

export type PublishOptions = {
  hitCount: number | "all";
  rewardCents: number;
  lifetimeSeconds: number;
  durationSeconds: number;
  autoApprovalSeconds: number;
  title: string;
  description: string;
  keywords: string;
  /** Required when the provider is production MTurk. */
  confirmProduction?: boolean;
  seed?: number;
};

/** Auto-approval must leave the sync loop ample time to decide first (it syncs every few seconds). */
export const MIN_AUTO_APPROVAL_SECONDS = 3600;

/**
 * Estimates, refuses what would exceed the budget or the balance, packs the HITs (10 gold + 20 unknown,
 * seeded), stores them as drafts and queues the publish job. Nothing is sent to the provider here: the job
 * does it, idempotently (UniqueRequestToken = f(Accord HIT id)), so a retry, a crash or a second process never
 * creates a duplicate.
 */
export async function createHitBatch({
  db,
  eventId,
  options,
  actorId,
  provider: injected,
}: {
  db: Db;
  eventId: string;
  options: PublishOptions;
  actorId?: string | null;
  provider?: CrowdProvider;
}) {
  const { event, settings } = await loadEventContext(db, eventId);
  const provider = injected ?? (await getProvider(db, event.provider));
  const crowd = crowdOf(provider.kind);
  if (crowd.confirmsProduction && provider.mode === "production" && !options.confirmProduction) {
    throw new UserError(`Publishing to production ${crowd.name} spends real money: confirm it explicitly.`, "confirm_production");
  }
  if (options.autoApprovalSeconds < MIN_AUTO_APPROVAL_SECONDS) {
    throw new UserError(`The auto-approval delay must be at least ${MIN_AUTO_APPROVAL_SECONDS / 3600} hour so that Accord decides every assignment before MTurk approves it automatically.`);
  }
  // The crowd's decision policy must be one the crowd allows (the Publish panel's pre-launch check says why not).
  await assertPolicyAllowed(db, eventId);
  const requirements = await hitRequirementsFor(db, eventId, provider.mode === "sandbox");
  if (!requirements && crowd.qualification.required) {
    throw new UserError("Create the qualification test first: HITs require its score.", "no_qualification");
  }
  await provider.checkReward?.({ rewardCents: options.rewardCents, assignmentDurationSeconds: options.durationSeconds });
  const estimate = await estimateBatch({ db, provider, eventId, hitCount: options.hitCount, rewardCents: options.rewardCents });
  if (!estimate.ok) throw new UserError(estimate.problems.join(" "), "estimate_refused");

  const [unknown, gold, lastHit, priorUsage] = await Promise.all([
    db.tweet.findMany({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending, duplicateOfId: null }, select: { id: true }, orderBy: { createdAt: "asc" } }),
    db.tweet.findMany({ where: { eventId, role: TWEET_ROLE.gold, retiredAt: null }, select: { id: true }, orderBy: { createdAt: "asc" } }),
    db.hit.findFirst({ where: { eventId }, orderBy: { seq: "desc" }, select: { seq: true } }),
    db.hitItem.groupBy({ by: ["tweetId"], where: { isGold: true, hit: { eventId } }, _count: { _all: true } }),
  ]);
  const seed = options.seed ?? seedFrom(eventId, lastHit?.seq ?? 0, Date.now());
  const packed = packHits({
    unknownIds: unknown.map((t) => t.id),
    goldIds: gold.map((t) => t.id),
    seed,
    settings,
    priorGoldUsage: Object.fromEntries(priorUsage.map((u) => [u.tweetId, u._count._all])),
  });
  const hitsToCreate = packed.hits.slice(0, estimate.hits);
  const maxAssignments = initialAssignments(settings);
  const startSeq = (lastHit?.seq ?? 0) + 1;

  const batch = await db.$transaction(
    async (tx) => {
      const b = await tx.hitBatch.create({
        data: {
          eventId,
          hitCount: hitsToCreate.length,
          rewardCents: options.rewardCents,
          assignmentsPerHit: maxAssignments,
          lifetimeSeconds: options.lifetimeSeconds,
          durationSeconds: options.durationSeconds,
          autoApprovalSeconds: options.autoApprovalSeconds,
          title: options.title,
          description: options.description,
          keywords: options.keywords,
          estimatedCostCents: estimate.worstCaseCents,
          currency: estimate.currency, // the crowd's now: a later change of workspace currency leaves this batch's amounts as they were
          status: BATCH_STATUS.queued,
          createdById: actorId ?? null,
        },
      });
      // One multi-row insert for the HITs and one for their items (thousands of HITs: per-row inserts took minutes).
      const now = new Date();
      const hitIds = hitsToCreate.map(() => newId());
      await insertMany(
        tx,
        "Hit",
        hitsToCreate.map((_, i) => ({
          id: hitIds[i],
          eventId,
          batchId: b.id,
          seq: startSeq + i,
          provider: event.provider,
          uniqueRequestToken: deriveUniqueRequestToken(hitIds[i]),
          status: HIT_STATUS.draft,
          maxAssignments,
          rewardCents: options.rewardCents,
          seed: seedFrom(seed, i) & 0x7fffffff, // an INTEGER column on both databases
          createdAt: now,
        })),
      );
      await insertMany(tx, "HitItem", hitsToCreate.flatMap((p, i) => p.items.map((it) => ({ hitId: hitIds[i], tweetId: it.tweetId, position: it.position, isGold: it.isGold }))));
      const unknownIds = hitsToCreate.flatMap((h) => h.items.filter((it) => !it.isGold).map((it) => it.tweetId));
      for (let i = 0; i < unknownIds.length; i += 500) {
        await tx.tweet.updateMany({ where: { id: { in: unknownIds.slice(i, i + 500) } }, data: { status: TWEET_STATUS.in_hit } });
      }
      const job = await enqueueJob(tx as unknown as Db, JOBS.publish, { payload: { batchId: b.id }, eventId, createdById: actorId ?? null, maxAttempts: 10 });
      return tx.hitBatch.update({ where: { id: b.id }, data: { jobId: job.id } });
    },
    { timeout: 120_000, maxWait: 20_000 },
  );
  await writeAudit(db, {
    actorType: actorId ? "user" : "system",
    actorId,
    eventId,
    entityType: "batch",
    entityId: batch.id,
    action: "publish-batch",
    details: { hits: hitsToCreate.length, rewardCents: options.rewardCents, worstCaseCents: estimate.worstCaseCents, currency: estimate.currency, mode: provider.mode },
  });
  // The open Overview shows each step of a publish: queued (waiting to start), sending, the HITs open.
  publishLive({ eventId, kind: "publish", data: { batchId: batch.id, state: JOB_STATE.queued, hits: hitsToCreate.length } });
  return { batch, estimate };
}

/** The publish job: sends every draft HIT of the batch; safe to run again after a crash (idempotent). */
export async function runPublishJob(
  ctx: JobContext,
  { batchId }: JobPayload<typeof JOBS.publish>,
  { provider: injected, concurrency = 4 }: { provider?: CrowdProvider; concurrency?: number } = {},
) {
  const { db } = ctx;
  const batch = await db.hitBatch.findUniqueOrThrow({ where: { id: batchId } });
  const { event, labels } = await loadEventContext(db, batch.eventId);
  const provider = injected ?? (await getProvider(db, event.provider));
  // The rewards were priced in the batch's currency: a workspace now paying in another one would pay other amounts.
  const crowd = crowdOf(provider.kind);
  const currency = await crowd.currency(db);
  if (batch.currency && batch.currency !== currency) {
    throw new UserError(`This batch was priced in ${batch.currency}, but its crowd now pays in ${currency} (another workspace): its rewards would be paid in the wrong currency. Publish a new batch instead.`, "currency_changed");
  }
  const requirements = (await hitRequirementsFor(db, event.id, provider.mode === "sandbox")) ?? [];
  const submitUrl = await crowd.submitUrl(db, provider);
  await db.hitBatch.update({ where: { id: batchId }, data: { status: BATCH_STATUS.publishing } });

  const total = batch.hitCount;
  const drafts = await db.hit.findMany({ where: { batchId, status: HIT_STATUS.draft }, orderBy: { seq: "asc" }, select: { id: true } });
  let done = total - drafts.length;
  await ctx.progress(done, total, `Publishing ${formatInt(total)} HITs`, true);
  publishLive({ eventId: event.id, kind: "publish", data: { batchId, state: JOB_STATE.running, published: done } });

  // The drafts' contents are read 50 at a time (one query per chunk instead of one per HIT), in seq order.
  const ids = drafts.map((d) => d.id);
  const ready: DraftHit[] = [];
  let loaded = 0;
  let loading: Promise<void> | null = null;
  const take = async (): Promise<DraftHit | undefined> => {
    while (ready.length === 0 && loaded < ids.length) {
      loading ??= (async () => {
        const chunk = ids.slice(loaded, loaded + DRAFT_CHUNK);
        loaded += chunk.length;
        ready.push(...(await db.hit.findMany({ where: { id: { in: chunk }, status: HIT_STATUS.draft }, orderBy: { seq: "asc" }, select: DRAFT_SELECT })));
      })().finally(() => {
        loading = null;
      });
      await loading;
    }
    return ready.shift();
  };
  // Published HITs are recorded PUBLISH_FLUSH at a time (one statement, one commit). A crash before a flush
  // loses nothing: those HITs are still drafts, and publishing them again returns the same provider HIT
  // (the UniqueRequestToken is derived from the Accord id).
  const published: Array<BulkUpdate<"Hit">> = [];
  const flush = async () => {
    const n = published.length;
    await updateManyById(db, "Hit", published.splice(0), { where: { status: HIT_STATUS.draft } });
    if (n > 0) publishLive({ eventId: event.id, kind: "publish", data: { batchId, state: JOB_STATE.running, published: done } });
  };
  let stopped = false;
  const worker = async () => {
    try {
      for (let hit = stopped ? undefined : await take(); hit; hit = stopped ? undefined : await take()) {
        await ctx.throwIfCancelled();
        const res = await publishOneHit({ provider, hit, batch, labels, submitUrl, requirements });
        published.push({ id: hit.id, providerHitId: res.providerHitId, status: HIT_STATUS.published, publishedAt: new Date(), expiresAt: res.expiresAt });
        if (published.length >= PUBLISH_FLUSH) await flush();
        done++;
        await ctx.progress(done, total, `Published ${formatInt(done)} of ${formatInt(total)} HITs`);
      }
    } catch (err) {
      stopped = true; // the other lanes finish the HIT in hand and stop
      throw err;
    }
  };
  // Every lane is awaited before the last flush, so no HIT published by a lane still running is left unrecorded.
  const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, concurrency) }, worker));
  await flush();
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === "rejected"); // enum-literal-ok: PromiseSettledResult
  if (failed) throw failed.reason;
  await db.hitBatch.update({ where: { id: batchId }, data: { status: BATCH_STATUS.published } });
  await ctx.progress(total, total, `Published ${formatInt(total)} HITs`, true);
  publishLive({ eventId: event.id, kind: "hit", data: { batchId, published: total } });
  return { published: total };
}

const DRAFT_CHUNK = 50;
const PUBLISH_FLUSH = 25;
const DRAFT_SELECT = { id: true, seq: true, maxAssignments: true, items: { orderBy: { position: "asc" }, select: { id: true, tweet: { select: { externalId: true, text: true } } } } } as const;
type DraftHit = { id: string; seq: number; maxAssignments: number; items: Array<{ id: string; tweet: { externalId: string; text: string } }> };

async function publishOneHit({
  provider,
  hit,
  batch,
  labels,
  submitUrl,
  requirements,
}: {
  provider: CrowdProvider;
  hit: DraftHit;
  batch: { id: string; title: string; description: string; keywords: string; rewardCents: number; lifetimeSeconds: number; durationSeconds: number; autoApprovalSeconds: number };
  labels: Awaited<ReturnType<typeof loadEventContext>>["labels"];
  submitUrl: string;
  requirements: Awaited<ReturnType<typeof hitRequirementsFor>>;
}) {
  // Read as a draft moments ago; if another process published it since, the HIT's UniqueRequestToken makes the
  // provider answer with the existing HIT, and recording it (status still "draft" required) changes nothing.
  const questionXml = buildHitQuestionXml({
    items: hit.items.map((it) => ({ itemId: it.id, tweetId: it.tweet.externalId, text: it.tweet.text })),
    labels,
    submitUrl,
  });
  return provider.publishHit({
    accordHitId: hit.id,
    title: batch.title,
    description: batch.description,
    keywords: batch.keywords,
    rewardCents: batch.rewardCents,
    maxAssignments: hit.maxAssignments,
    lifetimeSeconds: batch.lifetimeSeconds,
    assignmentDurationSeconds: batch.durationSeconds,
    autoApprovalDelaySeconds: batch.autoApprovalSeconds,
    questionXml,
    qualificationRequirements: requirements ?? undefined,
    batch: { key: batch.id, position: hit.seq },
  });
}
