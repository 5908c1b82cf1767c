import "server-only";
import type { Db } from "@/lib/db/client";

/** The Data tab's imports: each batch with its funnel, error count and (while running) the job's progress. */
export type ImportProgress = {
  jobId: string;
  state: string;
  done: number;
  total: number | null;
  message: string | null;
  error: string | null;
  cancelRequested: boolean;
  /** Rows per second since the job started, and the estimated seconds left (null when unknown). */
  rate: number | null;
  etaSeconds: number | null;
};

export type ImportRow = {
  id: string;
  kind: string;
  fileName: string;
  fileSize: number;
  format: string | null;
  status: string;
  rowsRead: number;
  rowsStored: number;
  errorCount: number;
  funnel: unknown;
  /** needs_mapping: the file's labels outside the scheme, with their row counts. */
  fileLabels: Record<string, number> | null;
  message: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  createdBy: string | null;
  progress: ImportProgress | null;
};

export function progressOf(
  job: { id: string; state: string; progressDone: number; progressTotal: number | null; message: string | null; error: string | null; cancelRequested: boolean; startedAt: Date | null },
  now = Date.now(),
): ImportProgress {
  const elapsed = job.startedAt ? (now - job.startedAt.getTime()) / 1000 : 0;
  const rate = elapsed > 0.5 && job.progressDone > 0 ? job.progressDone / elapsed : null;
  const left = job.progressTotal !== null ? Math.max(0, job.progressTotal - job.progressDone) : null;
  return {
    jobId: job.id,
    state: job.state,
    done: job.progressDone,
    total: job.progressTotal,
    message: job.message,
    error: job.error,
    cancelRequested: job.cancelRequested,
    rate,
    etaSeconds: rate && left !== null ? left / rate : null,
  };
}

const JOB_SELECT = { id: true, state: true, progressDone: true, progressTotal: true, message: true, error: true, cancelRequested: true, startedAt: true } as const;

export async function listImports(db: Db, eventId: string, take = 50): Promise<ImportRow[]> {
  const batches = await db.importBatch.findMany({
    where: { eventId },
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
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
      createdBy: { select: { name: true } },
      job: { select: JOB_SELECT },
    },
  });
  return batches.map((b) => ({
    id: b.id,
    kind: b.kind,
    fileName: b.fileName,
    fileSize: b.fileSize,
    format: b.format,
    status: b.status,
    rowsRead: b.rowsRead,
    rowsStored: b.rowsStored,
    errorCount: b.errorCount,
    funnel: b.funnel,
    fileLabels: (b.fileLabels as Record<string, number> | null) ?? null,
    message: b.message,
    createdAt: b.createdAt,
    finishedAt: b.finishedAt,
    createdBy: b.createdBy?.name ?? null,
    progress: b.job ? progressOf(b.job) : null,
  }));
}

/** One job's progress (the import page polls it while a job runs). */
export async function jobProgress(db: Db, jobId: string): Promise<(ImportProgress & { eventId: string | null; type: string }) | null> {
  const job = await db.job.findUnique({ where: { id: jobId }, select: { ...JOB_SELECT, eventId: true, type: true } });
  return job ? { ...progressOf(job), eventId: job.eventId, type: job.type } : null;
}
