import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { buildManifest } from "@/lib/export/manifest";
import { DEFAULT_INGEST_SETTINGS, parseIngestSettings } from "@/lib/ingest/settings";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { createEvent } from "./create-event";
import { editIngestSettingsSchema, ingestFormValues, ingestSettingsFromForm } from "./ingest-form.validation";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { listSettingChanges } from "./setting-changes";
import { updateIngestSettings } from "./update-ingest-settings";
import { settingsBasis } from "./update-procedure-settings";

describe.each(testFlavors())("changing an event's upload filtering on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  let actor: { id: string; email: string };
  const labelMap = { "Not labeled": null, "Other Useful Information": "other_relevant_information" };
  beforeAll(async () => {
    t = await createTestDb(flavor);
    const user = await t.db.user.create({ data: { email: "pi@example.org", name: "PI", passwordHash: "x", role: "researcher" } });
    actor = { id: user.id, email: user.email };
    const schemeId = await ensureHumaidScheme(t.db);
    const filters = { ...DEFAULT_INGEST_SETTINGS, labels: { outsideScheme: "error", map: labelMap } };
    eventId = (await createEvent(t.db, { name: "Floods 2013", type: "flood", locations: [], schemeId, provider: "local", settings: DEFAULT_PROCEDURE_SETTINGS, filters }, { userId: user.id })).id;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function stored() {
    const e = await t.db.event.findUniqueOrThrow({ where: { id: eventId }, select: { filters: true } });
    return { filters: parseIngestSettings(e.filters), basis: settingsBasis(e.filters) };
  }
  const form = (values: Record<string, string | undefined>, basis: string, reason?: string) => editIngestSettingsSchema.parse({ ...values, eventId, basis, reason });

  it("records each changed filter (old → new, who, why) under the scope ingest, keeps the label map, and the manifest lists them", async () => {
    const before = await stored();
    const values = ingestFormValues(before.filters);
    const r = await updateIngestSettings(t.db, form({ ...values, minWords: "5", filterLocation: undefined, sampling: "on", samplingPerClass: "200", samplingBudget: "2000" }, before.basis, "pilot kept one-word tweets"), { actor });
    expect(r.changed).toBe(5);
    const after = await stored();
    expect(after.filters).toMatchObject({ wordCount: { minWords: 5 }, location: { enabled: false }, sampling: { enabled: true, perClass: 200, budget: 2000, seed: 1 }, labels: { map: labelMap } });
    const changes = await listSettingChanges(t.db, { eventId });
    expect(changes.map((c) => [c.scope, c.key, c.oldValue, c.newValue])).toEqual([
      ["ingest", "location.enabled", true, false],
      ["ingest", "sampling.budget", null, 2000],
      ["ingest", "sampling.enabled", false, true],
      ["ingest", "sampling.perClass", null, 200],
      ["ingest", "wordCount.minWords", 3, 5],
    ]);
    expect(changes[0]).toMatchObject({ by: "pi@example.org", reason: "pilot kept one-word tweets" });
    expect(await t.db.auditLog.count({ where: { eventId, action: "update-ingest-settings", actorId: actor.id } })).toBe(1);
    const manifest = await buildManifest(t.db, { eventIds: [eventId], seed: "s" });
    expect(manifest.events[0].settingChanges.slice(1).map((c) => c.key)).toEqual(changes.map((c) => c.key));
  });

  it("refuses a form older than the last change, one that changes nothing, and sampling without a size (next to its field)", async () => {
    const now = await stored();
    const values = ingestFormValues(now.filters);
    await expect(updateIngestSettings(t.db, form({ ...values, minWords: "4" }, settingsBasis(DEFAULT_INGEST_SETTINGS)), { actor })).rejects.toThrow(/changed this event's settings since you opened/);
    await expect(updateIngestSettings(t.db, form(values, now.basis), { actor })).rejects.toThrow(/Nothing changed/);
    const invalid = await updateIngestSettings(t.db, form({ ...values, samplingPerClass: "", samplingBudget: "" }, now.basis), { actor }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UserError);
    expect((invalid as UserError).fieldErrors?.samplingPerClass?.[0]).toMatch(/number per class or a budget/);
    expect(await t.db.settingChange.count({ where: { eventId } })).toBe(5);
  });
});

describe("the upload filtering form", () => {
  it("gives back the stored settings unchanged, and refuses values out of range", () => {
    const values = ingestFormValues(DEFAULT_INGEST_SETTINGS);
    const same = ingestSettingsFromForm(editIngestSettingsSchema.parse({ ...values, eventId: "e", basis: "0".repeat(64) }), DEFAULT_INGEST_SETTINGS);
    expect(same).toEqual({ ok: true, settings: DEFAULT_INGEST_SETTINGS });
    expect(editIngestSettingsSchema.safeParse({ ...values, eventId: "e", basis: "0".repeat(64), dedupeThreshold: "1.5" }).success).toBe(false);
    expect(editIngestSettingsSchema.safeParse({ ...values, eventId: "e", basis: "0".repeat(64), samplingPerClass: "-3" }).success).toBe(false);
  });
});
