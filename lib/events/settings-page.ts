import "server-only";
import type { Db } from "@/lib/db/client";
import { parseIngestSettings } from "@/lib/ingest/settings";
import { findEventBySlug } from "./event-lookup";
import { loadGoldRuleRisk } from "@/lib/gold/gold-rule-risk";
import { ingestFormValues } from "./ingest-form.validation";
import { listSettingChanges } from "./setting-changes";
import { settingsBasis } from "./update-procedure-settings";

/** What an event's Settings page reads: the event, its stored settings' fingerprints (rules, upload filtering), the gold rule's risk, the history. */
export async function loadSettingsPage(db: Db, slug: string) {
  const event = await findEventBySlug(db, slug);
  if (!event) return null;
  const [stored, labels, goldRisk, changes] = await Promise.all([
    db.event.findUniqueOrThrow({ where: { id: event.id }, select: { settings: true, filters: true } }),
    db.label.count({ where: { schemeId: event.scheme.id } }),
    loadGoldRuleRisk(db, { id: event.id, schemeId: event.scheme.id, settings: event.settings }),
    listSettingChanges(db, { eventId: event.id }),
  ]);
  const ingest = { basis: settingsBasis(stored.filters), values: ingestFormValues(parseIngestSettings(stored.filters)) };
  return { event, basis: settingsBasis(stored.settings), ingest, labels, goldRisk, changes };
}
