import "server-only";
import { type CircuitBreaker, guardProvider } from "@/lib/crowd/circuit-breaker";
import { isCrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { Db } from "@/lib/db/client";
import { publishLive } from "@/lib/live/bus";
import { env } from "@/lib/config/env";
import { type Clock, systemClock } from "@/lib/util/clock";
import { loadEventContext } from "../context";
import { getProvider } from "../providers";
import { flushSyncFollowUps, runDeferredFollowUps } from "./follow-ups";
import { claimDueHits, keepLeases, releaseHit, SYNC_LEASE_MS } from "./lease";
import { crowdKinds } from "@/lib/crowd/registry";
import { crowdBreaker } from "./crowd-breakers";
import { clearOutage, isOutageError, readOutage, recordOutage } from "./outage";
import { syncHits } from "./pass";
import type { SyncFollowUps } from "./types";

/** HITs per syncHits call: bigger batches mean fewer commits (each writes every index page its judgments touched). */
const SYNC_BATCH = 100;
/** HITs one pass claims: a pass's fixed work (claiming, transactions, statements per step) is shared by more HITs. */
export const SYNC_PASS_HITS = 100;

const logError = (what: string) => (err: unknown) => console.error(`[accord] ${what}:`, err instanceof Error ? err.message : err);

export type PassResult = { synced: number; errors: number; outage: boolean };
type PassOptions = {
  owner: string;
  limit?: number;
  minIntervalMs?: number;
  leaseMs?: number;
  provider?: CrowdProvider;
  concurrency?: number;
  /** Only this crowd's HITs (the per-crowd loop). */
  crowd?: string;
  /** The crowd's breaker: every provider call goes through it, and its opening records the outage. */
  breaker?: CircuitBreaker;
  /** With the breaker: a call unsettled after this long counts as failed (default ACCORD_CROWD_CALL_TIMEOUT_MS × 2). */
  callDeadlineMs?: number;
  clock?: Clock;
};

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
    crowd,
    breaker,
    callDeadlineMs,
    clock = systemClock,
  }: PassOptions,
): Promise<PassResult> {
  const ids = await claimDueHits(db, { owner, limit, minIntervalMs, leaseMs, crowd, clock });
  if (ids.length === 0) {
    await flushSyncFollowUps(db).catch(logError("worker statistics / snapshot failed"));
    return { synced: 0, errors: 0, outage: false };
  }
  const leases = keepLeases(db, { hitIds: ids, owner, leaseMs, clock });
  try {
    const deadlineMs = breaker ? (callDeadlineMs ?? 2 * env().ACCORD_CROWD_CALL_TIMEOUT_MS) : undefined;
    return await syncClaimedHits(db, { ids, owner, provider, concurrency, breaker, deadlineMs, clock, crowd });
  } finally {
    leases.stop();
  }
}

async function syncClaimedHits(
  db: Db,
  {
    ids,
    owner,
    provider,
    concurrency,
    breaker,
    deadlineMs,
    clock,
    crowd,
  }: { ids: string[]; owner: string; provider?: CrowdProvider; concurrency: number; breaker?: CircuitBreaker; deadlineMs?: number; clock: Clock; crowd?: string },
): Promise<PassResult> {
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
      const unguarded = provider ?? (await getProvider(db, context.event.provider));
      const p = breaker ? guardProvider(unguarded, breaker, { deadlineMs, clock }) : unguarded;
      for (let i = 0; i < hitIds.length; i += SYNC_BATCH) {
        if (outage) break;
        const outcomes = await syncHits({ db, hitIds: hitIds.slice(i, i + SYNC_BATCH), provider: p, context, followUps, concurrency });
        const errors = [...outcomes.values()].map((o) => o.error).filter((e) => e !== null);
        // The crowd is down when its breaker opened (N failed calls in a row), or when every HIT of a batch failed alike.
        if (breaker?.isOpen || (errors.length === outcomes.size && errors.length > 0 && errors.every(isOutageError))) {
          outage = true;
          await recordOutage(db, crowd ?? p.kind, breaker?.error ?? errors[0]);
        } else if (errors.length < outcomes.size && (await readOutage(db, crowd ?? p.kind))) {
          await clearOutage(db, crowd ?? p.kind);
        }
        for (const [id, o] of outcomes) {
          if (!o.error) ok++;
          else if (!outage || !isOutageError(o.error)) failed.set(id, o.error);
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

/** Passes one tick may run back to back while HITs keep coming (the next tick goes on). */
const PASSES_PER_TICK = 50;

export type SyncLoopOptions = {
  owner: string;
  intervalMs?: number;
  minIntervalMs?: number;
  /** One provider for every crowd (simulations and tests); else each crowd's own (lib/campaign/providers.ts). */
  provider?: CrowdProvider;
  /** A provider per crowd (tests: one crowd down, another up); before `provider`. */
  providerOf?: (crowd: string) => CrowdProvider | undefined;
  /** Passes one tick may run back to back while HITs keep coming (default 50). */
  passesPerTick?: number;
  /** The crowds to sync, each in its own loop (default: every crowd). */
  crowds?: readonly string[];
  clock?: Clock;
  /** Each crowd's breaker (default: the process's, crowd-breakers.ts). */
  breakerOf?: (crowd: string) => CircuitBreaker;
  /** A crowd call unsettled after this long counts as failed (default ACCORD_CROWD_CALL_TIMEOUT_MS × 2). */
  callDeadlineMs?: number;
};

/**
 * The background loop (server process and `accord worker`): one loop per crowd, each claiming only its crowd's HITs,
 * so a crowd that cannot be reached holds up no other. A crowd's loop runs a pass every `intervalMs` (passes back to
 * back while HITs are due); once its breaker opens (N failed calls in a row) the outage is recorded and the loop only
 * sends one HIT's sync as a probe every few seconds; the first probe that gets an answer clears the outage.
 */
export function startSyncLoop(db: Db, { crowds = crowdKinds(), breakerOf = crowdBreaker, providerOf, provider, ...options }: SyncLoopOptions) {
  const loops = crowds.map((crowd) => startCrowdSyncLoop(db, { ...options, provider: providerOf?.(crowd) ?? provider, crowd, breaker: breakerOf(crowd) }));
  return {
    /** Runs one tick of every crowd's loop now (tests; the timers run them otherwise). */
    async tick() {
      await Promise.all(loops.map((l) => l.tick()));
    },
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}

function startCrowdSyncLoop(
  db: Db,
  {
    owner,
    intervalMs = 2_000,
    minIntervalMs = 2_000,
    provider,
    crowd,
    breaker,
    clock = systemClock,
    callDeadlineMs,
    passesPerTick = PASSES_PER_TICK,
  }: Omit<SyncLoopOptions, "crowds" | "breakerOf" | "providerOf"> & { crowd: string; breaker: CircuitBreaker },
) {
  let stopping = false;
  let running: Promise<void> | null = null;
  const passes = async () => {
    for (let n = 0; n < passesPerTick && !stopping; n++) {
      if (breaker.isOpen && !breaker.probeDue) return;
      const probing = breaker.isOpen;
      // A probe is one HIT's sync, due or not: the crowd's first answer closes the breaker.
      const pass = await syncPass(db, { owner, minIntervalMs: probing ? 0 : minIntervalMs, limit: probing ? 1 : SYNC_PASS_HITS, provider, crowd, breaker, clock, callDeadlineMs });
      if (probing && pass.synced + pass.errors === 0) {
        // Nothing left to probe with: no HIT of this crowd needs the crowd any more.
        breaker.succeeded();
        await clearOutage(db, crowd);
        return;
      }
      if (!breaker.isOpen && (await readOutage(db, crowd))) await clearOutage(db, crowd);
      if (pass.synced === 0 || pass.outage) return;
    }
  };
  const tick = async () => {
    if (running || stopping) return; // the previous tick still runs: this one is skipped
    running = passes()
      .catch(logError(`sync pass (${crowd}) failed`))
      .finally(() => {
        running = null;
      });
    await running;
  };
  const timer = clock.every(intervalMs, tick);
  return {
    tick,
    async stop() {
      stopping = true;
      timer.stop();
      await running;
    },
  };
}
