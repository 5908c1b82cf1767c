import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { getProlificCurrencyRecord, saveProlificCurrency } from "@/lib/crowd/prolific/currency";
import { eventCrowd } from "./event-crowd";
import { crowdCurrencies, crowdCurrency } from "./event-currency";

describe.each(testFlavors())("an event's currency, read from Accord's settings (%s)", (flavor) => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it("is USD for MTurk and the in-house crowd, and Prolific's GBP until the workspace's currency is recorded", async () => {
    t = await createTestDb(flavor);
    expect(await crowdCurrency(t.db, PROVIDER_KIND.mturk)).toBe("USD");
    expect(await crowdCurrency(t.db, PROVIDER_KIND.local)).toBe("USD");
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("GBP");
    expect(await getProlificCurrencyRecord(t.db)).toBeNull();
  });

  it("follows the recorded workspace currency for Prolific events only, on event pages and on lists", async () => {
    t = await createTestDb(flavor);
    await saveProlificCurrency(t.db, { workspaceId: "60a1b2c3d4e5f60718293a4b", currency: "eur" });
    expect(await getProlificCurrencyRecord(t.db)).toEqual({ workspaceId: "60a1b2c3d4e5f60718293a4b", currency: "EUR" });
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("EUR");
    expect((await eventCrowd(t.db, PROVIDER_KIND.prolific)).currency).toBe("EUR");
    expect((await eventCrowd(t.db, PROVIDER_KIND.mturk)).currency).toBe("USD");
    const of = await crowdCurrencies(t.db);
    expect([of(PROVIDER_KIND.prolific), of(PROVIDER_KIND.mturk), of(PROVIDER_KIND.local)]).toEqual(["EUR", "USD", "USD"]);
    // A later workspace (Settings changed) replaces it.
    await saveProlificCurrency(t.db, { workspaceId: "70a1b2c3d4e5f60718293a4b", currency: "USD" });
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("USD");
  });

  it("refuses a value that is not a currency code, and ignores a corrupt stored one", async () => {
    t = await createTestDb(flavor);
    await expect(saveProlificCurrency(t.db, { workspaceId: "w", currency: "pounds" })).rejects.toThrow(/ISO 4217/);
    await t.db.setting.create({ data: { key: "prolific.workspaceCurrency", value: { currency: 12 } } });
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("GBP");
  });
});
