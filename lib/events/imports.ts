import "server-only";
import fs from "node:fs";
import type { Db } from "@/lib/db/client";
import { importFilePathOf } from "@/lib/ingest/import-file";
import { IMPORT_COLUMNS, type ImportView } from "@/lib/ingest/import-queries";
import { isUploadedFile } from "@/lib/ingest/uploads";

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

export type ImportRow = Omit<ImportView, "funnel" | "job"> & {
  funnel: unknown;
  createdBy: string | null;
  progress: ImportProgress | null;
  /** The file the import read: still there (a re-run can read it), and whether it is an upload (which a researcher may delete). */
  file: { kept: boolean; upload: boolean } | null;
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

export const JOB_SELECT = { id: true, state: true, progressDone: true, progressTotal: true, message: true, error: true, cancelRequested: true, startedAt: true } as const;

export async function listImports(db: Db, eventId: string, take = 50): Promise<ImportRow[]> {
  const batches = await db.importBatch.findMany({
    where: { eventId },
    orderBy: { createdAt: "desc" },
    take,
    select: { ...IMPORT_COLUMNS, createdBy: { select: { name: true } }, job: { select: { ...JOB_SELECT, payload: true } } },
  });
  return batches.map(({ createdBy, job, fileLabels, ...b }) => {
    const filePath = importFilePathOf(job?.payload);
    return {
      ...b,
      fileLabels: (fileLabels as Record<string, number> | null) ?? null,
      createdBy: createdBy?.name ?? null,
      progress: job ? progressOf(job) : null,
      file: filePath ? { kept: fs.existsSync(filePath), upload: isUploadedFile(filePath) } : null,
    };
  });
}

/** One job's progress (the import page polls it while a job runs). */
export async function jobProgress(db: Db, jobId: string): Promise<(ImportProgress & { eventId: string | null; type: string }) | null> {
  const job = await db.job.findUnique({ where: { id: jobId }, select: { ...JOB_SELECT, eventId: true, type: true } });
  return job ? { ...progressOf(job), eventId: job.eventId, type: job.type } : null;
}
