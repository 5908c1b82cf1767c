import { checkEnvAtStartup, env, EXIT_BAD_CONFIG } from "@/lib/config/env";

/**
 * The Node.js server's start (instrumentation.ts): a bad environment variable stops the process before it
 * serves anything, with one line per variable; then the background work starts unless ACCORD_BACKGROUND is off.
 * Under `npm start` (scripts/supervisor.mjs) the jobs and the sync loop run in the supervised worker process
 * (ACCORD_WORKER=off here): its live updates arrive over the IPC channel.
 * Kept out of instrumentation.ts, which is also compiled for the Edge runtime (no process.exit there).
 */
export async function startServer(): Promise<void> {
  if (!checkEnvAtStartup()) process.exit(EXIT_BAD_CONFIG);
  if (!env().ACCORD_WORKER && process.send) {
    const { receiveWorkerLive } = await import("@/lib/server/worker-link");
    receiveWorkerLive();
  }
  if (!env().ACCORD_BACKGROUND) return;
  const { startBackground } = await import("./background");
  await startBackground();
}
