import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { buildManifest } from "@/lib/export/manifest";
import { createEvent } from "./create-event";
import { readEventSettings } from "./event-settings";
import { procedureFormSchema, procedureFormValues, settingsFromForm } from "./procedure-form.validation";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { listSettingChanges } from "./setting-changes";
import { settingsBasis, updateProcedureSettings } from "./update-procedure-settings";

describe.each(testFlavors())("changing an event's procedure settings on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  let actor: { id: string; email: string };
  beforeAll(async () => {
    t = await createTestDb(flavor);
    const user = await t.db.user.create({ data: { email: "pi@example.org", name: "PI", passwordHash: "x", role: "researcher" } });
    actor = { id: user.id, email: user.email };
    const schemeId = await ensureHumaidScheme(t.db);
    eventId = (await createEvent(t.db, { name: "Flood 2026", type: "flood", locations: [], schemeId, provider: "local", settings: DEFAULT_PROCEDURE_SETTINGS }, { userId: user.id })).id;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function stored() {
    const e = await t.db.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, settings: true } });
    return { settings: readEventSettings(e), basis: settingsBasis(e.settings) };
  }
  const form = (values: Record<string, string | undefined>, basis: string, reason?: string) => ({ ...procedureFormSchema.parse(values), eventId, basis, reason });

  it("records each changed setting (old → new, who, why) and the manifest lists them after the event's creation", async () => {
    const before = await stored();
    const r = await updateProcedureSettings(
      t.db,
      form({ ...procedureFormValues(before.settings), hitSize: "20", goldPerHit: "5", assignmentApproval: "8/10", tweetAcceptance: "3/4", extensionPolicy: "dynamic-overlap" }, before.basis, "pilot"),
      { actor },
    );
    expect(r.settings).toMatchObject({ hitSize: 20, goldPerHit: 5, unknownPerHit: 15, assignmentApproval: { num: 8, den: 10 }, tweetAcceptance: { num: 3, den: 4 } });
    expect(r.settings.dynamicOverlap.enabled).toBe(true);
    const changes = await listSettingChanges(t.db, { eventId });
    expect(changes.map((c) => c.key)).toEqual(["assignmentApproval", "dynamicOverlap.enabled", "dynamicOverlap.maxDisagreements", "goldPerHit", "hitSize", "tweetAcceptance", "unknownPerHit"]);
    expect(changes.find((c) => c.key === "tweetAcceptance")).toMatchObject({ oldValue: { num: 2, den: 3 }, newValue: { num: 3, den: 4 }, by: "pi@example.org", reason: "pilot", scope: "procedure" });
    expect(r.changed).toBe(changes.length);
    expect((await stored()).settings).toEqual(r.settings);
    expect(await t.db.auditLog.count({ where: { eventId, action: "update-procedure-settings", actorId: actor.id } })).toBe(1);
    const manifest = await buildManifest(t.db, { eventIds: [eventId], seed: "s" });
    const listed = manifest.events[0].settingChanges;
    expect(listed[0]).toMatchObject({ scope: "event", key: "create-event", by: "pi@example.org", to: expect.objectContaining({ tweetAcceptance: { num: 2, den: 3 } }) });
    expect(listed.slice(1).map((c) => c.key)).toEqual(changes.map((c) => c.key));
  });

  it("refuses a form older than the last change, a form that changes nothing, and invalid rules (next to their field)", async () => {
    const now = await stored();
    const values = procedureFormValues(now.settings);
    await expect(updateProcedureSettings(t.db, form({ ...values, hitApproval: "12/15" }, settingsBasis(DEFAULT_PROCEDURE_SETTINGS)), { actor })).rejects.toThrow(/changed this event's settings since you opened/);
    await expect(updateProcedureSettings(t.db, form(values, now.basis), { actor })).rejects.toThrow(/Nothing changed/);
    const invalid = await updateProcedureSettings(t.db, form({ ...values, qualificationQuestions: "5", qualificationPass: "6" }, now.basis), { actor }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UserError);
    expect((invalid as UserError).fieldErrors?.qualificationPass?.[0]).toMatch(/cannot exceed/);
    expect(await t.db.settingChange.count({ where: { eventId } })).toBe(7);
  });

  it("keeps what the form does not show: a custom release policy, the dynamic overlap start", () => {
    const base = { ...DEFAULT_PROCEDURE_SETTINGS, release: { dropLabels: ["not_humanitarian", "dont_know_cant_judge"], minTweetsPerLabel: 10 }, dynamicOverlap: { enabled: true, initial: 2, maxDisagreements: 6 } };
    const keep = settingsFromForm(procedureFormSchema.parse({ ...procedureFormValues(base), keepDontKnow: "on" }), base);
    expect(keep.ok && keep.settings.release).toEqual({ dropLabels: ["not_humanitarian"], minTweetsPerLabel: 10 });
    const same = settingsFromForm(procedureFormSchema.parse(procedureFormValues(base)), base);
    expect(same.ok && same.settings.release).toEqual(base.release);
    expect(same.ok && same.settings.wholeRecordLevel).toBe(0.95);
    const level = settingsFromForm(procedureFormSchema.parse({ ...procedureFormValues(base), wholeRecordLevel: "99" }), base);
    expect(level.ok && level.settings.wholeRecordLevel).toBe(0.99);
  });

  it("chooses the gold rule that decides: per HIT by default, the whole record when selected, anything else refused", () => {
    expect(procedureFormValues(DEFAULT_PROCEDURE_SETTINGS).goldRule).toBe("per-hit");
    const whole = settingsFromForm(procedureFormSchema.parse({ ...procedureFormValues(DEFAULT_PROCEDURE_SETTINGS), goldRule: "whole-record", wholeRecordLevel: "90" }));
    expect(whole.ok && [whole.settings.goldRule, whole.settings.wholeRecordLevel]).toEqual(["whole-record", 0.9]);
    expect(whole.ok && procedureFormValues(whole.settings).goldRule).toBe("whole-record");
    expect(procedureFormSchema.safeParse({ goldRule: "per-worker" }).success).toBe(false);
  });
});
