import "server-only";
import { type Db, flavorOf } from "@/lib/db/client";
import { ACTIVE_HIT_STATUSES } from "@/lib/db/enums";
import { type Clock, systemClock } from "@/lib/util/clock";

/** How long a claimed HIT stays leased to its pass without a renewal (a dead process's HITs are free after it). */
export const SYNC_LEASE_MS = 60_000;
/** A running pass renews its leases every third of the lease (a throttled provider may stretch a pass past it). */
export const LEASE_RENEW_FRACTION = 1 / 3;

/**
 * Claims up to `limit` active HITs that are due (not synced for `minIntervalMs`), most overdue first, with a
 * lease so that no two processes sync the same HIT at once (FOR UPDATE SKIP LOCKED on PostgreSQL, a
 * compare-and-set on SQLite). Expired leases (a dead process) are taken over. `crowd` limits the claim to one crowd's
 * HITs (each crowd has its own sync loop). Time is read from `clock` (tests move it).
 */
export async function claimDueHits(
  db: Db,
  { owner, limit = 10, minIntervalMs = 2_000, leaseMs = SYNC_LEASE_MS, clock = systemClock, crowd }: { owner: string; limit?: number; minIntervalMs?: number; leaseMs?: number; clock?: Clock; crowd?: string },
): Promise<string[]> {
  const now = new Date(clock.now());
  const dueBefore = new Date(now.getTime() - minIntervalMs);
  const leaseUntil = new Date(now.getTime() + leaseMs);
  if (flavorOf(db) === "postgres") {
    return db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM "Hit"
         WHERE status IN (${ACTIVE_HIT_STATUSES[0]}, ${ACTIVE_HIT_STATUSES[1]})
           AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
           AND ("lastSyncedAt" IS NULL OR "lastSyncedAt" < ${dueBefore})
           AND (${crowd ?? null}::text IS NULL OR provider = ${crowd ?? null})
         ORDER BY "lastSyncedAt" ASC NULLS FIRST
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return [];
      await tx.hit.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { leaseOwner: owner, leaseUntil } });
      return rows.map((r) => r.id);
    });
  }
  const candidates = await db.hit.findMany({
    where: {
      status: { in: ACTIVE_HIT_STATUSES },
      ...(crowd ? { provider: crowd } : {}),
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      AND: [{ OR: [{ lastSyncedAt: null }, { lastSyncedAt: { lt: dueBefore } }] }],
    },
    orderBy: [{ lastSyncedAt: { sort: "asc", nulls: "first" } }],
    take: limit,
    select: { id: true },
  });
  if (candidates.length === 0) return [];
  // One statement (SQLite runs one writer at a time): take those still unleased or expired, then read which are ours.
  const ids = candidates.map((c) => c.id);
  await db.hit.updateMany({ where: { id: { in: ids }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] }, data: { leaseOwner: owner, leaseUntil } });
  const mine = new Set((await db.hit.findMany({ where: { id: { in: ids }, leaseOwner: owner, leaseUntil }, select: { id: true } })).map((h) => h.id));
  return ids.filter((id) => mine.has(id));
}

/** Gives a HIT back (with the error that stopped its sync, shown on the dashboard). */
export async function releaseHit(db: Db, { hitId, owner, error, clock = systemClock }: { hitId: string; owner: string; error?: string; clock?: Clock }) {
  await db.hit.updateMany({
    where: { id: hitId, leaseOwner: owner },
    data: { leaseOwner: null, leaseUntil: null, ...(error !== undefined ? { syncError: error, lastSyncedAt: new Date(clock.now()) } : {}) },
  });
}

/** Extends the leases this owner still holds on `hitIds` (a pass that is still running). */
export async function renewLeases(db: Db, { hitIds, owner, leaseMs, clock = systemClock }: { hitIds: string[]; owner: string; leaseMs: number; clock?: Clock }): Promise<void> {
  await db.hit.updateMany({ where: { id: { in: hitIds }, leaseOwner: owner }, data: { leaseUntil: new Date(clock.now() + leaseMs) } });
}

/** Keeps the leases of a running pass alive until `stop()` (a pass waiting on a throttled provider may outlast them). */
export function keepLeases(db: Db, { hitIds, owner, leaseMs, clock = systemClock }: { hitIds: string[]; owner: string; leaseMs: number; clock?: Clock }): { stop(): void } {
  return clock.every(leaseMs * LEASE_RENEW_FRACTION, () =>
    renewLeases(db, { hitIds, owner, leaseMs, clock }).catch((err: unknown) => console.error("[accord] lease renewal failed:", err instanceof Error ? err.message : err)),
  );
}
