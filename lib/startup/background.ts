import "server-only";
import { startSyncLoop } from "@/lib/campaign/sync";
import { env } from "@/lib/config/env";
import { getDb, prepareDb } from "@/lib/db/client";
import { dbFlavor } from "@/lib/db/url";
import { startPgRelay } from "@/lib/live/pg-notify";
import { seedDemo } from "@/lib/demo/seed-demo";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { sweepUploads } from "@/lib/ingest/uploads";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { processOwnerId, startJobWorker } from "@/lib/jobs/runner";
import { ensureDemoAdmin } from "./demo-admin";
import { startDemoAutopilot } from "./demo-autopilot";
import { startLocalLlmSimulator } from "./local-llm-simulator";
import { startLocalProlificSimulator } from "./local-prolific-simulator";
import { startLocalSimulator } from "./local-simulator";

let started: Promise<void> | null = null;

/** Starts Accord's background work once per process (instrumentation.ts, the only caller, runs once at start-up). */
export function startBackground(): Promise<void> {
  started ??= run().catch((err) => {
    console.error("[accord] background start-up failed:", err);
  });
  return started;
}

async function run(): Promise<void> {
  const config = env();
  const db = getDb();
  await prepareDb(db);
  await ensureHumaidScheme(db);
  // Several processes on PostgreSQL: live updates travel over LISTEN/NOTIFY.
  if (dbFlavor() === "postgres") await startPgRelay();

  let demo: Awaited<ReturnType<typeof seedDemo>> | null = null;
  if (config.ACCORD_DEMO) {
    const creds = await ensureDemoAdmin(db);
    demo = await seedDemo(db);
    if (creds) {
      console.log(`\n  Accord demo — sign in at ${config.ACCORD_PUBLIC_URL ?? `http://localhost:${config.PORT}`}`);
      console.log(`    email:    ${creds.email}`);
      console.log(`    password: ${creds.password}\n`);
    }
  }

  if (config.ACCORD_SIMULATOR) {
    const simulated = { demoTruth: demo?.truth, speedup: config.ACCORD_SIMULATOR_SPEEDUP ?? (config.ACCORD_DEMO ? 60 : 1), workers: config.ACCORD_SIMULATOR_WORKERS };
    await startLocalSimulator(db, simulated);
    // Prolific's simulator must not keep the rest from starting: its failure is logged, and Settings shows it.
    await startLocalProlificSimulator(db, simulated).catch((err) => console.error("[accord] Prolific simulator:", err instanceof Error ? err.message : err));
    await startLocalLlmSimulator(db, { demoTruth: demo?.truth }).catch((err) => console.error("[accord] LLM simulator:", err instanceof Error ? err.message : err));
  }

  if (config.ACCORD_WORKER) {
    const owner = processOwnerId();
    startJobWorker(db, { registry: accordJobs(), owner, concurrency: config.ACCORD_WORKER_CONCURRENCY });
    startSyncLoop(db, { owner, intervalMs: 1_000, minIntervalMs: 1_000 });
  }

  // Uploads whose import ended longer ago than the retention: at start-up, then hourly.
  const sweep = () =>
    sweepUploads(db, { retentionDays: config.ACCORD_UPLOAD_RETENTION_DAYS }).catch((err) => console.error("[accord] upload sweep failed:", err instanceof Error ? err.message : err));
  void sweep();
  setInterval(sweep, 3_600_000).unref();

  if (demo && demo.events.length > 0) startDemoAutopilot(db, { eventIds: demo.events.map((e) => e.id) });
}
