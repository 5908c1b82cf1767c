#!/usr/bin/env node
// `npm start`: migrate the database, build the app when its sources changed, and serve it.
//   npm start                      demo mode: demo admin + demo data + local MTurk simulator
//   npm start -- --no-demo         a clean Accord (first visit: create the first admin)
//   npm start -- --port 4000       another port (default 3000, or PORT)
//   npm start -- --host 0.0.0.0    listen on other interfaces (default: 127.0.0.1 in demo mode, all otherwise; or ACCORD_HOST)
//   npm start -- --in-process      jobs and the sync loop inside the web server (one process, as before the split)
//   npm run dev                    Next.js dev server (hot reload) instead of a production build (jobs in-process)
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "./build-if-needed.mjs";
import { startSupervisor, workerSwitchedOff } from "./supervisor.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
process.chdir(root);
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 9)) {
  console.error(`Accord needs Node.js 20.9 or later (this is ${process.version}).`);
  process.exit(1);
}

const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", NEXT_TELEMETRY_DISABLED: "1" };
if (flag("--no-demo")) env.ACCORD_DEMO = "0";
env.ACCORD_DEMO ??= "1";
const port = option("--port", env.PORT || "3000");
// The server reads the port for its sign-in banner (ACCORD_PUBLIC_URL, else http://localhost:PORT).
env.PORT = port;
// The demo's admin password is printed in the terminal: the demo listens on loopback only unless asked.
const host = option("--host", env.ACCORD_HOST || (env.ACCORD_DEMO === "1" ? "127.0.0.1" : "0.0.0.0"));
const dev = flag("--dev");

// The exit status of an Accord process stopped by a bad environment variable (lib/config/env.ts), which
// has already printed one line per variable: nothing to add.
const EXIT_BAD_CONFIG = 78;

function run(cmd, cmdArgs, what) {
  const res = spawnSync(cmd, cmdArgs, { stdio: "inherit", env });
  if (res.status === EXIT_BAD_CONFIG) process.exit(EXIT_BAD_CONFIG);
  if (res.status !== 0) {
    console.error(`\naccord: ${what} failed (exit ${res.status ?? res.signal}).`);
    process.exit(res.status || 1);
  }
}

// 1. Database: apply committed migrations (SQLite file under ./data by default, or DATABASE_URL), through
//    `accord migrate` (lib/db/migrate.ts: a new SQLite file is created with Accord's page size first). Like
//    every accord command it first validates the whole environment (lib/config/env.ts), the one the server
//    gets too, so a bad variable stops npm start here, before the build.
run(process.execPath, ["scripts/accord.mjs", "migrate"], "database migration");

// 2. Build when the sources differ from the last build.
const nextBin = "node_modules/next/dist/bin/next";
if (!dev) buildIfNeeded(root, env);

// 3. Serve. The web server (scripts/serve.mjs) and the background worker (`accord worker --local`: imports, publishing,
//    the sync loop, analysis, replay, training) run as two processes under scripts/supervisor.mjs, so that heavy work
//    never holds up a page; the rest of the background work (simulators, demo, upload sweep) starts inside the
//    server (instrumentation.ts). `npm run dev` and --in-process keep the jobs inside the one server process.
console.log(`accord: starting on http://localhost:${port}${env.ACCORD_DEMO === "1" ? " (demo mode)" : ""}, listening on ${host}`);
/** The web server alone (its jobs in-process, or none when the user switched the worker off). */
function serveAlone(serveArgs) {
  const child = spawn(process.execPath, serveArgs, { stdio: "inherit", env });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
const serveArgs = ["scripts/serve.mjs", "--port", port, "--host", host];
if (dev || flag("--in-process")) {
  serveAlone(dev ? [nextBin, "dev", "-p", port, "-H", host] : serveArgs);
} else if (workerSwitchedOff(process.env)) {
  // A deployment with workers of its own: neither the server nor a supervised worker runs jobs here.
  console.log("accord: ACCORD_WORKER=off: no background worker is started here (imports, publishing and the sync loop wait for your own `npx accord worker` processes)");
  serveAlone(serveArgs);
} else {
  const supervisor = startSupervisor({
    web: { command: process.execPath, args: serveArgs, env: { ...env, ACCORD_WORKER: "off" } },
    worker: { command: process.execPath, args: ["scripts/accord.mjs", "worker", "--local", "--interval", "1000", "--concurrency", env.ACCORD_WORKER_CONCURRENCY || "2"], env },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => void supervisor.stop(sig));
  supervisor.done.then((status) => process.exit(status));
}
