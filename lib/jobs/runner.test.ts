import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { z } from "zod";
import type { JobSpec } from "./job-types";
import { claimNextJob, enqueueJob, requestCancel } from "./queue";
import { CANCEL_CHECK_INTERVAL_MS, defineJob, drainJobs, type JobContext, type JobDefinition, runJob } from "./runner";

const specs = {
  sum: { type: "test-sum", payloadSchema: z.object({ n: z.number().int() }) },
  claim: { type: "test-claim", payloadSchema: z.object({}) },
  flaky: { type: "test-flaky", payloadSchema: z.object({}) },
  userError: { type: "test-user-error", payloadSchema: z.object({}) },
  cancel: { type: "test-cancel", payloadSchema: z.object({}) },
} satisfies Record<string, JobSpec<unknown>>;

/** ctx.throwIfCancelled() with the wall clock read as `ms` (the runner reads it before its first await). */
async function checkCancelAt(ctx: JobContext, ms: number): Promise<void> {
  const now = vi.spyOn(Date, "now").mockReturnValue(ms);
  try {
    const check = ctx.throwIfCancelled();
    now.mockRestore();
    await check;
  } finally {
    now.mockRestore();
  }
}

// The jobs these tests run, by type (each test defines its handlers).
const registry = new Map<string, JobDefinition>();
function registerJobHandler<P>(spec: JobSpec<P>, handler: Parameters<typeof defineJob<P>>[1]) {
  registry.set(spec.type, defineJob(spec, handler));
}

describe.each(testFlavors())("job queue on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("runs a job, records progress and its result", async () => {
    registerJobHandler(specs.sum, async (ctx, { n }) => {
      let sum = 0;
      for (let i = 1; i <= n; i++) {
        sum += i;
        await ctx.progress(i, n, `added ${i}`, true);
      }
      return { sum };
    });
    const job = await enqueueJob(t.db, specs.sum, { payload: { n: 4 } });
    expect(await drainJobs(t.db, { registry, types: ["test-sum"] })).toEqual(["succeeded"]);
    const done = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done.state).toBe("succeeded");
    expect(done.progressDone).toBe(4);
    expect(done.progressTotal).toBe(4);
    expect(done.result).toEqual({ sum: 10 });
    expect(done.leaseOwner).toBeNull();
  });

  it("never lets two owners claim the same job, and takes over an expired lease", async () => {
    const job = await enqueueJob(t.db, specs.claim, { payload: {} });
    const [a, b] = await Promise.all([
      claimNextJob(t.db, { owner: "a", types: ["test-claim"] }),
      claimNextJob(t.db, { owner: "b", types: ["test-claim"] }),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await claimNextJob(t.db, { owner: "c", types: ["test-claim"] })).toBeNull();
    // The owner dies: once its lease expires another process takes the job over.
    const later = new Date(Date.now() + 60_000);
    const c = await claimNextJob(t.db, { owner: "c", types: ["test-claim"], now: later });
    expect(c?.id).toBe(job.id);
    expect(c?.attempts).toBe(2);
  });

  it("retries unexpected errors, fails user errors at once, and honours cancel", async () => {
    let calls = 0;
    registerJobHandler(specs.flaky, async () => {
      calls++;
      throw new Error("boom");
    });
    registerJobHandler(specs.userError, async () => {
      throw new UserError("the file is not UTF-8");
    });
    // The cancel flag is read at most once per CANCEL_CHECK_INTERVAL_MS: the test sets the time each check reads.
    const checks: string[] = [];
    registerJobHandler(specs.cancel, async (ctx) => {
      const t0 = Date.now();
      await checkCancelAt(ctx, t0);
      checks.push("read, not cancelled");
      await requestCancel(ctx.db, { jobId: ctx.job.id });
      await checkCancelAt(ctx, t0 + CANCEL_CHECK_INTERVAL_MS - 1);
      checks.push("not read again within the interval");
      await checkCancelAt(ctx, t0 + CANCEL_CHECK_INTERVAL_MS);
      checks.push("unreachable");
      return { unreachable: true };
    });
    const flaky = await enqueueJob(t.db, specs.flaky, { payload: {}, maxAttempts: 2 });
    const claimed = await claimNextJob(t.db, { owner: "o", types: ["test-flaky"] });
    expect(await runJob(t.db, claimed!, "o", { registry })).toBe("retrying");
    const again = await claimNextJob(t.db, { owner: "o", types: ["test-flaky"], now: new Date(Date.now() + 60_000) });
    expect(await runJob(t.db, again!, "o", { registry })).toBe("failed");
    expect(calls).toBe(2);
    // The unexpected error's own text stays in the server log; the job shows a generic sentence with a reference.
    const flakyError = (await t.db.job.findUniqueOrThrow({ where: { id: flaky.id } })).error;
    expect(flakyError).toMatch(/^Something went wrong on the server \(logged as [0-9a-f]{8}\)/);
    expect(flakyError).not.toContain("boom");

    await enqueueJob(t.db, specs.userError, { payload: {} });
    expect(await drainJobs(t.db, { registry, types: ["test-user-error"] })).toEqual(["failed"]);

    const c = await enqueueJob(t.db, specs.cancel, { payload: {} });
    expect(await drainJobs(t.db, { registry, types: ["test-cancel"] })).toEqual(["cancelled"]);
    expect((await t.db.job.findUniqueOrThrow({ where: { id: c.id } })).state).toBe("cancelled");
    expect(checks).toEqual(["read, not cancelled", "not read again within the interval"]);
  });

  it("checks a payload against its job's schema when it is enqueued and again when it runs", async () => {
    const ran: number[] = [];
    registerJobHandler(specs.sum, async (_ctx, { n }) => {
      ran.push(n);
    });
    await expect(enqueueJob(t.db, specs.sum, { payload: { n: "4" as unknown as number } })).rejects.toThrow(/expected number/i);
    expect(await t.db.job.count()).toBe(0);
    // A row written behind the queue's back (an older version, a hand edit) fails instead of reaching the handler.
    const bad = await t.db.job.create({ data: { type: specs.sum.type, payload: { n: 1.5 } } });
    expect(await drainJobs(t.db, { registry, types: [specs.sum.type] })).toEqual(["failed"]);
    expect((await t.db.job.findUniqueOrThrow({ where: { id: bad.id } })).error).toMatch(/^invalid payload for job type "test-sum"/);
    expect(ran).toEqual([]);
  });
});
