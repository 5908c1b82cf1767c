import "server-only";
import { createHash } from "node:crypto";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { readEventSettings } from "./event-settings";
import { type EditProcedureSettingsForm, settingsFromForm } from "./procedure-form.validation";
import { recordSettingChanges } from "./setting-changes";

/** A fingerprint of stored settings: the Settings form carries it, so a form older than the last change is refused. */
export function settingsBasis(settings: unknown): string {
  return createHash("sha256").update(JSON.stringify(settings ?? null)).digest("hex");
}

/**
 * Changes an event's procedure settings from its Settings page: validated by lib/procedure, refused when another
 * change came first, and recorded leaf by leaf (old → new, who, when, why) with one audit entry, in one transaction.
 * HITs already published keep their tweets; decisions already made stay; the new rules apply from the next ones.
 */
export async function updateProcedureSettings(
  db: Db,
  form: EditProcedureSettingsForm,
  { actor }: { actor: { id: string; email: string } },
): Promise<{ slug: string; name: string; changed: number; settings: ProcedureSettings }> {
  const event = await db.event.findUnique({ where: { id: form.eventId }, select: { id: true, slug: true, name: true, settings: true } });
  if (!event) throw new UserError("That event does not exist.", "not_found");
  const before = readEventSettings(event);
  const next = settingsFromForm(form, before);
  if (!next.ok) throw new UserError("Please correct the rule settings.", "invalid_settings", next.fieldErrors);
  const changed = await db.$transaction(async (tx) => {
    const current = await tx.event.findUniqueOrThrow({ where: { id: event.id }, select: { settings: true } });
    if (settingsBasis(current.settings) !== form.basis) {
      throw new UserError("Someone changed this event's settings since you opened the page: reload it to see their change, then try again.", "stale");
    }
    const n = await recordSettingChanges(tx, { eventId: event.id, scope: "procedure", before, after: next.settings, actor, reason: form.reason });
    if (n === 0) return 0;
    await tx.event.update({ where: { id: event.id }, data: { settings: next.settings } });
    await writeAudit(tx, {
      actorType: "user",
      actorId: actor.id,
      eventId: event.id,
      entityType: "settings",
      entityId: event.id,
      action: "update-procedure-settings",
      reason: form.reason || null,
      details: { changes: n },
    });
    return n;
  });
  if (changed === 0) throw new UserError("Nothing changed: the settings are as they were.", "unchanged");
  return { slug: event.slug, name: event.name, changed, settings: next.settings };
}
