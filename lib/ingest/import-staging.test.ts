import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertMany } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { JOBS } from "@/lib/jobs/job-types";
import { createJobRegistry, defineJob, drainJobs } from "@/lib/jobs/runner";
import { createImport, IMPORT_JOB_TYPE, runImportJob, type StagedChunkHook } from "./import-job";
import { cancelImport, getImport } from "./import-queries";
import { requestImportRerun } from "./rerun-import";
import { tempDataDirForTests } from "./testing/upload-dir";
import { saveUpload } from "./uploads";
import { createHumaidEvent } from "./testing/humaid-event";

/**
 * Storing in bounded chunks (issue 30): the import's rows are staged a chunk at a time and reach Tweet in one final
 * transaction. A hook between chunks looks at what every reader of Tweet sees at that moment (no timing involved).
 */
tempDataDirForTests("accord-staging-");

const ROWS = 3_000;
const CHUNK = 500;
// Steps that would make the outcome depend on detection or dates are off: the word count is the one that changes.
const FILTERS = { date: { enabled: false }, location: { enabled: false }, language: { enabled: false }, duplicates: { enabled: false } };

/** ROWS tweets: even rows have six words, odd rows four (numbers do not count; a word count of 5 keeps half of them). */
function file(): string {
  const lines = ["tweet_id\ttweet_text\tclass_label"];
  for (let i = 0; i < ROWS; i++) {
    const text = i % 2 === 0 ? `flood report ${i} from the river bank` : `flood report ${i} near town`;
    lines.push(`${900000000000000000n + BigInt(i)}\t${text}\tcaution_and_advice`);
  }
  return lines.join("\n") + "\n";
}

let hook: StagedChunkHook | null = null;
const registry = createJobRegistry([
  defineJob(JOBS.import, (ctx, payload) =>
    runImportJob(ctx, payload, { loadClassifier: null, stageChunkRows: CHUNK, afterStagedChunk: async (info) => hook?.(info) }),
  ),
]);
const drain = (db: Db) => drainJobs(db, { registry, types: [IMPORT_JOB_TYPE] });

async function upload(db: Db, eventId: string) {
  const saved = await saveUpload(new Blob([new TextEncoder().encode(file())]).stream(), { limit: 10_000_000 });
  return createImport({ db, eventId, kind: "tweets", fileName: "floods.tsv", filePath: saved.filePath });
}

/** What readers of tweets see for the event: the tweets, by role and status, and the import's counts. */
async function visible(db: Db, eventId: string, importId: string) {
  const [tweets, byRole, batch] = await Promise.all([
    db.tweet.count({ where: { eventId } }),
    db.tweet.groupBy({ by: ["role", "status"], where: { eventId }, _count: { _all: true } }),
    getImport(db, { importId }),
  ]);
  return { tweets, groups: byRole.length, status: batch?.status, rowsStored: batch?.rowsStored };
}

describe.each(testFlavors())("an import stored in chunks on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    eventId = (await createHumaidEvent(t.db, "harvey", { filters: FILTERS })).id;
  });
  afterEach(async () => {
    hook = null;
    await t.cleanup();
  });

  it("stages a chunk at a time and shows nothing until the final transaction, then everything at once", async () => {
    const created = await upload(t.db, eventId);
    const seen: Array<{ staged: number; stagedRows: number; tweets: number; groups: number; status?: string; rowsStored?: number }> = [];
    hook = async ({ staged, total }) => {
      expect(total).toBe(ROWS);
      seen.push({ staged, stagedRows: await t.db.stagedTweet.count({ where: { importId: created.importId } }), ...(await visible(t.db, eventId, created.importId)) });
    };
    expect(await drain(t.db)).toEqual(["succeeded"]);
    // Six chunks of 500, each written before the next; no reader saw any of them.
    expect(seen.map((s) => [s.staged, s.stagedRows])).toEqual([500, 1000, 1500, 2000, 2500, 3000].map((n) => [n, n]));
    for (const s of seen) expect(s).toMatchObject({ tweets: 0, groups: 0, status: "running", rowsStored: 0 });
    expect(await visible(t.db, eventId, created.importId)).toEqual({ tweets: ROWS, groups: 1, status: "completed", rowsStored: ROWS });
    expect(await t.db.stagedTweet.count()).toBe(0);
    // Stored as the staged rows were: ids, lines and the label that came with the file.
    const first = await t.db.tweet.findFirstOrThrow({ where: { eventId, externalId: "900000000000000000" } });
    expect(first).toMatchObject({ importId: created.importId, importLine: 2, text: "flood report 0 from the river bank", sourceLabel: "caution_and_advice", role: "unknown", status: "pending" });
    expect(first.tweetedAt?.toISOString()).toMatch(/^20\d\d-/);
  });

  it("leaves nothing when it fails between chunks, and the retry stores everything once", async () => {
    const created = await upload(t.db, eventId);
    hook = async ({ staged }) => {
      if (staged === 1_500) throw new Error("the disk is full");
    };
    expect(await drain(t.db)).toEqual(["retrying"]);
    expect(await visible(t.db, eventId, created.importId)).toMatchObject({ tweets: 0, status: "queued", rowsStored: 0 });
    expect(await t.db.stagedTweet.count()).toBe(0);

    hook = null;
    await t.db.job.updateMany({ where: { state: "queued" }, data: { runAfter: new Date() } });
    expect(await drain(t.db)).toEqual(["succeeded"]);
    expect(await visible(t.db, eventId, created.importId)).toMatchObject({ tweets: ROWS, status: "completed", rowsStored: ROWS });
    expect(await t.db.stagedTweet.count()).toBe(0);
  });

  it("stops at a cancel between chunks and leaves nothing", async () => {
    const created = await upload(t.db, eventId);
    const after: number[] = [];
    hook = async ({ staged }) => {
      after.push(staged);
      if (staged === 1_000) await cancelImport(t.db, { importId: created.importId, eventId });
    };
    expect(await drain(t.db)).toEqual(["cancelled"]);
    expect(after).toEqual([500, 1000]); // checked after the chunk that saw the cancel: no third chunk
    expect(await getImport(t.db, { importId: created.importId })).toMatchObject({ status: "cancelled", message: "Cancelled: nothing was stored.", rowsStored: 0 });
    expect(await t.db.tweet.count()).toBe(0);
    expect(await t.db.stagedTweet.count()).toBe(0);
  });

  it("clears what a crashed run staged: its own retry, and the next import for an import that ended", async () => {
    const created = await upload(t.db, eventId);
    // What a worker that died between chunks leaves: staged rows of this import (its job is retried) …
    const leftover = (i: number, importId: string) => ({
      id: `left-${importId}-${i}`,
      importId,
      eventId,
      externalId: `${900000000000000000n + BigInt(i)}`,
      text: `left over ${i}`,
      role: "unknown",
      status: "pending",
      createdAt: new Date(),
    });
    await insertMany(t.db, "StagedTweet", Array.from({ length: 700 }, (_, i) => leftover(i, created.importId)));
    // … and of an import whose job ended without cleaning up.
    const ended = await t.db.importBatch.create({ data: { eventId, kind: "tweets", fileName: "old.tsv", fileHash: "old", fileSize: 1, status: "failed" } });
    await insertMany(t.db, "StagedTweet", Array.from({ length: 300 }, (_, i) => leftover(10_000 + i, ended.id)));

    expect(await drain(t.db)).toEqual(["succeeded"]);
    expect(await visible(t.db, eventId, created.importId)).toMatchObject({ tweets: ROWS, status: "completed", rowsStored: ROWS });
    expect(await t.db.tweet.count({ where: { text: { startsWith: "left over" } } })).toBe(0);
    expect(await t.db.stagedTweet.count()).toBe(0);
  });

  it("a re-run shows the last run's tweets between its chunks and replaces them at the end; a cancelled re-run keeps them", async () => {
    const created = await upload(t.db, eventId);
    expect(await drain(t.db)).toEqual(["succeeded"]);
    const lastRun = await t.db.tweet.findMany({ where: { importId: created.importId }, select: { id: true }, orderBy: { id: "asc" } });
    expect(lastRun).toHaveLength(ROWS);

    await t.db.event.update({ where: { id: eventId }, data: { filters: { ...FILTERS, wordCount: { enabled: true, minWords: 5 } } } });
    await requestImportRerun(t.db, { importId: created.importId, eventId });
    const between: Array<{ tweets: number; same: boolean }> = [];
    hook = async () => {
      const now = await t.db.tweet.findMany({ where: { eventId }, select: { id: true }, orderBy: { id: "asc" } });
      between.push({ tweets: now.length, same: now.every((x, i) => x.id === lastRun[i].id) });
    };
    expect(await drain(t.db)).toEqual(["succeeded"]);
    expect(between).toHaveLength(ROWS / 2 / CHUNK);
    for (const b of between) expect(b).toEqual({ tweets: ROWS, same: true });
    expect(await visible(t.db, eventId, created.importId)).toMatchObject({ tweets: ROWS / 2, status: "completed", rowsStored: ROWS / 2 });
    const old = new Set(lastRun.map((x) => x.id));
    expect((await t.db.tweet.findMany({ where: { eventId }, select: { id: true } })).filter((x) => old.has(x.id))).toEqual([]);

    // A re-run cancelled between chunks: the runs so far stay as they were.
    const kept = await t.db.tweet.findMany({ where: { eventId }, select: { id: true }, orderBy: { id: "asc" } });
    await t.db.event.update({ where: { id: eventId }, data: { filters: FILTERS } });
    await requestImportRerun(t.db, { importId: created.importId, eventId });
    hook = async ({ staged }) => {
      if (staged === CHUNK) await cancelImport(t.db, { importId: created.importId, eventId });
    };
    expect(await drain(t.db)).toEqual(["cancelled"]);
    expect(await t.db.tweet.findMany({ where: { eventId }, select: { id: true }, orderBy: { id: "asc" } })).toEqual(kept);
    expect(await getImport(t.db, { importId: created.importId })).toMatchObject({ status: "completed", rowsStored: ROWS / 2 });
    expect(await t.db.stagedTweet.count()).toBe(0);
  });
});
