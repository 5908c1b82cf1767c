// A child process for the campaign reliability tests (lib/campaign/reliability-*.test.ts): runs the publish
// jobs of DATABASE_URL against the crowd provider of its settings (the simulator the test runs), as `accord
// worker` does, but with a short job lease so that a restart after SIGKILL takes the job over within seconds.
//   node --import tsx scripts/campaign-child.ts publish --batch <HitBatch id> [--lease-ms 2000] [--concurrency 4]
// Exits 0 when the batch's publish job has succeeded (1 when it failed for good).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { parseArgs } from "node:util";
import { getDb, prepareDb } from "@/lib/db/client";
import { claimNextJob } from "@/lib/jobs/queue";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { processOwnerId, runJob } from "@/lib/jobs/runner";
import { JOB_STATE } from "@/lib/db/enums";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    batch: { type: "string" },
    "lease-ms": { type: "string", default: "2000" },
    concurrency: { type: "string", default: "4" },
  },
});
if (positionals[0] !== "publish" || !values.batch) {
  process.stderr.write("usage: campaign-child.ts publish --batch <HitBatch id> [--lease-ms MS] [--concurrency N]\n");
  process.exit(2);
}

const db = getDb();
await prepareDb(db);
const leaseMs = Number(values["lease-ms"]);
const owner = processOwnerId();
const registry = accordJobs({ publishConcurrency: Number(values.concurrency) });
const batch = await db.hitBatch.findUniqueOrThrow({ where: { id: values.batch }, select: { jobId: true } });
process.stdout.write(`child ${owner} ready\n`);

for (;;) {
  const job = await claimNextJob(db, { owner, types: [JOBS.publish.type], leaseMs });
  if (job) {
    process.stdout.write(`claimed job ${job.id} (attempt ${job.attempts})\n`);
    process.stdout.write(`job ${job.id}: ${await runJob(db, job, owner, { registry, leaseMs })}\n`);
    continue;
  }
  const state = (await db.job.findUniqueOrThrow({ where: { id: batch.jobId as string }, select: { state: true } })).state;
  if (state === JOB_STATE.succeeded || state === JOB_STATE.failed || state === JOB_STATE.cancelled) {
    await db.$disconnect();
    process.exit(state === JOB_STATE.succeeded ? 0 : 1);
  }
  // The job is leased by a process that died: wait for the lease to expire.
  await new Promise((r) => setTimeout(r, 100));
}
