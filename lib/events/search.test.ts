import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { listTweets, tweetQuerySchema } from "./tweets";
import { listWorkers, workerQuerySchema } from "./workers";

describe.each(testFlavors())("search takes %% and _ literally, on %s", (flavor) => {
  let t: TestDb;
  let eventId = "";
  beforeAll(async () => {
    t = await createTestDb(flavor);
    const schemeId = await ensureHumaidScheme(t.db);
    eventId = (await t.db.event.create({ data: { slug: "search", name: "Search", type: "flood", locations: [], schemeId, settings: {}, filters: {} } })).id;
    const texts = ["shelter is 100% full", "shelter is 1000 full", "road_closed at exit 4", "roadXclosed at exit 5", "back\\slash here"];
    await t.db.tweet.createMany({ data: texts.map((text, i) => ({ eventId, externalId: String(1000 + i), text })) });
    await t.db.worker.createMany({ data: ["A_1", "AB1", "A%2", "AXX2"].map((externalId) => ({ provider: "mturk", externalId })) });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  const texts = async (q: string) => (await listTweets(t.db, eventId, tweetQuerySchema.parse({ q }))).rows.map((r) => r.text).sort();
  const workers = async (q: string) => (await listWorkers(t.db, workerQuerySchema.parse({ q }))).rows.map((r) => r.externalId).sort();

  it("finds tweets by the literal characters", async () => {
    expect(await texts("100%")).toEqual(["shelter is 100% full"]);
    expect(await texts("road_closed")).toEqual(["road_closed at exit 4"]);
    expect(await texts("%")).toEqual(["shelter is 100% full"]);
    expect(await texts("_")).toEqual(["road_closed at exit 4"]);
    expect(await texts("\\")).toEqual(["back\\slash here"]);
    expect(await texts("ROAD_")).toEqual(["road_closed at exit 4"]);
  });

  it("finds workers by the literal characters", async () => {
    expect(await workers("A_")).toEqual(["A_1"]);
    expect(await workers("%")).toEqual(["A%2"]);
  });
});
