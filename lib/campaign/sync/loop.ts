import "server-only";
import { isCrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { Db } from "@/lib/db/client";
import { publishLive } from "@/lib/live/bus";
import { loadEventContext } from "../context";
import { getProvider } from "../providers";
import { flushSyncFollowUps, runDeferredFollowUps } from "./follow-ups";
import { claimDueHits, keepLeases, releaseHit, SYNC_LEASE_MS } from "./lease";
import { clearOutage, isOutageError, outageBackoffMs, readOutage, recordOutage } from "./outage";
import { syncHits } from "./pass";
import type { SyncFollowUps } from "./types";

/** HITs per syncHits call: bigger batches mean fewer commits (each writes every index page its judgments touched). */
const SYNC_BATCH = 100;
/** HITs one pass claims: a pass's fixed work (claiming, transactions, statements per step) is shared by more HITs. */
export const SYNC_PASS_HITS = 100;

const logError = (what: string) => (err: unknown) => console.error(`[accord] ${what}:`, err instanceof Error ? err.message : err);

export type PassResult = { synced: number; errors: number; outage: boolean };
type PassOptions = { owner: string; limit?: number; minIntervalMs?: number; leaseMs?: number; provider?: CrowdProvider; concurrency?: number };

/**
 * One pass: claim due HITs and sync them, batched per event. Provider errors are recorded on the HIT and shown on
 * the dashboard; the other HITs go on.
 */
export async function syncDueHits(db: Db, options: PassOptions): Promise<{ synced: number; errors: number }> {
  const { synced, errors } = await syncPass(db, options);
  return { synced, errors };
}

/**
 * syncDueHits, also saying whether the provider was down: a batch that fails only because the provider cannot be
 * reached records an outage (outage.ts) and ends the pass; the first batch that gets through clears it.
 */
export async function syncPass(
  db: Db,
  {
    owner,
    limit = SYNC_PASS_HITS,
    minIntervalMs,
    leaseMs = SYNC_LEASE_MS,
    provider,
    concurrency = 4,
  }: PassOptions,
): Promise<PassResult> {
  const ids = await claimDueHits(db, { owner, limit, minIntervalMs, leaseMs });
  if (ids.length === 0) {
    await flushSyncFollowUps(db).catch(logError("worker statistics / snapshot failed"));
    return { synced: 0, errors: 0, outage: false };
  }
  const leases = keepLeases(db, { hitIds: ids, owner, leaseMs });
  try {
    return await syncClaimedHits(db, { ids, owner, provider, concurrency });
  } finally {
    leases.stop();
  }
}

async function syncClaimedHits(db: Db, { ids, owner, provider, concurrency }: { ids: string[]; owner: string; provider?: CrowdProvider; concurrency: number }): Promise<PassResult> {
  const followUps: SyncFollowUps = { workers: new Set(), events: new Set() };
  const eventOf = new Map((await db.hit.findMany({ where: { id: { in: ids } }, select: { id: true, eventId: true } })).map((h) => [h.id, h.eventId]));
  const byEvent = new Map<string, string[]>();
  for (const [id, eventId] of eventOf) byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), id]);
  const failed = new Map<string, unknown>();
  let ok = 0;
  let outage = false;
  for (const [eventId, hitIds] of byEvent) {
    if (outage) break;
    try {
      const context = await loadEventContext(db, eventId);
      const p = provider ?? (await getProvider(db, context.event.provider));
      for (let i = 0; i < hitIds.length; i += SYNC_BATCH) {
        if (outage) break;
        const outcomes = await syncHits({ db, hitIds: hitIds.slice(i, i + SYNC_BATCH), provider: p, context, followUps, concurrency });
        const errors = [...outcomes.values()].map((o) => o.error).filter((e) => e !== null);
        if (errors.length === outcomes.size && errors.length > 0 && errors.every(isOutageError)) {
          outage = true;
          await recordOutage(db, p.kind, errors[0]);
        } else if (errors.length < outcomes.size && (await readOutage(db, p.kind))) {
          await clearOutage(db, p.kind);
        }
        for (const [id, o] of outcomes) {
          if (!o.error) ok++;
          else if (!outage) failed.set(id, o.error);
        }
      }
    } catch (err) {
      for (const id of hitIds) failed.set(id, err);
    }
  }
  // During an outage the HITs carry the outage's error (recordOutage) and are released as they were.
  const clean = ids.filter((id) => !failed.has(id));
  await db.hit.updateMany({ where: { id: { in: clean }, leaseOwner: owner }, data: { leaseOwner: null, leaseUntil: null } });
  for (const [id, err] of failed) {
    const message = err instanceof Error ? err.message : String(err);
    await releaseHit(db, { hitId: id, owner, error: message }).catch(() => undefined);
    const eventId = eventOf.get(id);
    if (eventId) publishLive({ eventId, kind: "sync-error", data: { hitId: id, message } });
    if (!isCrowdError(err)) console.error(`[accord] sync of HIT ${id} failed:`, err);
  }
  // Statistics are recomputed from the stored rows, so a failure here is repaired by the next pass.
  await runDeferredFollowUps(db, followUps, { force: false }).catch(logError("worker statistics / snapshot failed"));
  const synced = outage ? ok : ids.length - failed.size;
  return { synced, errors: ids.length - synced, outage };
}

/**
 * The background loop (server process and `accord worker`): a pass every `intervalMs` while HITs are due; while
 * the provider is down, the wait doubles up to a minute, and the first pass that gets through resets it.
 */
export function startSyncLoop(db: Db, { owner, intervalMs = 2_000, minIntervalMs = 2_000, provider }: { owner: string; intervalMs?: number; minIntervalMs?: number; provider?: CrowdProvider }) {
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  let outagePasses = 0;
  const loop = (async () => {
    while (!stopping) {
      let synced = 0;
      try {
        const pass = await syncPass(db, { owner, minIntervalMs, provider });
        synced = pass.synced;
        outagePasses = pass.outage ? outagePasses + 1 : 0;
      } catch (err) {
        logError("sync pass failed")(err);
      }
      if (stopping || (synced > 0 && outagePasses === 0)) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, outageBackoffMs(outagePasses, intervalMs));
        timer.unref?.();
      });
    }
  })();
  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
