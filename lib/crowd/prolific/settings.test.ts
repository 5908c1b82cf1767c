import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { getProlificSettings, getProlificToken, PROLIFIC_SIMULATOR_TOKEN, saveProlificSettings } from "./settings";
import { getProlificWebhookRecord, getProlificWebhookSecret, hasProlificWebhookSecret, saveProlificWebhookRecord } from "./webhook-settings";

describe("Prolific's settings", () => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it("stores the token encrypted, shows only whether there is one, and keeps it when the field is left empty", async () => {
    t = await createTestDb("sqlite");
    expect(await getProlificSettings(t.db)).toEqual({ mode: "simulator", simulatorUrl: "http://127.0.0.1:9410", hasToken: false, workspaceId: "", projectId: "", testMode: false, testParticipant: null });
    // The simulator's own token until one is entered; production has none.
    expect(await getProlificToken(t.db, "simulator")).toBe(PROLIFIC_SIMULATOR_TOKEN);
    expect(await getProlificToken(t.db, "production")).toBeNull();

    const token = "pk_live_0123456789abcdefSECRET";
    await saveProlificSettings(t.db, { mode: "production", token, workspaceId: "60a1b2c3d4e5f60718293a4b" });
    const settings = await getProlificSettings(t.db);
    expect(settings).toMatchObject({ mode: "production", hasToken: true, workspaceId: "60a1b2c3d4e5f60718293a4b" });
    expect(JSON.stringify(settings)).not.toContain("SECRET");
    const row = await t.db.setting.findUniqueOrThrow({ where: { key: "prolific.token" } });
    expect(row.secret).toBeTruthy();
    expect(row.secret).not.toContain("SECRET");
    expect(await getProlificToken(t.db, "production")).toBe(token);

    await saveProlificSettings(t.db, { mode: "production", token: "" });
    expect(await getProlificToken(t.db, "production")).toBe(token);
    await expect(saveProlificSettings(t.db, { mode: "production", workspaceId: "not an id" })).rejects.toThrow();
  });

  it("stores the webhook secret sealed (entered by an admin or created by Accord), never among the settings shown", async () => {
    t = await createTestDb("sqlite");
    expect(await getProlificWebhookSecret(t.db)).toBeNull();
    expect(await hasProlificWebhookSecret(t.db)).toBe(false);
    expect(await getProlificWebhookRecord(t.db)).toBeNull();
    await saveProlificSettings(t.db, { mode: "production", workspaceId: "60a1b2c3d4e5f60718293a4b", webhookSecret: "whsec-HOOKSECRET" });
    expect(await getProlificWebhookSecret(t.db)).toEqual({ secret: "whsec-HOOKSECRET", workspaceId: "60a1b2c3d4e5f60718293a4b" });
    expect(JSON.stringify(await getProlificSettings(t.db))).not.toContain("HOOKSECRET");
    expect(await hasProlificWebhookSecret(t.db)).toBe(true);
    const row = await t.db.setting.findUniqueOrThrow({ where: { key: "prolific.webhookSecret" } });
    expect(row.secret).not.toContain("HOOKSECRET");
    // An empty field keeps it.
    await saveProlificSettings(t.db, { mode: "production", webhookSecret: "" });
    expect((await getProlificWebhookSecret(t.db))?.secret).toBe("whsec-HOOKSECRET");
    const record = { workspaceId: "60a1b2c3d4e5f60718293a4b", targetUrl: "https://accord.example.org/api/prolific/webhook", subscriptions: { "study.status.change": "s1" }, at: "2026-12-02T08:00:00.000Z" };
    await saveProlificWebhookRecord(t.db, record);
    expect(await getProlificWebhookRecord(t.db)).toEqual(record);
  });
});
