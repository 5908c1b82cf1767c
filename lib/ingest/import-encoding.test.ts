import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { createImport, IMPORT_JOB_TYPE } from "./import-job";
import { tempFiles } from "./testing/test-io";

const files = tempFiles("accord-import-encoding-");
afterAll(() => files.cleanup());
const registry = accordJobs({ loadClassifier: null });

describe.each(testFlavors())("an import's encoding notice on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("names how many rows were decoded as Windows-1252, and stores them decoded", async () => {
    const schemeId = await ensureHumaidScheme(t.db);
    const filters = { language: { enabled: false }, duplicates: { enabled: false }, wordCount: { enabled: false } };
    const event = await t.db.event.create({ data: { slug: "lat", name: "lat", type: "flood", schemeId, settings: {}, filters, locations: [] } });
    const latin1 = Buffer.from(
      "tweet_id,tweet_text\n901646074527535101,Café fermé près du fleuve\n901646074527535102,Brücke gesperrt\n901646074527535103,Señales de evacuación\n901646074527535104,plain ascii\n",
      "latin1",
    );
    const { importId } = await createImport({ db: t.db, eventId: event.id, kind: "tweets", fileName: "latin1.csv", filePath: files.write("latin1.csv", latin1) });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    const batch = await t.db.importBatch.findUniqueOrThrow({ where: { id: importId } });
    expect(batch).toMatchObject({ status: "completed", rowsRead: 4, rowsStored: 4, errorCount: 0 });
    expect(batch.message).toContain("decoded as Windows-1252: 3 rows");
    const texts = await t.db.tweet.findMany({ orderBy: { externalId: "asc" }, select: { text: true } });
    expect(texts.map((x) => x.text)).toEqual(["Café fermé près du fleuve", "Brücke gesperrt", "Señales de evacuación", "plain ascii"]);
  });
});
