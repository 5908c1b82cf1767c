import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertMany } from "@/lib/db/bulk";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { planGoldFromImport, requestGoldChange } from "./gold-requests";
import { ensureHumaidScheme } from "./schemes";

describe.each(testFlavors())("'Make N gold tweets' applies once (%s)", (flavor) => {
  let t: TestDb;
  let eventId: string;
  let importId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    const schemeId = await ensureHumaidScheme(t.db);
    eventId = (await t.db.event.create({ data: { slug: "g", name: "g", type: "flood", schemeId, settings: {}, filters: {}, locations: [] } })).id;
    importId = (await t.db.importBatch.create({ data: { eventId, kind: "tweets", fileName: "f.csv", fileHash: "h", fileSize: 1, status: "completed", rowsRead: 40, rowsStored: 40 } })).id;
    const labels = ["caution_and_advice", "sympathy_and_support"];
    await insertMany(
      t.db,
      "Tweet",
      Array.from({ length: 40 }, (_, i) => ({ eventId, importId, externalId: String(2_000_000 + i), text: `flood tweet ${i}`, sourceLabel: labels[i % 2], createdAt: new Date() })),
    );
  });
  afterEach(async () => t.cleanup());

  it("refuses a second confirm of the same preview, and leaves the gold as the first made it", async () => {
    const choice = { importId, perClass: 5, seed: 3 };
    const plan = await planGoldFromImport(t.db, { eventId, ...choice });
    expect(plan.picks).toHaveLength(10);
    const request = { kind: "fromImport" as const, ...choice, planKey: plan.key };
    const first = await requestGoldChange(t.db, { eventId, actorId: null, request });
    expect(first.message).toContain("10 marked as gold");
    await expect(requestGoldChange(t.db, { eventId, actorId: null, request })).rejects.toMatchObject({ code: "stale_preview" });
    expect(await t.db.tweet.count({ where: { eventId, role: "gold" } })).toBe(10);
    // A new preview names other tweets, under another key: that one applies.
    const next = await planGoldFromImport(t.db, { eventId, ...choice });
    expect(next.key).not.toBe(plan.key);
    await requestGoldChange(t.db, { eventId, actorId: null, request: { ...request, planKey: next.key } });
    expect(await t.db.tweet.count({ where: { eventId, role: "gold" } })).toBe(20);
  });
});
