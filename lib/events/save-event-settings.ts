import "server-only";
import { createHash } from "node:crypto";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { recordSettingChanges, type SettingScope } from "./setting-changes";

/** A fingerprint of stored settings: a Settings form carries it, so a form older than the last change is refused. */
export function settingsBasis(settings: unknown): string {
  return createHash("sha256").update(JSON.stringify(settings ?? null)).digest("hex");
}

type StoredEvent = { id: string; slug: string; name: string; settings: unknown; filters: unknown };

/**
 * Saves one of an event's settings columns (Event.settings: the procedure; Event.filters: the upload filtering) from
 * its Settings page: `next` computes the new value from the stored one (throwing UserError when invalid); refused
 * when another change came first; recorded leaf by leaf (old → new, who, when, why) with one audit entry, in one
 * transaction.
 */
export async function saveEventSettings<T>(
  db: Db,
  {
    eventId,
    column,
    scope,
    basis,
    reason,
    actor,
    auditAction,
    next,
  }: { eventId: string; column: "settings" | "filters"; scope: SettingScope; basis: string; reason?: string; actor: { id: string; email: string }; auditAction: string; next: (event: StoredEvent) => { before: unknown; after: T } },
): Promise<{ slug: string; name: string; changed: number; settings: T }> {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, name: true, settings: true, filters: true } });
  if (!event) throw new UserError("That event does not exist.", "not_found");
  const { before, after } = next(event);
  const changed = await db.$transaction(async (tx) => {
    const current = await tx.event.findUniqueOrThrow({ where: { id: event.id }, select: { settings: true, filters: true } });
    if (settingsBasis(current[column]) !== basis) {
      throw new UserError("Someone changed this event's settings since you opened the page: reload it to see their change, then try again.", "stale");
    }
    const n = await recordSettingChanges(tx, { eventId: event.id, scope, before, after, actor, reason });
    if (n === 0) return 0;
    await tx.event.update({ where: { id: event.id }, data: { [column]: after as object } });
    await writeAudit(tx, { actorType: "user", actorId: actor.id, eventId: event.id, entityType: "settings", entityId: event.id, action: auditAction, reason: reason || null, details: { changes: n } });
    return n;
  });
  if (changed === 0) throw new UserError("Nothing changed: the settings are as they were.", "unchanged");
  return { slug: event.slug, name: event.name, changed, settings: after };
}
