import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertMany } from "@/lib/db/bulk";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { planGoldFromImport, requestGoldChange } from "@/lib/gold/gold-requests";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import type { Prisma } from "@/lib/db/client";

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

  it("two confirms that both got past the check queue the same previewed picks: N gold, not 2N", async () => {
    const choice = { importId, perClass: 5, seed: 3 };
    const plan = await planGoldFromImport(t.db, { eventId, ...choice });
    const request = { kind: "fromImport" as const, ...choice, planKey: plan.key };
    const first = await requestGoldChange(t.db, { eventId, actorId: null, request }, 0);
    expect(first.queued).toBe(true);
    const job = await t.db.job.findFirstOrThrow({ where: { type: JOBS.gold.type } });
    expect((job.payload as { picks?: unknown[] }).picks).toHaveLength(10);
    // what the other confirm of the same moment queued (the check and the enqueue are not one atomic step)
    await t.db.job.create({ data: { type: JOBS.gold.type, eventId, payload: job.payload as Prisma.InputJsonValue, maxAttempts: 2 } });
    expect(await drainJobs(t.db, { registry: accordJobs({ loadClassifier: null }), types: [JOBS.gold.type] })).toEqual(["succeeded", "succeeded"]);
    expect(await t.db.tweet.count({ where: { eventId, role: "gold" } })).toBe(10);
    expect((await t.db.tweet.findMany({ where: { eventId, role: "gold" }, select: { id: true } })).map((x) => x.id).sort()).toEqual(plan.picks.map((p) => p.id).sort());
  });
});
