import "server-only";
import { type Db, flavorOf, type Prisma } from "@/lib/db/client";
import type { JobSpec } from "./job-types";
import { JOB_STATE, type JobState } from "@/lib/db/enums";

/**
 * Long work (imports, publishing, sync, exports, training) runs as jobs recorded in the database.
 * A job is claimed with a lease: a process that dies stops renewing it, and another process takes the
 * job over when the lease expires. On PostgreSQL the claim selects with FOR UPDATE SKIP LOCKED so that
 * concurrent workers never block on, or double-claim, the same row; on SQLite (one writer) an atomic
 * compare-and-set update does the same.
 */
export type { JobState };

export type JobRecord = {
  id: string;
  type: string;
  state: string;
  eventId: string | null;
  payload: Prisma.JsonValue;
  attempts: number;
  maxAttempts: number;
  createdById: string | null;
};

export const DEFAULT_LEASE_MS = 30_000;

/** Records a job of the given kind; its payload is checked against the kind's schema first (a ZodError if wrong). */
export async function enqueueJob<P>(
  db: Db,
  spec: JobSpec<P>,
  {
    payload,
    eventId,
    createdById,
    maxAttempts = 3,
    runAfter,
  }: {
    payload: P;
    eventId?: string | null;
    createdById?: string | null;
    maxAttempts?: number;
    runAfter?: Date;
  },
) {
  const checked = spec.payloadSchema.parse(payload) as Prisma.InputJsonValue;
  return db.job.create({
    data: { type: spec.type, payload: checked, eventId: eventId ?? null, createdById: createdById ?? null, maxAttempts, runAfter: runAfter ?? new Date() },
  });
}

/** Claims the oldest runnable job of the given types (queued and due, or running with an expired lease). */
export async function claimNextJob(
  db: Db,
  { owner, types, leaseMs = DEFAULT_LEASE_MS, now = new Date() }: { owner: string; types?: string[]; leaseMs?: number; now?: Date },
): Promise<JobRecord | null> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const typeFilter = types && types.length > 0 ? { type: { in: types } } : {};
  const runnable: Prisma.JobWhereInput = {
    ...typeFilter,
    OR: [
      { state: JOB_STATE.queued, runAfter: { lte: now } },
      { state: JOB_STATE.running, leaseUntil: { lt: now } },
    ],
  };

  if (flavorOf(db) === "postgres") {
    return db.$transaction(async (tx) => {
      const typeList = types && types.length > 0 ? types : null;
      const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(
        `SELECT id FROM "Job"
          WHERE ($1::text[] IS NULL OR type = ANY($1::text[]))
            AND ((state = '${JOB_STATE.queued}' AND "runAfter" <= $2) OR (state = '${JOB_STATE.running}' AND "leaseUntil" < $2))
          ORDER BY "createdAt" ASC
          LIMIT 1
          FOR UPDATE SKIP LOCKED`,
        typeList,
        now,
      );
      if (rows.length === 0) return null;
      return tx.job.update({
        where: { id: rows[0].id },
        data: { state: JOB_STATE.running, leaseOwner: owner, leaseUntil, attempts: { increment: 1 }, startedAt: now },
      });
    });
  }

  // SQLite: try candidates in order; the conditional update is the atomic claim.
  for (let tries = 0; tries < 5; tries++) {
    const candidate = await db.job.findFirst({ where: runnable, orderBy: { createdAt: "asc" }, select: { id: true, state: true, leaseUntil: true } });
    if (!candidate) return null;
    const claimed = await db.job.updateMany({
      where: { id: candidate.id, state: candidate.state, leaseUntil: candidate.leaseUntil },
      data: { state: JOB_STATE.running, leaseOwner: owner, leaseUntil, attempts: { increment: 1 }, startedAt: now },
    });
    if (claimed.count === 1) return db.job.findUnique({ where: { id: candidate.id } });
  }
  return null;
}

/** Extends the lease while work goes on; returns false when the job was taken over or cancelled. */
export async function renewLease(db: Db, { jobId, owner, leaseMs = DEFAULT_LEASE_MS }: { jobId: string; owner: string; leaseMs?: number }) {
  const res = await db.job.updateMany({
    where: { id: jobId, leaseOwner: owner, state: JOB_STATE.running },
    data: { leaseUntil: new Date(Date.now() + leaseMs) },
  });
  return res.count === 1;
}

export async function reportProgress(
  db: Db,
  { jobId, owner, done, total, message, leaseMs = DEFAULT_LEASE_MS }: { jobId: string; owner: string; done: number; total?: number | null; message?: string; leaseMs?: number },
) {
  const res = await db.job.updateMany({
    where: { id: jobId, leaseOwner: owner, state: JOB_STATE.running },
    data: {
      progressDone: done,
      ...(total !== undefined ? { progressTotal: total } : {}),
      ...(message !== undefined ? { message } : {}),
      leaseUntil: new Date(Date.now() + leaseMs),
    },
  });
  return res.count === 1;
}

export async function finishJob(
  db: Db,
  { jobId, owner, state, result, error, message }: { jobId: string; owner: string; state: typeof JOB_STATE.succeeded | typeof JOB_STATE.failed | typeof JOB_STATE.cancelled; result?: Prisma.InputJsonValue; error?: string; message?: string },
) {
  return db.job.updateMany({
    where: { id: jobId, leaseOwner: owner },
    data: { state, result, error, message, finishedAt: new Date(), leaseOwner: null, leaseUntil: null },
  });
}

/** Puts a failed attempt back in the queue with exponential backoff, or fails it for good. */
export async function retryOrFail(
  db: Db,
  { job, owner, error, baseDelayMs = 2_000 }: { job: JobRecord; owner: string; error: string; baseDelayMs?: number },
) {
  if (job.attempts >= job.maxAttempts) {
    await finishJob(db, { jobId: job.id, owner, state: JOB_STATE.failed, error });
    return JOB_STATE.failed;
  }
  const delay = baseDelayMs * 2 ** Math.max(0, job.attempts - 1);
  await db.job.updateMany({
    where: { id: job.id, leaseOwner: owner },
    data: { state: JOB_STATE.queued, error, leaseOwner: null, leaseUntil: null, runAfter: new Date(Date.now() + delay) },
  });
  return "retrying" as const;
}

export async function requestCancel(db: Db, { jobId }: { jobId: string }) {
  // A queued job is cancelled at once; a running one stops at its next cancellation check.
  await db.job.updateMany({ where: { id: jobId, state: JOB_STATE.queued }, data: { state: JOB_STATE.cancelled, cancelRequested: true, finishedAt: new Date() } });
  await db.job.updateMany({ where: { id: jobId, state: JOB_STATE.running }, data: { cancelRequested: true } });
}

export async function isCancelRequested(db: Db, jobId: string): Promise<boolean> {
  const job = await db.job.findUnique({ where: { id: jobId }, select: { cancelRequested: true } });
  return job?.cancelRequested ?? true;
}
