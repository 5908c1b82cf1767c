import { afterEach, describe, expect, it } from "vitest";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { startProlificSimulator, type RunningProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { crowdCurrency } from "@/lib/events/event-currency";
import { getProlificCurrencyRecord } from "@/lib/crowd/prolific/currency";
import { saveProlificSettings } from "@/lib/crowd/prolific/settings";
import { recordProlificCurrency } from "@/lib/crowd/prolific/record-currency";
import { getProlificProvider } from "./providers";

describe.each(testFlavors())("the Prolific workspace's currency is recorded when the provider resolves it (%s)", (flavor) => {
  let t: TestDb;
  let sim: RunningProlificSimulator | null = null;
  afterEach(async () => {
    await sim?.stop();
    sim = null;
    await t?.cleanup();
  });

  it("records a USD workspace's currency, so its events show dollars without calling Prolific", async () => {
    t = await createTestDb(flavor);
    sim = await startProlificSimulator({ clock: new ManualClock(), balance: 100_000, currency: "USD" });
    await saveProlificSettings(t.db, { mode: "simulator", simulatorUrl: sim.url });
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("GBP");
    const provider = await getProlificProvider(t.db);
    expect(provider.kind).toBe(PROVIDER_KIND.prolific);
    expect(await getProlificCurrencyRecord(t.db)).toEqual({ workspaceId: sim.state.workspace.id, currency: "USD" });
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("USD");
  });

  it("keeps the last recorded currency and logs when Prolific cannot say", async () => {
    t = await createTestDb(flavor);
    sim = await startProlificSimulator({ clock: new ManualClock(), balance: 100_000, currency: "GBP" });
    const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl });
    await recordProlificCurrency(t.db, client, sim.state.workspace.id);
    expect(await getProlificCurrencyRecord(t.db)).toEqual({ workspaceId: sim.state.workspace.id, currency: "GBP" });
    const logs: string[] = [];
    const refused = new ProlificClient({ token: "not-the-token", baseUrl: sim.apiUrl });
    await recordProlificCurrency(t.db, refused, sim.state.workspace.id, (m) => logs.push(m));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/currency is not recorded/);
    expect(await crowdCurrency(t.db, PROVIDER_KIND.prolific)).toBe("GBP");
  });
});
