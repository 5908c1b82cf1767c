import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEventContext } from "@/lib/campaign/context";
import { committedSpendCents } from "@/lib/campaign/estimate";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { eventSettingsProblem, findEventBySlug } from "./event-lookup";
import { readEventSettings } from "./event-settings";
import { ensureHumaidScheme } from "@/lib/labels/schemes";

describe("readEventSettings", () => {
  it("fills the paper's defaults in and keeps what is set", () => {
    expect(readEventSettings({ name: "Maria", settings: {} })).toEqual(DEFAULT_PROCEDURE_SETTINGS);
    expect(readEventSettings({ name: "Maria", settings: null })).toEqual(DEFAULT_PROCEDURE_SETTINGS);
    expect(readEventSettings({ name: "Maria", settings: { maxJudgmentsPerTweet: 4 } }).maxJudgmentsPerTweet).toBe(4);
  });

  it("fails loudly with the event's name on a bad value, never falling back to defaults", () => {
    const bad = () => readEventSettings({ name: "Hurricane Maria", settings: { goldPerHit: "ten" } });
    expect(bad).toThrow(UserError);
    expect(bad).toThrow(/^The rule settings of event "Hurricane Maria" are invalid \(.*goldPerHit/);
    expect(() => readEventSettings({ name: "Harvey", settings: "{not json" })).toThrow(/event "Harvey".*not valid JSON/);
    try {
      bad();
    } catch (err) {
      expect((err as UserError).fieldErrors).toHaveProperty("goldPerHit");
    }
  });
});

describe("every reader of Event.settings applies it", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb("sqlite");
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("the pages, the campaign context and the spend estimate refuse a bad stored value", async () => {
    const schemeId = await ensureHumaidScheme(t.db);
    const event = await t.db.event.create({ data: { slug: "maria", name: "Hurricane Maria", type: "hurricane", schemeId, settings: { hitSize: -3 }, filters: {}, locations: [] } });
    const hit = await t.db.hit.create({ data: { eventId: event.id, seq: 1, status: "published", rewardCents: 10, maxAssignments: 3, provider: "mturk", uniqueRequestToken: "t1", seed: 1 } });
    expect(hit.id).toBeTruthy();
    await expect(findEventBySlug(t.db, "maria")).rejects.toThrow(/event "Hurricane Maria"/);
    await expect(loadEventContext(t.db, event.id)).rejects.toThrow(/event "Hurricane Maria"/);
    await expect(committedSpendCents(t.db, "USD", { eventId: event.id })).rejects.toThrow(/event "Hurricane Maria"/);
    expect(await eventSettingsProblem(t.db, "maria")).toMatch(/^The rule settings of event "Hurricane Maria" are invalid/);
    await t.db.event.update({ where: { id: event.id }, data: { settings: {} } });
    expect(await eventSettingsProblem(t.db, "maria")).toBeNull();
    expect((await findEventBySlug(t.db, "maria"))?.settings).toEqual(DEFAULT_PROCEDURE_SETTINGS);
  });
});
