import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { ACTIVE_HIT_STATUSES } from "@/lib/db/enums";
import { publishLive } from "@/lib/live/bus";

export { isOutageError } from "@/lib/crowd/circuit-breaker";

/** The HITs' syncError during an outage starts with this (so recovery clears exactly those). */
export const OUTAGE_PREFIX = "Provider unreachable: ";
const key = (provider: string) => `sync.outage.${provider}`;

export type Outage = { provider: string; since: string; message: string; lastFailureAt: string };

/**
 * Records that `provider` is down: one settings row (shown on the settings page and the event banner) and the
 * error on every active HIT of that provider, so the dashboard shows it after one failed pass.
 */
export async function recordOutage(db: Db, provider: string, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  const now = new Date().toISOString();
  const prior = await readOutage(db, provider);
  const value: Outage = { provider, since: prior?.since ?? now, message, lastFailureAt: now };
  await db.setting.upsert({ where: { key: key(provider) }, create: { key: key(provider), value: value as unknown as Prisma.InputJsonValue }, update: { value: value as unknown as Prisma.InputJsonValue } });
  const hits = await db.hit.findMany({ where: { provider, status: { in: ACTIVE_HIT_STATUSES } }, select: { id: true, eventId: true } });
  await db.hit.updateMany({ where: { id: { in: hits.map((h) => h.id) } }, data: { syncError: OUTAGE_PREFIX + message } });
  if (!prior) for (const eventId of new Set(hits.map((h) => h.eventId))) publishLive({ eventId, kind: "sync-error", data: { provider, message, outage: true } });
}

/** Ends an outage as soon as a call succeeds: the settings row goes, and so does the error on the HITs. */
export async function clearOutage(db: Db, provider: string): Promise<boolean> {
  const gone = await db.setting.deleteMany({ where: { key: key(provider) } });
  const hits = await db.hit.findMany({ where: { provider, syncError: { startsWith: OUTAGE_PREFIX } }, select: { id: true, eventId: true } });
  if (hits.length) await db.hit.updateMany({ where: { id: { in: hits.map((h) => h.id) } }, data: { syncError: null } });
  for (const eventId of new Set(hits.map((h) => h.eventId))) publishLive({ eventId, kind: "sync-error", data: { provider, cleared: true } });
  return gone.count > 0 || hits.length > 0;
}

/** The recorded outage of a provider (or of any provider), for the settings page and the event banner. */
export async function readOutage(db: Db, provider?: string): Promise<Outage | null> {
  const row = provider
    ? await db.setting.findUnique({ where: { key: key(provider) } })
    : await db.setting.findFirst({ where: { key: { startsWith: "sync.outage." } }, orderBy: { updatedAt: "desc" } });
  return (row?.value as Outage | null | undefined) ?? null;
}
