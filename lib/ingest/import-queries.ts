import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { requestCancel } from "@/lib/jobs/queue";
import { renderImportErrorsCsv } from "./error-report";
import type { Funnel } from "./funnel";
import { IMPORT_STATUS, JOB_STATE } from "@/lib/db/enums";

/**
 * One import's state and progress (everything is in the database, so it survives a page reload), its
 * error report as CSV, and cancel. (The event page's list of imports is lib/events/imports.ts.)
 */
export type ImportView = {
  id: string;
  eventId: string;
  kind: string;
  fileName: string;
  fileSize: number;
  format: string | null;
  status: string;
  rowsRead: number;
  rowsStored: number;
  errorCount: number;
  funnel: Funnel | null;
  /** needs_mapping: the file's labels outside the scheme, with their row counts. */
  fileLabels: Record<string, number> | null;
  message: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  job: {
    id: string;
    state: string;
    /** Rows processed so far, and the expected total (estimated from the bytes read until the end). */
    progressDone: number;
    progressTotal: number | null;
    message: string | null;
    startedAt: Date | null;
    updatedAt: Date;
    cancelRequested: boolean;
  } | null;
};

/** The columns of an import batch that both read models show (this view and the Data tab's list). */
export const IMPORT_COLUMNS = {
  id: true,
  eventId: true,
  kind: true,
  fileName: true,
  fileSize: true,
  format: true,
  status: true,
  rowsRead: true,
  rowsStored: true,
  errorCount: true,
  funnel: true,
  fileLabels: true,
  message: true,
  createdAt: true,
  finishedAt: true,
} as const;

const importSelect = {
  ...IMPORT_COLUMNS,
  job: {
    select: { id: true, state: true, progressDone: true, progressTotal: true, message: true, startedAt: true, updatedAt: true, cancelRequested: true },
  },
} as const;

type ImportRecord = Omit<ImportView, "funnel" | "fileLabels"> & { funnel: unknown; fileLabels: unknown };

function toView(r: ImportRecord): ImportView {
  const fileLabels = r.fileLabels && typeof r.fileLabels === "object" ? (r.fileLabels as Record<string, number>) : null;
  return { ...r, funnel: Array.isArray(r.funnel) ? (r.funnel as Funnel) : null, fileLabels };
}

export async function getImport(db: Db, { importId, eventId }: { importId: string; eventId?: string }): Promise<ImportView | null> {
  const r = await db.importBatch.findFirst({ where: { id: importId, ...(eventId ? { eventId } : {}) }, select: importSelect });
  return r ? toView(r) : null;
}

/** The per-row error report of an import, as CSV (line,column,reason,raw). */
export async function importErrorsCsv(db: Db, { importId, eventId }: { importId: string; eventId?: string }): Promise<string> {
  const batch = await db.importBatch.findFirst({ where: { id: importId, ...(eventId ? { eventId } : {}) }, select: { id: true } });
  if (!batch) throw new UserError("That import does not exist.", "not_found");
  const errors = await db.importError.findMany({
    where: { importId },
    orderBy: [{ line: "asc" }, { id: "asc" }],
    select: { line: true, column: true, reason: true, raw: true },
  });
  return renderImportErrorsCsv(errors);
}

/** Asks a queued or running import to stop (it stops at its next check; stored rows never appear). */
export async function cancelImport(db: Db, { importId, eventId }: { importId: string; eventId?: string }): Promise<void> {
  const batch = await db.importBatch.findFirst({ where: { id: importId, ...(eventId ? { eventId } : {}) }, select: { jobId: true, status: true, job: { select: { payload: true } } } });
  if (!batch) throw new UserError("That import does not exist.", "not_found");
  if (batch.status !== IMPORT_STATUS.queued && batch.status !== IMPORT_STATUS.running) throw new UserError(`The import is already ${batch.status}.`, "not_running");
  if (!batch.jobId) throw new UserError("The import has no job to cancel.", "not_running");
  await requestCancel(db, { jobId: batch.jobId });
  // A queued job is cancelled at once by requestCancel; reflect it on the import (a re-run's import stays completed, its last run kept).
  const rerun = (batch.job?.payload as { rerun?: unknown } | null)?.rerun === true;
  const data = rerun
    ? { status: IMPORT_STATUS.completed, activeKey: null, message: "The re-run was cancelled before it started; the tweets of the last run are kept." }
    : { status: IMPORT_STATUS.cancelled, activeKey: null, message: "Cancelled before it started.", finishedAt: new Date() };
  await db.importBatch.updateMany({ where: { id: importId, status: IMPORT_STATUS.queued, job: { state: JOB_STATE.cancelled } }, data });
}
