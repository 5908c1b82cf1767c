import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { claimNextJob, enqueueJob, requestCancel } from "./queue";
import { CANCEL_CHECK_INTERVAL_MS, drainJobs, registerJobHandler, runJob } from "./runner";

describe.each(testFlavors())("job queue on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("runs a job, records progress and its result", async () => {
    registerJobHandler("test-sum", async (ctx) => {
      const { n } = ctx.job.payload as { n: number };
      let sum = 0;
      for (let i = 1; i <= n; i++) {
        sum += i;
        await ctx.progress(i, n, `added ${i}`, true);
      }
      return { sum };
    });
    const job = await enqueueJob(t.db, { type: "test-sum", payload: { n: 4 } });
    expect(await drainJobs(t.db, { types: ["test-sum"] })).toEqual(["succeeded"]);
    const done = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done.state).toBe("succeeded");
    expect(done.progressDone).toBe(4);
    expect(done.progressTotal).toBe(4);
    expect(done.result).toEqual({ sum: 10 });
    expect(done.leaseOwner).toBeNull();
  });

  it("never lets two owners claim the same job, and takes over an expired lease", async () => {
    const job = await enqueueJob(t.db, { type: "test-claim", payload: {} });
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
    registerJobHandler("test-flaky", async () => {
      calls++;
      throw new Error("boom");
    });
    registerJobHandler("test-user-error", async () => {
      throw new UserError("the file is not UTF-8");
    });
    registerJobHandler("test-cancel", async (ctx) => {
      await requestCancel(ctx.db, { jobId: ctx.job.id });
      await new Promise((r) => setTimeout(r, CANCEL_CHECK_INTERVAL_MS + 100));
      await ctx.throwIfCancelled();
      return { unreachable: true };
    });
    const flaky = await enqueueJob(t.db, { type: "test-flaky", payload: {}, maxAttempts: 2 });
    const claimed = await claimNextJob(t.db, { owner: "o", types: ["test-flaky"] });
    expect(await runJob(t.db, claimed!, "o")).toBe("retrying");
    const again = await claimNextJob(t.db, { owner: "o", types: ["test-flaky"], now: new Date(Date.now() + 60_000) });
    expect(await runJob(t.db, again!, "o")).toBe("failed");
    expect(calls).toBe(2);
    expect((await t.db.job.findUniqueOrThrow({ where: { id: flaky.id } })).error).toBe("boom");

    await enqueueJob(t.db, { type: "test-user-error", payload: {} });
    expect(await drainJobs(t.db, { types: ["test-user-error"] })).toEqual(["failed"]);

    const c = await enqueueJob(t.db, { type: "test-cancel", payload: {} });
    expect(await drainJobs(t.db, { types: ["test-cancel"] })).toEqual(["cancelled"]);
    expect((await t.db.job.findUniqueOrThrow({ where: { id: c.id } })).state).toBe("cancelled");
  });
});
