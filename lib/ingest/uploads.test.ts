import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDb } from "@/lib/db/test-db";
import { JOBS } from "@/lib/jobs/job-types";
import { enqueueJob } from "@/lib/jobs/queue";
import { tempDataDirForTests } from "./testing/upload-dir";
import { isUploadedFile, releaseUpload, saveUpload, sweepUploads, uploadDir, UploadTooLarge } from "./uploads";
import { createHumaidEvent } from "./testing/humaid-event";

const dataDir = tempDataDirForTests("accord-uploads-");

/** A body of `chunks` pieces of `size` bytes, counting how many were pulled. */
function body(chunks: number, size: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled === chunks) return c.close();
      pulled++;
      c.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return { stream, pulled: () => pulled };
}

describe("uploads", () => {
  it("streams to a private file, and stops reading at the limit leaving nothing behind", async () => {
    const ok = await saveUpload(body(3, 1_000).stream, { limit: 3_000 });
    expect(ok.size).toBe(3_000);
    expect(fs.statSync(ok.filePath).mode & 0o777).toBe(0o600);
    expect(isUploadedFile(ok.filePath)).toBe(true);
    expect(isUploadedFile(path.join(dataDir, "elsewhere.tsv"))).toBe(false);

    const big = body(1_000, 1_000);
    await expect(saveUpload(big.stream, { limit: 10_500 })).rejects.toBeInstanceOf(UploadTooLarge);
    expect(big.pulled()).toBeLessThan(15); // not the whole megabyte
    expect(fs.readdirSync(uploadDir())).toEqual([path.basename(ok.filePath)]);
  });

  it("keeps a completed import's upload for re-runs unless a retention is set; never deletes a file of the user's own", async () => {
    const t = await createTestDb("sqlite");
    try {
      const a = await saveUpload(body(1, 10).stream, { limit: 100 });
      await releaseUpload(a.filePath, { retentionDays: undefined, completed: true });
      expect(fs.existsSync(a.filePath)).toBe(true); // kept for re-runs
      await releaseUpload(a.filePath, { retentionDays: 1, completed: true });
      expect(fs.existsSync(a.filePath)).toBe(true); // the sweep deletes it after a day
      await releaseUpload(a.filePath, { retentionDays: 0, completed: true });
      expect(fs.existsSync(a.filePath)).toBe(false);
      const failed = await saveUpload(body(1, 10).stream, { limit: 100 });
      await releaseUpload(failed.filePath, { retentionDays: undefined, completed: false });
      expect(fs.existsSync(failed.filePath)).toBe(false); // nothing to re-run
      const own = path.join(dataDir, "own.tsv");
      fs.writeFileSync(own, "x");
      await releaseUpload(own, { retentionDays: 0, completed: false });
      expect(fs.existsSync(own)).toBe(true);

      const done = await saveUpload(body(1, 10).stream, { limit: 100 });
      const queued = await saveUpload(body(1, 10).stream, { limit: 100 });
      const finished = await enqueueJob(t.db, JOBS.import, { payload: { importId: "i1", filePath: done.filePath } });
      await t.db.job.update({ where: { id: finished.id }, data: { state: "succeeded", finishedAt: new Date("2026-01-01T00:00:00Z") } });
      await enqueueJob(t.db, JOBS.import, { payload: { importId: "i2", filePath: queued.filePath } });
      expect(await sweepUploads(t.db, { retentionDays: 7, now: new Date("2026-01-05T00:00:00Z") })).toBe(0);
      expect(await sweepUploads(t.db, { retentionDays: 7, now: new Date("2026-01-09T00:00:00Z") })).toBe(1);
      expect(fs.existsSync(done.filePath)).toBe(false);
      expect(fs.existsSync(queued.filePath)).toBe(true); // its import has not run yet

      // An import waiting for a label mapping keeps its file: the mapped import reads it again.
      const paused = await saveUpload(body(1, 10).stream, { limit: 100 });
      const pausedJob = await enqueueJob(t.db, JOBS.import, { payload: { importId: "i3", filePath: paused.filePath } });
      await t.db.job.update({ where: { id: pausedJob.id }, data: { state: "succeeded", finishedAt: new Date("2026-01-01T00:00:00Z") } });
      const event = await createHumaidEvent(t.db, "sweep", { type: "flood" });
      await t.db.importBatch.create({ data: { id: "i3", eventId: event.id, kind: "tweets", fileName: "p.csv", fileHash: "h", fileSize: 10, status: "needs_mapping", jobId: pausedJob.id } });
      expect(await sweepUploads(t.db, { retentionDays: 7, now: new Date("2026-01-09T00:00:00Z") })).toBe(0);
      expect(fs.existsSync(paused.filePath)).toBe(true);

      // A completed import's file: kept for re-runs with no retention set, gone once a set retention has passed.
      const kept = await saveUpload(body(1, 10).stream, { limit: 100 });
      const keptJob = await enqueueJob(t.db, JOBS.import, { payload: { importId: "i4", filePath: kept.filePath } });
      await t.db.job.update({ where: { id: keptJob.id }, data: { state: "succeeded", finishedAt: new Date("2026-01-01T00:00:00Z") } });
      await t.db.importBatch.create({ data: { id: "i4", eventId: event.id, kind: "tweets", fileName: "k.csv", fileHash: "k", fileSize: 10, status: "completed", jobId: keptJob.id } });
      expect(await sweepUploads(t.db, { retentionDays: undefined, now: new Date("2026-06-01T00:00:00Z") })).toBe(0);
      expect(fs.existsSync(kept.filePath)).toBe(true);
      expect(await sweepUploads(t.db, { retentionDays: 30, now: new Date("2026-06-01T00:00:00Z") })).toBe(1);
      expect(fs.existsSync(kept.filePath)).toBe(false);
    } finally {
      await t.cleanup();
    }
  });

  it("a judgment import's upload is its job's file, not an orphan: kept while the job waits", async () => {
    const t = await createTestDb("sqlite");
    try {
      const waiting = await saveUpload(body(1, 10).stream, { limit: 100 });
      const orphan = await saveUpload(body(1, 10).stream, { limit: 100 });
      await enqueueJob(t.db, JOBS.judgmentImport, { payload: { importId: "j1", filePath: waiting.filePath } });
      const twoDaysLater = new Date(Date.now() + 2 * 86_400_000);
      expect(await sweepUploads(t.db, { retentionDays: undefined, now: twoDaysLater })).toBeGreaterThanOrEqual(1);
      expect(fs.existsSync(waiting.filePath)).toBe(true);
      expect(fs.existsSync(orphan.filePath)).toBe(false);
    } finally {
      await t.cleanup();
    }
  });
});
