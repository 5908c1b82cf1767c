import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { saveProlificTestMode } from "@/lib/crowd/prolific/settings";
import { eventCrowd } from "./event-crowd";

describe("an event's crowd as its pages show it", () => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it("marks Prolific events in test mode (the publish panel's 'Prolific test mode'), and no other crowd", async () => {
    t = await createTestDb("sqlite");
    expect(await eventCrowd(t.db, PROVIDER_KIND.prolific)).toEqual({ kind: "prolific", mode: "simulator", label: "Prolific simulator", production: false, testMode: false, currency: "GBP" });
    await saveProlificTestMode(t.db, true);
    expect(await eventCrowd(t.db, PROVIDER_KIND.prolific)).toMatchObject({ label: "Prolific simulator", testMode: true });
    expect((await eventCrowd(t.db, PROVIDER_KIND.mturk)).testMode).toBe(false);
    expect((await eventCrowd(t.db, PROVIDER_KIND.local)).testMode).toBe(false);
  });
});
