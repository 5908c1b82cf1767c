import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertMany } from "@/lib/db/bulk";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import type { JobContext } from "@/lib/jobs/runner";
import { drainJobs } from "@/lib/jobs/runner";
import { listGoldJobs } from "./gold-jobs";
import type { GoldJobPayload } from "./gold.validation";
import { requestGoldChange, runGoldJob } from "./gold-requests";
import { ensureHumaidScheme } from "@/lib/labels/schemes";

const TWEETS = 1_100;

describe.each(testFlavors())("bulk gold jobs on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    const schemeId = await ensureHumaidScheme(t.db);
    eventId = (await t.db.event.create({ data: { slug: "g", name: "g", type: "flood", schemeId, settings: {}, filters: {}, locations: [] } })).id;
    const now = new Date();
    await insertMany(
      t.db,
      "Tweet",
      Array.from({ length: TWEETS }, (_, i) => ({ eventId, externalId: String(1_000_000 + i), text: `flood tweet ${i}`, sourceLabel: "caution_and_advice", createdAt: now })),
    );
  });
  afterEach(async () => t.cleanup());

  const payload = (): GoldJobPayload => ({ eventId, actorId: null, request: { kind: "filter", mode: "mark", goldLabel: null, filter: {} } });

  it("reports its progress chunk by chunk, the last one always recorded", async () => {
    const calls: Array<[number, number | null | undefined, boolean | undefined]> = [];
    const ctx = {
      db: t.db,
      progress: async (done: number, total?: number | null, _message?: string, force?: boolean) => {
        calls.push([done, total, force]);
      },
    } as unknown as JobContext;
    const result = await runGoldJob(ctx, payload());
    expect(calls).toEqual([
      [0, null, true],
      [500, TWEETS, false],
      [1_000, TWEETS, false],
      [TWEETS, TWEETS, true],
    ]);
    expect(result).toMatchObject({ changed: TWEETS, message: "1100 marked as gold." });
  });

  it("the Data tab lists a queued job, then its recorded progress and result", async () => {
    const queued = await requestGoldChange(t.db, payload());
    expect(queued.queued).toBe(true); // over the inline limit
    const [before] = await listGoldJobs(t.db, eventId);
    expect(before).toMatchObject({ what: "mark as gold: tweets matching the filters", result: null, progress: { state: "queued", done: 0, total: null } });

    expect(await drainJobs(t.db, { registry: accordJobs({ loadClassifier: null }), types: [JOBS.gold.type] })).toEqual(["succeeded"]);
    const [after] = await listGoldJobs(t.db, eventId);
    expect(after.id).toBe(before.id);
    expect(after.progress).toMatchObject({ state: "succeeded", done: TWEETS, total: TWEETS });
    expect(after.progress.message).toBe("mark as gold: tweets matching the filters: 1,100 of 1,100 tweets");
    expect(after.result).toBe("1100 marked as gold.");
    expect(after.finishedAt).not.toBeNull();
  });
});
