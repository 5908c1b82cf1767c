import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { IMPORT_STATUS } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/lib/server/private-files";
import { JOBS } from "@/lib/jobs/job-types";
import { formatBytes } from "./limits";
import { JOB_STATE, isOneOf } from "@/lib/db/enums";

/**
 * Uploaded files: written under <data dir>/uploads (ACCORD_DATA_DIR, else ./data) as they stream in, with
 * the size limit enforced while reading, readable by the server's user only. A completed import's file is kept
 * for re-runs (rerun-import.ts) until the researcher deletes it on the Data tab, or its event is deleted (then no
 * import refers to it and the sweep removes it a day later); with ACCORD_UPLOAD_RETENTION_DAYS set it is deleted
 * that many days after its import last ended (0: at once, no re-runs). A failed or cancelled import's file goes
 * when it ends (or after the retention, when set); an upload of a file already imported goes at once. A file is
 * always kept while its import can still run (queued, retried, or waiting for a label mapping).
 */
export function uploadDir(): string {
  return path.join(env().ACCORD_DATA_DIR ?? path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data"), "uploads");
}

/** True for files this module wrote (the CLI imports files of the user's own, which are never deleted). */
export function isUploadedFile(filePath: string): boolean {
  const rel = path.relative(uploadDir(), path.resolve(filePath));
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) && !rel.includes(path.sep);
}

export class UploadTooLarge extends UserError {
  constructor(limit: number) {
    super(`The file is larger than this event's ${formatBytes(limit)} limit.`, "file_too_large");
  }
}

/** Streams `body` to a new file, counting bytes: past `limit` it stops reading, deletes what it wrote and throws UploadTooLarge. */
export async function saveUpload(body: ReadableStream<Uint8Array>, { limit }: { limit: number }): Promise<{ filePath: string; size: number }> {
  const dir = uploadDir();
  ensurePrivateDir(dir);
  const filePath = path.join(dir, `${randomUUID()}.upload`);
  const file = await fs.promises.open(filePath, "wx", PRIVATE_FILE_MODE);
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new UploadTooLarge(limit);
      await file.write(value);
    }
    await file.close();
    return { filePath, size };
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    await file.close().catch(() => undefined);
    await fs.promises.rm(filePath, { force: true });
    throw err;
  }
}

/** Whether an upload is still kept `daysAgo` days after its import ended (see the header). */
export function uploadKept({ completed, retentionDays, daysAgo }: { completed: boolean; retentionDays: number | undefined; daysAgo: number }): boolean {
  if (retentionDays === undefined) return completed;
  return daysAgo < retentionDays;
}

/** After an import ended for good: deletes its upload now unless it is kept (for re-runs, or the retention). */
export async function releaseUpload(filePath: string, { retentionDays, completed }: { retentionDays: number | undefined; completed: boolean }): Promise<void> {
  if (uploadKept({ completed, retentionDays, daysAgo: 0 })) return;
  await discardUpload(filePath);
}

/** Deletes an upload (never a file of the user's own). */
export async function discardUpload(filePath: string): Promise<void> {
  if (isUploadedFile(filePath)) await fs.promises.rm(filePath, { force: true });
}

/**
 * Deletes uploads no longer kept (see the header), and files that no import refers to (an upload interrupted before
 * its import was created, or one of a deleted event) older than a day. Returns how many were deleted.
 */
export async function sweepUploads(db: Db, { retentionDays, now = new Date() }: { retentionDays: number | undefined; now?: Date }): Promise<number> {
  const dir = uploadDir();
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  // tweet and judgment imports alike name their upload and their import in the payload
  const jobs = await db.job.findMany({ where: { type: { in: [JOBS.import.type, JOBS.judgmentImport.type] } }, select: { state: true, finishedAt: true, payload: true } });
  const parsed = jobs.flatMap((j) => {
    const p = JOBS.judgmentImport.payloadSchema.safeParse(j.payload);
    return p.success ? [{ ...j, payload: p.data }] : [];
  });
  // Every job of an import (its first run, a mapped resume, re-runs) names its file and its import.
  const batches = await db.importBatch.findMany({ where: { id: { in: [...new Set(parsed.map((j) => j.payload.importId))] } }, select: { id: true, status: true } });
  const statusOf = new Map(batches.map((b) => [b.id, b.status]));
  // A file is done with once every job that read it has ended and no import waits on it (a label mapping re-reads it).
  const byFile = new Map<string, { ended: boolean; completed: boolean; finishedAt: number }>();
  for (const j of parsed) {
    const key = path.resolve(j.payload.filePath);
    const status = statusOf.get(j.payload.importId);
    const ended = isOneOf(j.state, [JOB_STATE.succeeded, JOB_STATE.failed, JOB_STATE.cancelled]) && (status === undefined || isOneOf(status, [IMPORT_STATUS.completed, IMPORT_STATUS.failed, IMPORT_STATUS.cancelled]));
    const seen = byFile.get(key);
    byFile.set(key, {
      ended: ended && (seen?.ended ?? true),
      completed: status === IMPORT_STATUS.completed || (seen?.completed ?? false),
      finishedAt: Math.max(seen?.finishedAt ?? 0, j.finishedAt?.getTime() ?? 0),
    });
  }
  let deleted = 0;
  for (const name of names) {
    const filePath = path.join(dir, name);
    const job = byFile.get(path.resolve(filePath));
    let expired: boolean;
    if (job) expired = job.ended && !uploadKept({ completed: job.completed, retentionDays, daysAgo: (now.getTime() - job.finishedAt) / 86_400_000 });
    else {
      const stat = await fs.promises.stat(filePath).catch(() => null);
      expired = stat !== null && stat.mtimeMs <= now.getTime() - 86_400_000;
    }
    if (!expired) continue;
    await fs.promises.rm(filePath, { force: true });
    deleted++;
  }
  return deleted;
}
