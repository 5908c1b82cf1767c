import { getDb, prepareDb } from "@/lib/db/client";
import { ensureHumaidScheme } from "@/lib/events/schemes";
import { startJobWorker } from "@/lib/jobs/runner";
import { serverConfig } from "./config";
import { ensureDemoAdmin } from "./demo-admin";
import { registerJobHandlers } from "./job-handlers";

const g = globalThis as unknown as { __accordBackground?: Promise<void> };

/** Starts Accord's background work once per process (see instrumentation.ts). */
export function startBackground(): Promise<void> {
  g.__accordBackground ??= run();
  return g.__accordBackground;
}

async function run(): Promise<void> {
  const config = serverConfig();
  const db = getDb();
  await prepareDb(db);
  await ensureHumaidScheme(db);
  if (config.ACCORD_DEMO) {
    const creds = await ensureDemoAdmin(db);
    if (creds) {
      console.log(`\n  Accord demo — sign in at ${process.env.ACCORD_PUBLIC_URL ?? "http://localhost:3000"}`);
      console.log(`    email:    ${creds.email}`);
      console.log(`    password: ${creds.password}\n`);
    }
  }
  registerJobHandlers();
  if (config.ACCORD_WORKER === "on") {
    startJobWorker(db, { concurrency: config.ACCORD_WORKER_CONCURRENCY });
  }
}
