import "server-only";
import os from "node:os";
import { randomUUID } from "node:crypto";
import type { Db, Prisma } from "@/lib/db/client";
import { UserError, unexpectedErrorMessage } from "@/lib/errors";
import type { JobSpec } from "./job-types";
import {
  claimNextJob,
  DEFAULT_LEASE_MS,
  finishJob,
  isCancelRequested,
  type JobRecord,
  renewLease,
  reportProgress,
  retryOrFail,
} from "./queue";
import { JOB_STATE } from "@/lib/db/enums";

/** Thrown by a handler (through ctx.throwIfCancelled) when the job was cancelled. */
export class JobCancelled extends Error {
  constructor() {
    super("cancelled");
    this.name = "JobCancelled";
  }
}

export type JobContext = {
  db: Db;
  job: JobRecord;
  owner: string;
  /** Records progress (throttled to one write per second unless `force`), renewing the lease. */
  progress(done: number, total?: number | null, message?: string, force?: boolean): Promise<void>;
  /** Throws JobCancelled when a cancel was requested (checked at most once a second). */
  throwIfCancelled(): Promise<void>;
  signal: AbortSignal;
};

// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a handler may return nothing
type JobHandler<P> = (ctx: JobContext, payload: P) => Promise<Prisma.InputJsonValue | void>;

/** A kind of job and what runs it. */
export type JobDefinition = JobSpec<unknown> & { handler: JobHandler<unknown> };

/** The jobs a process runs, by type (see lib/jobs/accord-jobs.ts for Accord's own). */
export type JobRegistry = ReadonlyMap<string, JobDefinition>;

/** Pairs a job kind with its handler; runJob hands the handler only a payload that passed the kind's schema. */
export function defineJob<P>(spec: JobSpec<P>, handler: JobHandler<P>): JobDefinition {
  return { type: spec.type, payloadSchema: spec.payloadSchema, handler: (ctx, payload) => handler(ctx, payload as P) };
}

export function createJobRegistry(definitions: readonly JobDefinition[]): JobRegistry {
  return new Map(definitions.map((d) => [d.type, d]));
}

/**
 * A job writes its progress at most once a second and reads its cancel flag at most once a second: a publish job
 * slowed down by MTurk's throttling would otherwise spend its database traffic (and CPU) on bookkeeping.
 */
const PROGRESS_INTERVAL_MS = 1_000;
export const CANCEL_CHECK_INTERVAL_MS = 1_000;

export function processOwnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Runs one claimed job to its end (success, retry, failure or cancel). */
export async function runJob(db: Db, job: JobRecord, owner: string, { registry, leaseMs = DEFAULT_LEASE_MS }: { registry: JobRegistry; leaseMs?: number }): Promise<string> {
  const definition = registry.get(job.type);
  if (!definition) {
    await finishJob(db, { jobId: job.id, owner, state: JOB_STATE.failed, error: `no handler for job type "${job.type}"` });
    return JOB_STATE.failed;
  }
  const payload = definition.payloadSchema.safeParse(job.payload);
  if (!payload.success) {
    await finishJob(db, { jobId: job.id, owner, state: JOB_STATE.failed, error: `invalid payload for job type "${job.type}": ${payload.error.issues.map((i) => i.message).join("; ")}` });
    return JOB_STATE.failed;
  }
  const abort = new AbortController();
  let lastProgress = 0;
  let lastCancelCheck = 0;
  const heartbeat = setInterval(() => {
    renewLease(db, { jobId: job.id, owner, leaseMs })
      .then((ok) => {
        if (!ok) abort.abort();
      })
      .catch(() => undefined);
  }, Math.max(1_000, Math.floor(leaseMs / 3)));
  heartbeat.unref?.();

  const ctx: JobContext = {
    db,
    job,
    owner,
    signal: abort.signal,
    async progress(done, total, message, force = false) {
      const now = Date.now();
      if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
      lastProgress = now;
      const ok = await reportProgress(db, { jobId: job.id, owner, done, total, message, leaseMs });
      if (!ok) abort.abort();
    },
    async throwIfCancelled() {
      if (abort.signal.aborted) throw new JobCancelled();
      const now = Date.now();
      if (now - lastCancelCheck < CANCEL_CHECK_INTERVAL_MS) return;
      lastCancelCheck = now;
      if (await isCancelRequested(db, job.id)) {
        abort.abort();
        throw new JobCancelled();
      }
    },
  };

  try {
    const result = await definition.handler(ctx, payload.data);
    await finishJob(db, { jobId: job.id, owner, state: JOB_STATE.succeeded, result: result ?? undefined });
    return JOB_STATE.succeeded;
  } catch (err) {
    if (err instanceof JobCancelled) {
      await finishJob(db, { jobId: job.id, owner, state: JOB_STATE.cancelled, message: "Cancelled." });
      return JOB_STATE.cancelled;
    }
    if (err instanceof UserError) {
      // An expected failure (bad file, refused action): retrying would not help.
      await finishJob(db, { jobId: job.id, owner, state: JOB_STATE.failed, error: err.message });
      return JOB_STATE.failed;
    }
    // Anything else (a database error, a bug) is logged under a reference; pages show only that sentence.
    const reference = randomUUID().slice(0, 8);
    console.error(`[accord] job ${job.type} ${job.id} failed (reference ${reference}):`, err);
    return retryOrFail(db, { job, owner, error: unexpectedErrorMessage(reference) });
  } finally {
    clearInterval(heartbeat);
  }
}

export type JobWorker = { stop(): Promise<void>; owner: string };

/**
 * Polls for jobs and runs them, `concurrency` at a time. Used inside the server process
 * (instrumentation.ts) and by `accord worker`.
 */
export function startJobWorker(
  db: Db,
  {
    registry,
    owner = processOwnerId(),
    types = [...registry.keys()],
    pollMs = 500,
    concurrency = 2,
    leaseMs = DEFAULT_LEASE_MS,
  }: { registry: JobRegistry; owner?: string; types?: string[]; pollMs?: number; concurrency?: number; leaseMs?: number },
): JobWorker {
  let stopping = false;
  const running = new Set<Promise<unknown>>();
  let wake: (() => void) | null = null;

  const loop = (async () => {
    while (!stopping) {
      let claimed: JobRecord | null = null;
      if (running.size < concurrency) {
        try {
          claimed = await claimNextJob(db, { owner, types, leaseMs });
        } catch (err) {
          console.error("[accord] job claim failed:", err instanceof Error ? err.message : err);
        }
      }
      if (claimed) {
        const p = runJob(db, claimed, owner, { registry, leaseMs }).catch((err) => console.error("[accord] job crashed:", err));
        running.add(p);
        p.finally(() => {
          running.delete(p);
          wake?.();
        });
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        const t = setTimeout(resolve, pollMs);
        t.unref?.();
      });
      wake = null;
    }
  })();

  return {
    owner,
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      await Promise.allSettled([...running]);
    },
  };
}

/** Runs queued jobs until none is left (tests and the CLI, which do not keep a poller). */
export async function drainJobs(db: Db, { registry, owner = processOwnerId(), types = [...registry.keys()] }: { registry: JobRegistry; owner?: string; types?: string[] }) {
  const outcomes: string[] = [];
  for (;;) {
    const job = await claimNextJob(db, { owner, types });
    if (!job) return outcomes;
    outcomes.push(await runJob(db, job, owner, { registry }));
  }
}
