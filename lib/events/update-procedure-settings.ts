import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { readEventSettings } from "./event-settings";
import { type EditProcedureSettingsForm, settingsFromForm } from "./procedure-form.validation";
import { saveEventSettings } from "./save-event-settings";

export { settingsBasis } from "./save-event-settings";

/**
 * Changes an event's procedure settings from its Settings page, validated by lib/procedure and recorded (scope
 * "procedure"). HITs already published keep their tweets; decisions already made stay; the new rules apply from the next ones.
 */
export async function updateProcedureSettings(
  db: Db,
  form: EditProcedureSettingsForm,
  { actor }: { actor: { id: string; email: string } },
): Promise<{ slug: string; name: string; changed: number; settings: ProcedureSettings }> {
  return saveEventSettings(db, {
    eventId: form.eventId,
    column: "settings",
    scope: "procedure",
    basis: form.basis,
    reason: form.reason,
    actor,
    auditAction: "update-procedure-settings",
    next: (event) => {
      const before = readEventSettings(event);
      const next = settingsFromForm(form, before);
      if (!next.ok) throw new UserError("Please correct the rule settings.", "invalid_settings", next.fieldErrors);
      return { before, after: next.settings };
    },
  });
}
