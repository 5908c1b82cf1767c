// Runs the web server and the background worker as two supervised child processes (scripts/start.mjs), so that
// imports, publishing, the sync loop and the other jobs never run on the web server's event loop:
// - each child's output is prefixed with its name ("[web] ", "[worker] ");
// - the worker is restarted when it dies, after a back-off that doubles up to a ceiling (reset after a long run);
// - the web server's end ends everything (with its exit status); SIGINT/SIGTERM stop both, then the supervisor;
// - live updates the worker publishes (`{ type: "live", message }` over the IPC channel) are passed to the web
//   process, whose pages relay them to the browsers (lib/server/worker-link.ts).
import { spawn } from "node:child_process";
import readline from "node:readline";

/**
 * @typedef {{ command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string }} ChildSpec
 * @typedef {{ web: ChildSpec, worker: ChildSpec, backoffMs?: { first: number, max: number, resetAfterMs: number },
 *   stopGraceMs?: number, out?: (line: string) => void, err?: (line: string) => void }} SupervisorOptions
 */

/**
 * Whether the user switched the job runner off (ACCORD_WORKER=off, 0, false, no, n or disabled, as zod.s stringbool in lib/config/env-schema.ts
 * reads it): a deployment running its own `accord worker` processes, where `npm start` must not start another.
 */
export function workerSwitchedOff(/** @type {{ ACCORD_WORKER?: string }} */ env) {
  return /^(0|false|no|off|n|disabled)$/i.test(env.ACCORD_WORKER ?? "");
}

/** Starts both children; returns handles for tests and a `done` promise with the exit status to end with. */
export function startSupervisor(/** @type {SupervisorOptions} */ options) {
  const backoff = options.backoffMs ?? { first: 1_000, max: 30_000, resetAfterMs: 60_000 };
  const stopGraceMs = options.stopGraceMs ?? 15_000;
  const out = options.out ?? ((line) => process.stdout.write(line + "\n"));
  const err = options.err ?? ((line) => process.stderr.write(line + "\n"));
  let stopping = false;
  let restartTimer = null;
  let delay = backoff.first;
  /** @type {import("node:child_process").ChildProcess | null} */
  let worker = null;
  let workerStarts = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const listeners = new Set();
  const notify = (what) => {
    for (const l of listeners) l(what);
  };

  const launch = (name, spec) => {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env ?? process.env, stdio: ["ignore", "pipe", "pipe", "ipc"] });
    readline.createInterface({ input: child.stdout }).on("line", (line) => out(`[${name}] ${line}`));
    readline.createInterface({ input: child.stderr }).on("line", (line) => err(`[${name}] ${line}`));
    return child;
  };

  const web = launch("web", options.web);
  const exited = (child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

  const startWorker = () => {
    restartTimer = null;
    if (stopping) return;
    const startedAt = Date.now();
    const child = launch("worker", options.worker);
    worker = child;
    workerStarts += 1;
    notify({ type: "worker-started", pid: child.pid, starts: workerStarts });
    child.on("message", (m) => {
      // Only live updates cross over; the web process ignores anything else it is sent.
      if (m && typeof m === "object" && m.type === "live" && web.connected) web.send(m, (e) => e && undefined);
    });
    child.on("error", (e) => err(`[supervisor] worker: ${e.message}`));
    child.once("exit", (code, signal) => {
      if (worker === child) worker = null;
      if (stopping) return;
      if (Date.now() - startedAt > backoff.resetAfterMs) delay = backoff.first;
      err(`[supervisor] the worker stopped (${signal ?? `exit ${code}`}); restarting in ${Math.round(delay / 100) / 10} s`);
      notify({ type: "worker-exited", code, signal });
      restartTimer = setTimeout(startWorker, delay);
      delay = Math.min(backoff.max, delay * 2);
    });
  };

  const stop = async (signal = "SIGTERM", status = 0) => {
    if (stopping) return done;
    stopping = true;
    if (restartTimer) clearTimeout(restartTimer);
    const children = [web, worker].filter((c) => c && c.exitCode === null && c.signalCode === null);
    for (const c of children) c.kill(signal);
    // A child that does not stop within the grace period is killed.
    const force = setTimeout(() => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill("SIGKILL")), stopGraceMs);
    force.unref();
    await Promise.all(children.map(exited));
    clearTimeout(force);
    resolveDone(status);
    return done;
  };

  web.on("error", (e) => {
    err(`[supervisor] web: ${e.message}`);
    void stop("SIGTERM", 1);
  });
  web.once("exit", (code, signal) => {
    if (stopping) return;
    err(`[supervisor] the web server stopped (${signal ?? `exit ${code}`}); stopping the worker`);
    void stop("SIGTERM", code ?? 1);
  });
  startWorker();

  return {
    done,
    stop,
    web,
    worker: () => worker,
    /** Calls back on "worker-started" and "worker-exited" (tests wait on them). */
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
