import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_DATA_DIR, E2E_DB_URL, E2E_LLM_SIMULATOR_PORT, E2E_PORT, E2E_PROLIFIC_SIMULATOR_PORT, E2E_SIMULATOR_PORT } from "./env";

/**
 * Starts the built app (scripts/serve.mjs, as `npm start` does) on its own port with a fresh SQLite database and no demo, so the
 * tests seed exactly the data they need. `npm test` builds the app first (scripts/test.sh).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
  const env = {
    ...process.env,
    DATABASE_URL: E2E_DB_URL,
    ACCORD_DEMO: "0",
    ACCORD_SECRET_FILE: path.join(E2E_DATA_DIR, ".accord-secret"),
    ACCORD_DATA_DIR: E2E_DATA_DIR,
    // The app's own MTurk simulator, on a port and state file of its own, on a fast clock.
    ACCORD_SIMULATOR_URL: `http://127.0.0.1:${E2E_SIMULATOR_PORT}`,
    ACCORD_SIMULATOR_STATE: path.join(E2E_DATA_DIR, "simulator-state.json"),
    ACCORD_SIMULATOR_SPEEDUP: "300",
    // The embedded Prolific simulator (state under ACCORD_DATA_DIR); its participants open the app's own pages.
    ACCORD_PROLIFIC_SIMULATOR_URL: `http://127.0.0.1:${E2E_PROLIFIC_SIMULATOR_PORT}`,
    // The embedded LLM simulator: the default language model endpoint.
    ACCORD_LLM_SIMULATOR_URL: `http://127.0.0.1:${E2E_LLM_SIMULATOR_PORT}/v1`,
    ACCORD_PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const migrate = spawn(process.execPath, ["node_modules/prisma/build/index.js", "migrate", "deploy"], { env, stdio: "inherit" });
  await new Promise<void>((resolve, reject) => migrate.on("exit", (c) => (c === 0 ? resolve() : reject(new Error(`migrate exited ${c}`)))));

  const log = fs.openSync(path.join(E2E_DATA_DIR, "server.log"), "w");
  const server: ChildProcess = spawn(process.execPath, ["scripts/serve.mjs", "--port", String(E2E_PORT), "--host", "127.0.0.1"], {
    env,
    stdio: ["ignore", log, log],
  });
  // The tests measure the server's memory (e2e/16-upload-route.spec.ts); workers inherit this.
  process.env.E2E_SERVER_PID = String(server.pid);
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${E2E_PORT}/signin`, { redirect: "manual" });
      if (res.status < 500) break;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null) throw new Error(`the app exited early; see ${path.join(E2E_DATA_DIR, "server.log")}`);
    if (Date.now() > deadline) throw new Error("the app did not start within 90 s");
    await new Promise((r) => setTimeout(r, 300));
  }
  return async () => {
    // Waits for the server to exit (not for a fixed time), so the next run's port and data directory are free.
    const exited = new Promise((resolve) => (server.exitCode !== null || server.signalCode !== null ? resolve(undefined) : server.once("exit", resolve)));
    server.kill("SIGTERM");
    // One that has not stopped within a generous half-minute is killed.
    const stubborn = setTimeout(() => server.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(stubborn);
  };
}
