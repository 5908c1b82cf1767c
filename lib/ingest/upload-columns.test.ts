import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { IMPORT_JOB_TYPE } from "./import-job";
import { requestImportRerun } from "./rerun-import";
import { type ColumnPreviewBody } from "./column-preview";
import { saveUploadColumns } from "./column-map";
import { importWithColumns, saveUploadAndImport } from "./save-upload";
import { parseIngestSettings } from "./settings";
import { tweetEvalTsv } from "./tweeteval";
import { uploadTweetEvalSet } from "./tweeteval-upload";
import { crowdflowerTweets } from "./testing/unrecognised-columns";
import { tempDataDirForTests } from "./testing/upload-dir";
import { createHumaidEvent } from "./testing/humaid-event";

const dataDir = tempDataDirForTests("accord-upload-columns-");
const registry = accordJobs({ loadClassifier: null });
const actor = { id: "", email: "r@example.org" };

function upload(eventId: string, name: string, text: string, extra: Record<string, string> = {}): Request {
  const bytes = new TextEncoder().encode(text);
  return new Request(`http://localhost/api/imports?${new URLSearchParams({ eventId, kind: "tweets", name, ...extra })}`, { method: "POST", body: bytes, headers: { "content-length": String(bytes.length) } });
}

async function formRequest(url: string, files: Array<[string, string]>): Promise<Request> {
  const form = new FormData();
  for (const [name, text] of files) form.append("files", new Blob([text]), name);
  const draft = new Request(url, { method: "POST", body: form });
  const bytes = new Uint8Array(await draft.arrayBuffer());
  return new Request(url, { method: "POST", body: bytes, headers: { "content-type": draft.headers.get("content-type") ?? "", "content-length": String(bytes.length) } });
}

async function setup(db: Db) {
  const event = await createHumaidEvent(db, "sandy");
  const user = await db.user.create({ data: { email: actor.email, name: "R", passwordHash: "x" } });
  return { event, userId: user.id, actor: { id: user.id, email: actor.email } };
}

describe.each(testFlavors())("tweet uploads whose columns Accord does not recognise, on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    fs.rmSync(path.join(dataDir, "uploads"), { recursive: true, force: true });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("previews the file instead of refusing it; the chosen columns import it, are remembered, and a re-run uses them", async () => {
    const { event, userId, actor } = await setup(t.db);
    // 1. The upload: a preview (header, first rows with the multi-line text, what is missing), nothing imported.
    const first = await saveUploadAndImport(t.db, upload(event.id, "sandy-units.csv", crowdflowerTweets({ rows: 4, malformed: true })), { userId });
    expect(first.status).toBe(200);
    const shown = first.body as ColumnPreviewBody;
    expect(shown.message).toMatch(/does not recognise the tweet id column of sandy-units\.csv/);
    expect(shown.preview).toMatchObject({ format: "csv", missing: ["id"], proposed: { text: "tweet" } });
    expect(shown.preview.header).toEqual(["_unit_id", "_golden", "tweet_no", "tweet", "choose_one_category", "tweet_created", "tweet_location"]);
    expect(shown.preview.rows).toHaveLength(5);
    expect(shown.preview.rows[0][3]).toBe("Bridge on route nine closed, water over the road.\nAvoid the area tonight");
    expect(await t.db.importBatch.count()).toBe(0);

    // 2. A mapping naming a column the file does not have is refused, naming it; so is one column for two fields.
    const start = (columns: Record<string, string | null>) => importWithColumns(t.db, { eventId: event.id, kind: "tweets", upload: shown.upload, fileName: shown.fileName, columns }, { userId, actor });
    const missing = await start({ id: "tweet_number", text: "tweet" });
    expect(missing).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^"sandy-units\.csv" has no column "tweet_number"/) } });
    expect(await start({ id: "tweet", text: "tweet" })).toMatchObject({ status: 400, body: { error: 'text column: "tweet" is already the id column.' } });
    expect(await start({ id: "x", text: "tweet", label: "a".repeat(201) })).toMatchObject({ status: 400 });
    const gold = await importWithColumns(t.db, { eventId: event.id, kind: "gold", upload: shown.upload, fileName: shown.fileName, columns: { id: "tweet_no", text: "tweet" } }, { userId, actor });
    expect(gold).toMatchObject({ status: 400, body: { error: "label column: a gold file needs the column of its expert labels." } });
    expect(await t.db.importBatch.count()).toBe(0);

    // 3. The researcher's columns: saved on the event (a recorded setting change), the import runs as a job.
    const started = await start({ id: "tweet_no", text: "tweet", label: "choose_one_category", date: "tweet_created", location: null });
    expect(started.status).toBe(201);
    expect(parseIngestSettings((await t.db.event.findUniqueOrThrow({ where: { id: event.id } })).filters).columns).toEqual({ id: "tweet_no", text: "tweet", label: "choose_one_category", date: "tweet_created", location: null });
    expect(await t.db.settingChange.count({ where: { eventId: event.id, scope: "ingest", key: { startsWith: "columns" } } })).toBeGreaterThan(0);
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    const batch = await t.db.importBatch.findFirstOrThrow();
    expect(batch).toMatchObject({ status: "completed", rowsRead: 5, rowsStored: 4, errorCount: 1 });
    const errors = await t.db.importError.findMany();
    expect(errors).toHaveLength(1);
    expect(errors[0].reason).toBe("expected 7 fields, found 5");
    expect(errors[0].raw).toContain("263000000000009999");
    const tweets = await t.db.tweet.findMany({ orderBy: { externalId: "asc" } });
    expect(tweets.map((tw) => tw.externalId)).toEqual(["263000000000000001", "263000000000000002", "263000000000000003", "263000000000000004"]);
    expect(tweets[0]).toMatchObject({ text: "Bridge on route nine closed, water over the road.\nAvoid the area tonight", sourceLabel: "infrastructure_and_utility_damage", userLocation: null });
    expect(tweets[0].tweetedAt?.toISOString()).toBe("2012-10-30T01:15:00.000Z");

    // 4. Remembered: a later file with these columns imports at once, without a preview.
    const later = await saveUploadAndImport(t.db, upload(event.id, "sandy-units-2.csv", crowdflowerTweets({ rows: 2, first: 5 })), { userId });
    expect(later.status).toBe(201);
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    expect(await t.db.tweet.count()).toBe(6);
    // …unless the researcher asks to check the columns.
    const checked = await saveUploadAndImport(t.db, upload(event.id, "sandy-units-3.csv", crowdflowerTweets({ rows: 1, first: 7 }), { columns: "check" }), { userId });
    expect(checked.status).toBe(200);
    expect((checked.body as ColumnPreviewBody).preview).toMatchObject({ missing: [], proposed: { id: "tweet_no", text: "tweet", label: "choose_one_category", date: "tweet_created" } });

    // 5. A re-run uses the event's current mapping: now with the location column.
    await saveUploadColumns(t.db, { eventId: event.id, columns: { id: "tweet_no", text: "tweet", label: "choose_one_category", date: "tweet_created", location: "tweet_location" }, actor });
    await requestImportRerun(t.db, { importId: batch.id, eventId: event.id });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    const rerun = await t.db.tweet.findMany({ where: { importId: batch.id } });
    expect(rerun).toHaveLength(4);
    expect(rerun.every((tw) => tw.userLocation === "Hoboken, NJ")).toBe(true);
  });

  it("a TweetEval split's three files upload as one set, paired by the CLI's code; its labels go to the label mapping", async () => {
    const { event, userId } = await setup(t.db);
    const texts = "Power is back on in our street, so grateful\r\nThis storm is the worst thing that happened to our town\r\n";
    const files: Array<[string, string]> = [["train_labels.txt", "2\n0\n"], ["mapping.txt", "0\tnegative\n1\tneutral\n2\tpositive\n"], ["train_text.txt", texts]];
    const url = `http://localhost/api/imports/tweeteval?${new URLSearchParams({ eventId: event.id, kind: "tweets", task: "sentiment" })}`;
    const reply = await uploadTweetEvalSet(t.db, await formRequest(url, files), { userId });
    expect(reply).toMatchObject({ status: 201, body: { message: expect.stringContaining("sentiment/train_text.txt+train_labels.txt") } });
    expect(await drainJobs(t.db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
    const batch = await t.db.importBatch.findFirstOrThrow();
    expect(batch).toMatchObject({ fileName: "sentiment/train_text.txt+train_labels.txt", status: "needs_mapping", fileLabels: { positive: 1, negative: 1 } });
    // the same bytes as `accord import --tweeteval sentiment/train_text.txt` writes
    const tsv = tweetEvalTsv({ texts, labels: "2\n0\n", mapping: "0\tnegative\n1\tneutral\n2\tpositive\n" }, { task: "sentiment", split: "train" });
    expect(batch.fileHash).toBe(createHash("sha256").update(tsv).digest("hex"));

    // Not a split: refused, naming what is missing; a bad task name is refused before anything is read.
    const wrong = await uploadTweetEvalSet(t.db, await formRequest(url, [files[1], files[2], ["notes.txt", "x"]]), { userId });
    expect(wrong).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^train_labels\.txt is missing/) } });
    const badTask = await uploadTweetEvalSet(t.db, await formRequest(url.replace("task=sentiment", "task=a%2Fb"), files), { userId });
    expect(badTask).toMatchObject({ status: 400, body: { error: expect.stringMatching(/task name/) } });
    expect(await t.db.importBatch.count()).toBe(1);
  });
});
