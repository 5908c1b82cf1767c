import "server-only";
import fs from "node:fs";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { IMPORT_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { UserError } from "@/lib/errors";
import { JOBS } from "@/lib/jobs/job-types";
import { enqueueJob } from "@/lib/jobs/queue";
import { publishLive } from "@/lib/live/bus";
import { importActiveKey, importFilePathOf, sha256File } from "./import-file";
import { isUploadedFile } from "./uploads";

/**
 * Re-running a completed import with the event's current ingest settings and label map, from the file it read (an
 * upload is kept for this, see uploads.ts; a file `accord import` read is read again where it was, if unchanged).
 * Allowed only while none of the import's tweets is gold or in a HIT: the re-run replaces them all, in the one
 * transaction that stores the new ones (import-job.ts), as a recorded job with its progress. Until that commits,
 * the last run's tweets, counts and funnel stay; a re-run that fails or is cancelled leaves them as they were.
 */

/** How many of an import's tweets a re-run could not replace. */
export async function rerunBlockers(db: Db, importId: string): Promise<{ gold: number; inHit: number }> {
  const [gold, inHit] = await Promise.all([
    db.tweet.count({ where: { importId, role: TWEET_ROLE.gold } }),
    db.tweet.count({ where: { importId, role: TWEET_ROLE.unknown, OR: [{ status: { not: TWEET_STATUS.pending } }, { hitItems: { some: {} } }] } }),
  ]);
  return { gold, inHit };
}

function blockedMessage(fileName: string, { gold, inHit }: { gold: number; inHit: number }): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const parts = [gold ? `${n(gold)} ${gold === 1 ? "is" : "are"} gold` : "", inHit ? `${n(inHit)} ${inHit === 1 ? "is" : "are"} already in a HIT` : ""].filter(Boolean);
  return `"${fileName}" cannot be re-run: of its tweets, ${parts.join(" and ")}, and a re-run would replace them all.`;
}

/** Starts a re-run of a completed import (a new job reading its file again). */
export async function requestImportRerun(
  db: Db,
  { importId, eventId, userId = null }: { importId: string; eventId?: string; userId?: string | null },
): Promise<{ importId: string; jobId: string; eventId: string; fileName: string }> {
  const batch = await db.importBatch.findFirst({
    where: { id: importId, ...(eventId ? { eventId } : {}) },
    select: { id: true, eventId: true, kind: true, status: true, fileName: true, fileHash: true, createdAt: true, job: { select: { payload: true } } },
  });
  if (!batch) throw new UserError("That import does not exist.", "not_found");
  if (batch.status !== IMPORT_STATUS.completed) {
    throw new UserError(`Only a completed import can be re-run; "${batch.fileName}" is ${batch.status.replace(/_/g, " ")}.`, "not_completed");
  }
  const original = await db.importBatch.findFirst({
    where: { eventId: batch.eventId, fileHash: batch.fileHash, kind: batch.kind, status: IMPORT_STATUS.completed, createdAt: { lt: batch.createdAt } },
    orderBy: { createdAt: "asc" },
    select: { fileName: true },
  });
  if (original) throw new UserError(`"${batch.fileName}" added nothing: it is the same file as the earlier import "${original.fileName}". Re-run that one.`, "same_file");
  const filePath = importFilePathOf(batch.job?.payload);
  if (!filePath || !fs.existsSync(filePath)) {
    throw new UserError(`The file of "${batch.fileName}" is no longer kept (deleted, or past the upload retention): upload it again to import it with the new settings.`, "file_missing");
  }
  const blockers = await rerunBlockers(db, importId);
  if (blockers.gold || blockers.inHit) throw new UserError(blockedMessage(batch.fileName, blockers), "rerun_blocked");

  const activeKey = importActiveKey(batch.eventId, batch.fileHash);
  let jobId: string;
  try {
    jobId = await db.$transaction(async (tx) => {
      // Only one re-run wins: the status moves from completed to queued once, and the file's active key is unique.
      const moved = await tx.importBatch.updateMany({
        where: { id: importId, status: IMPORT_STATUS.completed },
        data: { status: IMPORT_STATUS.queued, activeKey, message: "Re-running with the event's current settings; the last run's tweets stay until it completes." },
      });
      if (moved.count === 0) throw new UserError(`"${batch.fileName}" is already being re-run.`, "already_importing");
      const job = await enqueueJob(tx as unknown as Db, JOBS.import, { payload: { importId, filePath, rerun: true }, eventId: batch.eventId, createdById: userId, maxAttempts: 2 });
      await tx.importBatch.update({ where: { id: importId }, data: { jobId: job.id } });
      return job.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new UserError(`"${batch.fileName}" is being imported right now; re-run it once that ends.`, "already_importing");
    throw err;
  }
  await writeAudit(db, { actorType: userId ? "user" : "system", actorId: userId, eventId: batch.eventId, entityType: "import", entityId: importId, action: "request-rerun", details: { fileName: batch.fileName } });
  publishLive({ eventId: batch.eventId, kind: "import", data: { importId, status: IMPORT_STATUS.queued } });
  return { importId, jobId, eventId: batch.eventId, fileName: batch.fileName };
}

/** Inside the storing transaction: deletes the last run's tweets and row errors, or throws when one became gold or packed meanwhile. */
export async function replaceImportTweets(tx: Db, { importId, fileName }: { importId: string; fileName: string }): Promise<number> {
  const total = await tx.tweet.count({ where: { importId } });
  await tx.tweet.updateMany({ where: { duplicateOf: { importId } }, data: { duplicateOfId: null } });
  const deleted = await tx.tweet.deleteMany({ where: { importId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending, hitItems: { none: {} } } });
  if (deleted.count !== total) throw new UserError(blockedMessage(fileName, await rerunBlockers(tx, importId)), "rerun_blocked");
  await tx.importError.deleteMany({ where: { importId } });
  return deleted.count;
}

/** Before a re-run reads its file: it must still be there, with the bytes that were imported. */
export async function checkRerunFile(filePath: string, { fileHash, fileName }: { fileHash: string; fileName: string }): Promise<void> {
  let hash: string;
  try {
    hash = await sha256File(filePath);
  } catch {
    throw new UserError(`The file of "${fileName}" is no longer kept: upload it again to import it with the new settings.`, "file_missing");
  }
  if (hash !== fileHash) {
    throw new UserError(`"${filePath}" changed since "${fileName}" was imported from it: import the new file instead of re-running.`, "file_changed");
  }
}

/** A re-run that met labels outside the scheme with no mapping: it stored nothing and says what to do. */
export function rerunNeedsMappingMessage(labels: Record<string, number>): string {
  const names = Object.keys(labels).map((l) => `"${l}"`).join(", ");
  return `The re-run stopped before changing anything: the file's labels ${names} are not in the event's scheme and the label map does not cover them. Map them (accord import --rerun ID --label-map MAP.csv) or set "Labels in tweet files outside the scheme" on the Settings page, then re-run; the last run's tweets are kept.`;
}

/** The researcher's "delete the stored file": a completed, failed or cancelled import's upload is deleted (no more re-runs). */
export async function deleteImportFile(db: Db, { importId, eventId, userId = null }: { importId: string; eventId?: string; userId?: string | null }): Promise<{ eventId: string; fileName: string }> {
  const batch = await db.importBatch.findFirst({ where: { id: importId, ...(eventId ? { eventId } : {}) }, select: { eventId: true, status: true, fileName: true, job: { select: { payload: true } } } });
  if (!batch) throw new UserError("That import does not exist.", "not_found");
  if (batch.status !== IMPORT_STATUS.completed && batch.status !== IMPORT_STATUS.failed && batch.status !== IMPORT_STATUS.cancelled) {
    throw new UserError(`The import of "${batch.fileName}" is ${batch.status.replace(/_/g, " ")}: its file is still needed.`, "file_in_use");
  }
  const filePath = importFilePathOf(batch.job?.payload);
  if (!filePath || !isUploadedFile(filePath)) throw new UserError(`"${batch.fileName}" was imported from a file of your own, which Accord does not delete.`, "own_file");
  await fs.promises.rm(filePath, { force: true });
  await writeAudit(db, { actorType: userId ? "user" : "system", actorId: userId, eventId: batch.eventId, entityType: "import", entityId: importId, action: "delete-upload", details: { fileName: batch.fileName } });
  return { eventId: batch.eventId, fileName: batch.fileName };
}
