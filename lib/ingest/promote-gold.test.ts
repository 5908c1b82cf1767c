import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import type { Funnel } from "./funnel";
import { createImport, IMPORT_JOB_TYPE } from "./import-job";
import { getImport } from "./import-queries";
import { tempFiles } from "./testing/test-io";
import { validateRows } from "./validate";
import { createHumaidEvent } from "./testing/humaid-event";

// Issue 19 (2c): a gold upload whose tweets are stored already promotes them to gold with the file's label.

const files = tempFiles("accord-promote-");
afterAll(() => files.cleanup());
const registry = accordJobs({ loadClassifier: null });

async function runImport(db: Db, { eventId, filePath, kind }: { eventId: string; filePath: string; kind: "tweets" | "gold" }) {
  const created = await createImport({ db, eventId, kind, fileName: path.basename(filePath), filePath, userId: null });
  await drainJobs(db, { registry, types: [IMPORT_JOB_TYPE] });
  const view = await getImport(db, { importId: created.importId });
  if (!view) throw new Error("import missing");
  return view;
}

const LABELLED =
  "tweet_id,text,label\n" +
  "1,Families evacuated from the flooded neighbourhood tonight,displaced_people_and_evacuations\n" +
  "2,Thoughts and prayers to everyone affected by the storm,sympathy_and_support\n" +
  "3,Volunteers are sorting donations at the church hall,rescue_volunteering_or_donation_effort\n";

describe.each(testFlavors())("gold uploads of stored tweets on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    eventId = (await createHumaidEvent(t.db, "promo", { type: "flood" })).id;
  });
  afterEach(async () => t.cleanup());

  it("promotes unknown tweets not yet in a HIT, refuses those packed as unknown, and counts it in the funnel", async () => {
    await runImport(t.db, { eventId, kind: "tweets", filePath: files.write("pool.csv", LABELLED) });
    await t.db.tweet.update({ where: { eventId_externalId: { eventId, externalId: "3" } }, data: { status: "in_hit" } });
    const view = await runImport(t.db, {
      eventId,
      kind: "gold",
      filePath: files.write("gold.csv", "tweet_id,text,label\n1,Families evacuated,caution_and_advice\n3,Volunteers,not_humanitarian\n9,A new gold tweet about road closures,caution_and_advice\n"),
    });
    expect(view).toMatchObject({ status: "completed", rowsRead: 3, rowsStored: 2, errorCount: 1 });
    expect(view.message).toMatch(/promoted to gold: 1/);
    const stored = (view.funnel as Funnel).find((s) => s.step === "stored");
    expect(stored).toMatchObject({ kept: 2, details: { "promoted to gold": 1 } });
    const tweets = await t.db.tweet.findMany({ where: { eventId }, orderBy: { externalId: "asc" }, select: { externalId: true, role: true, goldLabel: true, status: true } });
    expect(tweets).toEqual([
      { externalId: "1", role: "gold", goldLabel: "caution_and_advice", status: "pending" },
      { externalId: "2", role: "unknown", goldLabel: null, status: "pending" },
      { externalId: "3", role: "unknown", goldLabel: null, status: "in_hit" },
      { externalId: "9", role: "gold", goldLabel: "caution_and_advice", status: "pending" },
    ]);
    const errors = await t.db.importError.findMany({ where: { importId: view.id } });
    expect(errors.map((e) => e.reason)).toEqual(["id 3 is already in a HIT as an unknown tweet: it cannot become gold"]);
    const audit = await t.db.auditLog.findMany({ where: { eventId, action: "mark-gold" } });
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ externalId: "1", label: "caution_and_advice" });
  });

  it("the same labelled file uploaded as gold promotes its tweets instead of saying 'already imported'", async () => {
    const file = files.write("labelled.csv", LABELLED);
    await runImport(t.db, { eventId, kind: "tweets", filePath: file });
    const view = await runImport(t.db, { eventId, kind: "gold", filePath: file });
    expect(view).toMatchObject({ status: "completed", rowsRead: 3, rowsStored: 3, errorCount: 0 });
    expect(view.message).not.toMatch(/already imported/);
    expect(await t.db.tweet.count({ where: { eventId, role: "gold" } })).toBe(3);
    // A second gold upload of the same file adds nothing.
    expect((await runImport(t.db, { eventId, kind: "gold", filePath: file })).message).toMatch(/already imported/);
  });
});

describe("validating a gold file against stored tweets", () => {
  const scheme = { values: ["a", "b"] };
  const rows = () => ["1", "2", "3", "4"].map((id, i) => ({ line: i + 2, externalId: id, text: `t${id}`, label: "a" }));
  it("lets rows of stored unknown tweets not yet in a HIT through, refuses packed ones, keeps 'already imported' for the rest", () => {
    const out = validateRows(rows(), { kind: "gold", scheme, storedIds: new Set(["1", "2", "3"]), goldPromotion: { promotable: new Set(["1"]), inHit: new Set(["2"]) } });
    expect(out.rows.map((r) => r.externalId)).toEqual(["1", "4"]);
    expect(out.errors.map((e) => e.reason)).toEqual(["id 2 is already in a HIT as an unknown tweet: it cannot become gold", "id 3 is already imported for this event"]);
  });
});
