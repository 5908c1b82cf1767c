import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db, Prisma } from "@/lib/db/client";
import { IMPORT_STATUS, JUDGMENTS_IMPORT_KIND } from "@/lib/db/enums";
import { UserError, unexpectedErrorMessage } from "@/lib/errors";
import { recordMetricSnapshot } from "@/lib/campaign/snapshots";
import { refreshWorkerStats } from "@/lib/campaign/worker-stats";
import { schemeLabelValues } from "@/lib/labels/schemes";
import { enqueueJob } from "@/lib/jobs/queue";
import { JOBS, type JobPayload } from "@/lib/jobs/job-types";
import { JobCancelled, type JobContext } from "@/lib/jobs/runner";
import { publishLive } from "@/lib/live/bus";
import { repeatsNote } from "@/lib/metrics/repeats";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { importActiveKey, sha256File } from "../import-file";
import { parseIngestSettings } from "../settings";
import { FORMAT_NAMES, type JudgmentMapping, judgmentMappingSchema } from "./mapping";
import { CsvError, readJudgments, RepeatJudgmentsError } from "./read-judgments";
import { storeJudgments } from "./store-judgments";

/**
 * A judgment import as a recorded job: createJudgmentImport() records the ImportBatch (kind "judgments", its
 * mapping in options) and enqueues the job; the job reads the file, and either stores everything in one
 * transaction or nothing (row errors recorded and named, labels waiting for a mapping, or refused repeats).
 * Re-runnable: a file already imported into the event (same sha256) adds nothing; a failed import can be run again.
 */
export type JudgmentImportPayload = JobPayload<typeof JOBS.judgmentImport>;

/** Where the refusal of repeats points the researcher: the CLI option or the form's choice. */
export type ImportVia = "cli" | "web";
const REPEAT_OPTION: Record<ImportVia, string> = { cli: "--repeats", web: "Repeat judgments:" };

export async function createJudgmentImport({
  db,
  eventId,
  fileName,
  filePath,
  mapping,
  userId = null,
  via = "web",
}: {
  db: Db;
  eventId: string;
  fileName: string;
  filePath: string;
  mapping: JudgmentMapping;
  userId?: string | null;
  via?: ImportVia;
}): Promise<{ importId: string; jobId: string }> {
  const checked = judgmentMappingSchema.parse(mapping);
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true } });
  if (!event) throw new UserError("That event does not exist.", "not_found");
  const size = (await fs.promises.stat(filePath)).size;
  const fileHash = await sha256File(filePath);
  const activeKey = importActiveKey(eventId, fileHash);
  try {
    const { batch, job } = await db.$transaction(async (tx) => {
      const batch = await tx.importBatch.create({
        data: { eventId, kind: JUDGMENTS_IMPORT_KIND, fileName, fileHash, fileSize: size, format: checked.format, options: { ...checked, via } as Prisma.InputJsonValue, createdById: userId, activeKey },
      });
      const job = await enqueueJob(tx as unknown as Db, JOBS.judgmentImport, { payload: { importId: batch.id, filePath }, eventId, createdById: userId, maxAttempts: 1 });
      await tx.importBatch.update({ where: { id: batch.id }, data: { jobId: job.id } });
      return { batch, job };
    });
    await writeAudit(db, { actorType: userId ? "user" : "system", actorId: userId, eventId, entityType: "import", entityId: batch.id, action: "upload", details: { fileName, kind: JUDGMENTS_IMPORT_KIND, fileHash } });
    return { importId: batch.id, jobId: job.id };
  } catch (err) {
    if (isUniqueViolation(err)) throw new UserError(`"${fileName}" is already being imported for this event.`, "already_importing");
    throw err;
  }
}

export async function runJudgmentImportJob(ctx: JobContext, payload: JudgmentImportPayload): Promise<{ importId: string; status: string }> {
  const { db } = ctx;
  const batch = await db.importBatch.findUniqueOrThrow({ where: { id: payload.importId }, select: { id: true, eventId: true, fileName: true, fileHash: true, options: true } });
  const end = async (status: string, message: string, data: Prisma.ImportBatchUpdateInput = {}) => {
    await db.importBatch.update({ where: { id: batch.id }, data: { status, message, activeKey: null, finishedAt: new Date(), ...data } });
    publishLive({ eventId: batch.eventId, kind: "import", data: { importId: batch.id, status } });
    return { importId: batch.id, status };
  };
  const state = { stored: false };
  try {
    return await importJudgments(ctx, payload, { batch, end, state });
  } catch (err) {
    // Stored and completed (one transaction): a later failure (worker figures, the snapshot) leaves the import as it is.
    if (state.stored) throw err;
    // Never left running with its activeKey set (later uploads of the file would be refused): cancelled or failed.
    const cancelled = err instanceof JobCancelled;
    let message = "Cancelled: nothing was stored.";
    if (!cancelled) {
      const reference = randomUUID().slice(0, 8);
      if (!(err instanceof UserError)) console.error(`[accord] judgment import ${batch.id} failed (reference ${reference}):`, err);
      message = err instanceof UserError ? err.message : unexpectedErrorMessage(reference);
    }
    await end(cancelled ? IMPORT_STATUS.cancelled : IMPORT_STATUS.failed, message).catch(() => undefined);
    throw err;
  }
}

type Ending = (status: string, message: string, data?: Prisma.ImportBatchUpdateInput) => Promise<{ importId: string; status: string }>;

async function importJudgments(
  ctx: JobContext,
  payload: JudgmentImportPayload,
  { batch, end, state }: { batch: { id: string; eventId: string; fileName: string; fileHash: string; options: Prisma.JsonValue }; end: Ending; state: { stored: boolean } },
): Promise<{ importId: string; status: string }> {
  const { db } = ctx;
  const options = (batch.options ?? {}) as Record<string, unknown>;
  const mapping = judgmentMappingSchema.parse(options);
  const via: ImportVia = options.via === "cli" ? "cli" : "web";
  await db.importBatch.update({ where: { id: batch.id }, data: { status: IMPORT_STATUS.running } });
  await ctx.progress(0, 3, "Reading the file", true);

  const earlier = await db.importBatch.findFirst({
    where: { eventId: batch.eventId, kind: JUDGMENTS_IMPORT_KIND, fileHash: batch.fileHash, status: IMPORT_STATUS.completed, id: { not: batch.id } },
    select: { fileName: true },
  });
  if (earlier) return end(IMPORT_STATUS.completed, `Already imported as "${earlier.fileName}": nothing was added.`);

  await ctx.throwIfCancelled();
  const event = await db.event.findUniqueOrThrow({ where: { id: batch.eventId }, select: { schemeId: true, filters: true } });
  const labels = { scheme: await schemeLabelValues(db, event.schemeId), map: parseIngestSettings(event.filters).labels.map };
  let text: string;
  try {
    text = (await fs.promises.readFile(payload.filePath)).toString("utf8");
  } catch {
    return end(IMPORT_STATUS.failed, "The file could not be read any more; upload it again.");
  }
  let read;
  try {
    read = readJudgments(text, mapping, labels, { option: REPEAT_OPTION[via] });
  } catch (err) {
    if (err instanceof RepeatJudgmentsError) return end(IMPORT_STATUS.failed, `Nothing was stored: ${err.message}.`);
    if (err instanceof CsvError) return end(IMPORT_STATUS.failed, `Nothing was stored: the file is not valid CSV (${err.message}).`);
    throw err;
  }
  await ctx.progress(1, 3, `Read ${read.rowsRead} rows`, true);
  await ctx.throwIfCancelled();
  if (read.errors.length > 0) {
    await db.importError.createMany({ data: read.errors.slice(0, 1000).map((e) => ({ importId: batch.id, line: e.line, column: e.column, reason: e.reason, raw: e.raw })) });
    const first = read.errors[0];
    return end(IMPORT_STATUS.failed, `Nothing was stored: ${read.errors.length} row${read.errors.length === 1 ? "" : "s"} could not be read (line ${first.line}: ${first.reason}).`, {
      rowsRead: read.rowsRead,
      errorCount: read.errors.length,
    });
  }
  if (Object.keys(read.unmapped).length > 0) {
    return end(IMPORT_STATUS.needs_mapping, `Labels outside the scheme need a mapping first: ${Object.keys(read.unmapped).map((l) => `"${l}"`).join(", ")}. Nothing was stored.`, {
      fileLabels: read.unmapped,
      rowsRead: read.rowsRead,
    });
  }
  if (read.judgments.length === 0) return end(IMPORT_STATUS.failed, "Nothing was stored: the file holds no judgments.");
  const notes = [
    `Imported from ${FORMAT_NAMES[mapping.format]} "${batch.fileName}"`,
    read.repeatsSetAside > 0 ? repeatsNote(read.repeatsSetAside, mapping.repeats, REPEAT_OPTION[via]) : null,
    read.dropped > 0 ? `${read.dropped} judgment${read.dropped === 1 ? "" : "s"} dropped by the label map` : null,
    read.assignmentsPerWorkerDay ? "the file names no HIT or assignment: a worker's judgments of one day count as one assignment" : null,
  ].filter(Boolean);
  await ctx.progress(2, 3, "Storing the judgments", true);
  // the last point to stop: the store is one transaction, and what follows only refreshes figures
  await ctx.throwIfCancelled();
  const stored = await storeJudgments(db, { importId: batch.id, eventId: batch.eventId, format: mapping.format, read, message: `${notes.join("; ")}.` });
  state.stored = true;
  await refreshWorkerStats(db, stored.workerIds);
  // Table 3 in both scopes, as the sync loop records it after its decisions
  await recordMetricSnapshot(db, batch.eventId);
  await ctx.progress(3, 3, `Stored ${stored.judgments} judgments`, true);
  publishLive({ eventId: batch.eventId, kind: "import", data: { importId: batch.id, status: IMPORT_STATUS.completed } });
  return { importId: batch.id, status: IMPORT_STATUS.completed };
}
