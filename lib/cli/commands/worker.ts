import "server-only";
import { parseCliArgs } from "../args";
import { startSyncLoop } from "@/lib/campaign/sync";
import { getDb, prepareDb } from "@/lib/db/client";
import { dbFlavor } from "@/lib/db/url";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { processOwnerId, startJobWorker } from "@/lib/jobs/runner";
import { startPgRelay, stopPgRelay } from "@/lib/live/pg-notify";
import { sendLiveToSupervisor } from "@/lib/server/worker-link";

const HELP = `usage: accord worker [--concurrency N] [--interval MS] [--no-sync] [--no-jobs] [--local]

Runs Accord's background work against DATABASE_URL: recorded jobs (imports, publishing, exports, training)
and the sync loop that fetches assignments, decides them and decides HITs. Start several on one PostgreSQL
database to share the work; each job and each HIT is claimed by one process at a time (SKIP LOCKED + leases).
Stops cleanly on SIGINT/SIGTERM.

--local: the worker \`npm start\` runs beside its web server (scripts/supervisor.mjs): on SQLite its live updates
go to the web process over the supervisor's IPC channel, and it stops when the supervisor goes away.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    concurrency: { type: "string", default: "2" },
    interval: { type: "string", default: "2000" },
    "no-sync": { type: "boolean", default: false },
    "no-jobs": { type: "boolean", default: false },
    local: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  const db = getDb();
  await prepareDb(db);
  await ensureHumaidScheme(db);
  // Decisions made here reach the web processes' live pages over LISTEN/NOTIFY.
  if (dbFlavor() === "postgres") await startPgRelay();
  else if (values.local) sendLiveToSupervisor();
  const owner = processOwnerId();
  const jobs = values["no-jobs"] ? null : startJobWorker(db, { registry: accordJobs(), owner, concurrency: Number(values.concurrency) });
  const sync = values["no-sync"] ? null : startSyncLoop(db, { owner, intervalMs: Number(values.interval), minIntervalMs: Math.min(2_000, Number(values.interval)) });
  process.stdout.write(`accord worker ${owner} running on ${dbFlavor()} (jobs: ${jobs ? "on" : "off"}, sync: ${sync ? "on" : "off"})\n`);
  // The loops' timers are unref'd (they must not hold up other processes): this one keeps the worker alive
  // until it is told to stop, also when there is nothing to do.
  const keepAlive = setInterval(() => undefined, 60_000);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
    // Started by the supervisor: its end (even a crash that sent no signal) is this worker's end.
    if (values.local && process.send) process.once("disconnect", resolve);
  });
  clearInterval(keepAlive);
  process.stdout.write("accord worker: stopping…\n");
  await Promise.all([jobs?.stop(), sync?.stop()]);
  await stopPgRelay();
  await db.$disconnect();
  return 0;
}
