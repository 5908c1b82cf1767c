import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { type IngestSettings, parseIngestSettings } from "@/lib/ingest/settings";
import { type EditIngestSettingsForm, ingestSettingsFromForm } from "./ingest-form.validation";
import { saveEventSettings } from "./save-event-settings";

/**
 * Changes an event's upload filtering (Event.filters) from its Settings page, recorded with scope "ingest". Uploads
 * already imported keep their tweets; the new settings apply from the next upload (and a paused import's resume).
 */
export async function updateIngestSettings(db: Db, form: EditIngestSettingsForm, { actor }: { actor: { id: string; email: string } }): Promise<{ slug: string; name: string; changed: number; settings: IngestSettings }> {
  return saveEventSettings(db, {
    eventId: form.eventId,
    column: "filters",
    scope: "ingest",
    basis: form.basis,
    reason: form.reason,
    actor,
    auditAction: "update-ingest-settings",
    next: (event) => {
      const before = parseIngestSettings(event.filters);
      const next = ingestSettingsFromForm(form, before);
      if (!next.ok) throw new UserError("Please correct the upload filtering settings.", "invalid_settings", next.fieldErrors);
      return { before, after: next.settings };
    },
  });
}
