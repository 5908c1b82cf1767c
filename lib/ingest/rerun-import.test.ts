import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import type { Funnel } from "./funnel";
import { createImport, IMPORT_JOB_TYPE } from "./import-job";
import { cancelImport, getImport } from "./import-queries";
import { deleteImportFile, requestImportRerun } from "./rerun-import";
import { tempDataDirForTests } from "./testing/upload-dir";
import { saveUpload } from "./uploads";
import { createHumaidEvent } from "./testing/humaid-event";

tempDataDirForTests("accord-rerun-");
const registry = accordJobs({ loadClassifier: null });

// Steps that would make the outcome depend on detection or dates are off: the word count is the one that changes.
const FILTERS = { date: { enabled: false }, location: { enabled: false }, language: { enabled: false }, duplicates: { enabled: false } };

const FILE =
  "tweet_id\ttweet_text\tclass_label\n" +
  "901646074527535101\tRoads flooded near downtown Houston, please stay inside tonight\tcaution_and_advice\n" +
  "901646074527535102\tShelter needs volunteers\trescue_volunteering_or_donation_effort\n" +
  "901646074527535103\tPower lines down across the whole east side of town\tinfrastructure_and_utility_damage\n" +
  "901646074527535104\tStay safe everyone\tsympathy_and_support\n" +
  "not a valid id\tA row with a broken id\tnot_humanitarian\n";

/** Writes `text` as an upload (under the data dir, as the upload route does) and imports it. */
async function upload(db: Db, eventId: string, text: string, fileName: string) {
  const bytes = new TextEncoder().encode(text);
  const saved = await saveUpload(new Blob([bytes]).stream(), { limit: 1_000_000 });
  const created = await createImport({ db, eventId, kind: "tweets", fileName, filePath: saved.filePath });
  await drainJobs(db, { registry, types: [IMPORT_JOB_TYPE] });
  return { ...created, filePath: saved.filePath };
}

async function setMinWords(db: Db, eventId: string, minWords: number) {
  await db.event.update({ where: { id: eventId }, data: { filters: { ...FILTERS, wordCount: { enabled: true, minWords } } } });
}

const ids = async (db: Db, importId: string) => (await db.tweet.findMany({ where: { importId }, orderBy: { externalId: "asc" }, select: { externalId: true } })).map((t) => t.externalId);

describe.each(testFlavors())("re-running an import on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    eventId = (await createHumaidEvent(t.db, "harvey", { filters: FILTERS })).id;
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("replaces the import's tweets with what the current settings keep, from the kept upload, as a recorded job", async () => {
    await setMinWords(t.db, eventId, 3);
    const first = await upload(t.db, eventId, FILE, "floods.tsv");
    expect(await ids(t.db, first.importId)).toEqual(["901646074527535101", "901646074527535102", "901646074527535103", "901646074527535104"]);
    expect(fs.existsSync(first.filePath)).toBe(true); // kept for re-runs (no retention set)

    await setMinWords(t.db, eventId, 5);
    const rerun = await requestImportRerun(t.db, { importId: first.importId, eventId });
    // Until the job has stored, the last run stays as it was.
    expect(await ids(t.db, first.importId)).toHaveLength(4);
    expect((await getImport(t.db, { importId: first.importId }))?.status).toBe("queued");
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);

    const view = await getImport(t.db, { importId: first.importId });
    expect(view).toMatchObject({ status: "completed", rowsRead: 5, rowsStored: 2, errorCount: 1 });
    expect(view?.job?.id).toBe(rerun.jobId);
    expect(view?.message).toMatch(/^Re-run with the event's current settings: 2 tweets stored; 1 row with errors/);
    const words = (view?.funnel as Funnel).find((s) => s.step === "wordCount");
    expect(words).toMatchObject({ in: 4, kept: 2, removed: 2 });
    expect(await ids(t.db, first.importId)).toEqual(["901646074527535101", "901646074527535103"]);
    expect(await t.db.importError.count({ where: { importId: first.importId } })).toBe(1); // replaced, not added to
    expect(await t.db.importBatch.count()).toBe(1);
    expect((await t.db.auditLog.findMany({ where: { entityId: first.importId }, orderBy: { at: "asc" }, select: { action: true } })).map((a) => a.action)).toEqual([
      "upload",
      "import",
      "request-rerun",
      "rerun",
    ]);

    // A later upload sharing an id says which upload and row it came from.
    const other = await upload(t.db, eventId, "tweet_id\ttweet_text\n901646074527535103\tPower lines down across the whole east side\n", "more.tsv");
    const errors = await t.db.importError.findMany({ where: { importId: other.importId }, select: { reason: true } });
    expect(errors.map((e) => e.reason)).toEqual(["id 901646074527535103 is already imported (row 4 of floods.tsv)"]);

    // The researcher deletes the kept file: no more re-runs.
    await deleteImportFile(t.db, { importId: first.importId, eventId });
    expect(fs.existsSync(first.filePath)).toBe(false);
    await expect(requestImportRerun(t.db, { importId: first.importId })).rejects.toThrow(/no longer kept/);
  });

  it("is refused while a tweet of the import is gold or in a HIT, and a re-run that meets one stores nothing", async () => {
    await setMinWords(t.db, eventId, 3);
    const first = await upload(t.db, eventId, FILE, "floods.tsv");
    const [a, b] = await t.db.tweet.findMany({ where: { importId: first.importId }, orderBy: { externalId: "asc" } });
    await t.db.tweet.update({ where: { id: a.id }, data: { role: "gold", goldLabel: "caution_and_advice" } });
    await t.db.tweet.update({ where: { id: b.id }, data: { status: "in_hit" } });
    await expect(requestImportRerun(t.db, { importId: first.importId })).rejects.toThrow('"floods.tsv" cannot be re-run: of its tweets, 1 is gold and 1 is already in a HIT, and a re-run would replace them all.');
    await t.db.tweet.update({ where: { id: a.id }, data: { role: "unknown", goldLabel: null } });
    await t.db.tweet.update({ where: { id: b.id }, data: { status: "pending" } });

    // Allowed now; but a tweet becomes gold before the job stores: the transaction refuses, the last run stays whole.
    await setMinWords(t.db, eventId, 5);
    await requestImportRerun(t.db, { importId: first.importId });
    await expect(requestImportRerun(t.db, { importId: first.importId })).rejects.toThrow(/Only a completed import can be re-run; "floods.tsv" is queued/);
    await t.db.tweet.update({ where: { id: a.id }, data: { role: "gold", goldLabel: "caution_and_advice" } });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["failed"]);
    const view = await getImport(t.db, { importId: first.importId });
    expect(view).toMatchObject({ status: "completed", rowsStored: 4 });
    expect(view?.message).toMatch(/^The re-run failed; the tweets of the last run are kept\. "floods\.tsv" cannot be re-run: of its tweets, 1 is gold/);
    expect(await ids(t.db, first.importId)).toHaveLength(4);
    expect(await t.db.importBatch.findUniqueOrThrow({ where: { id: first.importId }, select: { activeKey: true } })).toEqual({ activeKey: null });

    // A re-run cancelled before it started leaves the import completed with its tweets.
    await t.db.tweet.update({ where: { id: a.id }, data: { role: "unknown", goldLabel: null } });
    await requestImportRerun(t.db, { importId: first.importId });
    await cancelImport(t.db, { importId: first.importId });
    expect(await getImport(t.db, { importId: first.importId })).toMatchObject({ status: "completed", rowsStored: 4, message: "The re-run was cancelled before it started; the tweets of the last run are kept." });
    expect(await ids(t.db, first.importId)).toHaveLength(4);

    // A second upload of the same file added nothing: it cannot be re-run (the first one can).
    const same = await upload(t.db, eventId, FILE, "floods-again.tsv");
    expect(fs.existsSync(same.filePath)).toBe(false); // the first import keeps the same bytes
    await expect(requestImportRerun(t.db, { importId: same.importId })).rejects.toThrow(/added nothing: it is the same file as the earlier import "floods.tsv"/);
  });
});
