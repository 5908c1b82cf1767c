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
 * the size limit enforced while reading, readable by the server's user only; deleted once their import has
 * ended for good (completed, cancelled, or failed with no retry left) and the retention
 * (ACCORD_UPLOAD_RETENTION_DAYS, default 0: at once) has passed. A retry reads the same file, so it is kept
 * while the import can still be retried.
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

/** After an import ended for good: deletes its upload now when there is no retention (else the sweep does, later). */
export async function releaseUpload(filePath: string, { retentionDays }: { retentionDays: number }): Promise<void> {
  if (retentionDays > 0 || !isUploadedFile(filePath)) return;
  await fs.promises.rm(filePath, { force: true });
}

/**
 * Deletes uploads whose import ended more than `retentionDays` ago, and files that no import refers to
 * (an upload interrupted before its import was created) older than a day. Returns how many were deleted.
 */
export async function sweepUploads(db: Db, { retentionDays, now = new Date() }: { retentionDays: number; now?: Date }): Promise<number> {
  const dir = uploadDir();
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  const jobs = await db.job.findMany({ where: { type: JOBS.import.type }, select: { state: true, finishedAt: true, payload: true, importBatch: { select: { status: true } } } });
  // A file is done with once every job that read it has ended and no import waits on it (a label mapping re-reads it).
  const byFile = new Map<string, { ended: boolean; finishedAt: number }>();
  for (const j of jobs) {
    const p = JOBS.import.payloadSchema.safeParse(j.payload);
    if (!p.success) continue;
    const key = path.resolve(p.data.filePath);
    const ended = isOneOf(j.state, [JOB_STATE.succeeded, JOB_STATE.failed, JOB_STATE.cancelled]) && j.importBatch?.status !== IMPORT_STATUS.needs_mapping;
    const seen = byFile.get(key);
    byFile.set(key, { ended: ended && (seen?.ended ?? true), finishedAt: Math.max(seen?.finishedAt ?? 0, j.finishedAt?.getTime() ?? 0) });
  }
  const cutoff = now.getTime() - retentionDays * 86_400_000;
  let deleted = 0;
  for (const name of names) {
    const filePath = path.join(dir, name);
    const job = byFile.get(path.resolve(filePath));
    let expired: boolean;
    if (job) expired = job.ended && job.finishedAt <= cutoff;
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
