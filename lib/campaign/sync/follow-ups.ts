import "server-only";
import type { Db } from "@/lib/db/client";
import { recordMetricSnapshot } from "../snapshots";
import { refreshWorkerStats } from "../worker-stats";
import type { SyncFollowUps } from "./types";

/**
 * The ONE throttle of the sync loop's follow-ups (worker statistics and agreement snapshots, recomputed from all
 * the stored rows of each worker and event, which at HumAID scale costs more than a pass). They run when the
 * process has used FOLLOW_UP_COST_FACTOR× their last CPU cost since (so they take ≤ ~5% of the work, however long
 * the passes wait on a throttled provider), or when FOLLOW_UP_MAX_STALE_MS have passed (and that factor × their wall
 * time), or at once when a pass finds nothing to do (flushSyncFollowUps).
 */
const FOLLOW_UP_COST_FACTOR = 20;
const FOLLOW_UP_MAX_STALE_MS = 300_000;
type Deferred = SyncFollowUps & { lastAt: number; lastCostMs: number; lastCpuMs: number; lastCpuCostMs: number };
/** Per client: the web server and `accord worker` each run one loop, and tests open many databases. */
const deferredByDb = new WeakMap<Db, Deferred>();

/** This process's CPU time (user + system), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Whether deferred follow-ups are due (pure). */
export function followUpsDue(
  last: { lastAt: number; lastCostMs: number; lastCpuMs: number; lastCpuCostMs: number },
  now: { wallMs: number; cpuMs: number },
): boolean {
  if (now.cpuMs - last.lastCpuMs >= FOLLOW_UP_COST_FACTOR * last.lastCpuCostMs) return true;
  return now.wallMs - last.lastAt >= Math.max(FOLLOW_UP_MAX_STALE_MS, FOLLOW_UP_COST_FACTOR * last.lastCostMs);
}

/** Refreshes the statistics of these workers and records a snapshot of these events, now. */
export async function runSyncFollowUps(db: Db, followUps: SyncFollowUps): Promise<void> {
  await refreshWorkerStats(db, [...followUps.workers]);
  for (const eventId of followUps.events) await recordMetricSnapshot(db, eventId);
}

/** Adds follow-ups to this client's pending ones and runs them all when due (or `force`). */
export async function runDeferredFollowUps(db: Db, followUps: SyncFollowUps | null, { force }: { force: boolean }): Promise<void> {
  let pending = deferredByDb.get(db);
  if (!pending) deferredByDb.set(db, (pending = { workers: new Set(), events: new Set(), lastAt: 0, lastCostMs: 0, lastCpuMs: 0, lastCpuCostMs: 0 }));
  for (const w of followUps?.workers ?? []) pending.workers.add(w);
  for (const e of followUps?.events ?? []) pending.events.add(e);
  if (pending.workers.size === 0 && pending.events.size === 0) return;
  if (!force && !followUpsDue(pending, { wallMs: Date.now(), cpuMs: cpuMs() })) return;
  const work: SyncFollowUps = { workers: new Set(pending.workers), events: new Set(pending.events) };
  pending.workers.clear();
  pending.events.clear();
  const t0 = Date.now();
  const c0 = cpuMs();
  try {
    await runSyncFollowUps(db, work);
  } catch (err) {
    for (const w of work.workers) pending.workers.add(w);
    for (const e of work.events) pending.events.add(e);
    throw err;
  } finally {
    pending.lastAt = Date.now();
    pending.lastCostMs = pending.lastAt - t0;
    pending.lastCpuMs = cpuMs();
    pending.lastCpuCostMs = pending.lastCpuMs - c0;
  }
}

/** Runs the follow-ups the sync loop has deferred (worker statistics, agreement snapshots) now. */
export async function flushSyncFollowUps(db: Db): Promise<void> {
  await runDeferredFollowUps(db, null, { force: true });
}
