import { describe, expect, it } from "vitest";
import { startSupervisor, type Supervisor, type SupervisorChange, workerSwitchedOff } from "./supervisor.mjs";

// Stand-ins for the two processes: the web prints the live updates it is passed; the worker publishes one when it starts.
const WEB = `
process.on("message", (m) => console.log("got", m.type, m.message.kind));
console.log("web up");
process.on("SIGTERM", () => { console.log("web stopping"); process.exit(0); });
setInterval(() => {}, 60000);
`;
const WORKER = `
process.send({ type: "live", message: { eventId: "e1", kind: "import", at: 1 } });
console.error("worker up " + process.pid);
process.on("SIGTERM", () => process.exit(0));
setInterval(() => {}, 60000);
`;
const node = (code: string) => ({ command: process.execPath, args: ["-e", code] });

/** Collects the prefixed output lines, and resolves waits on them (no fixed sleeps). */
function output() {
  const lines: string[] = [];
  const waits: Array<{ test: (l: string) => boolean; resolve: (l: string) => void }> = [];
  const push = (line: string) => {
    lines.push(line);
    for (const w of [...waits]) {
      if (!w.test(line)) continue;
      waits.splice(waits.indexOf(w), 1);
      w.resolve(line);
    }
  };
  const line = (test: RegExp) =>
    new Promise<string>((resolve) => {
      const seen = lines.find((l) => test.test(l));
      if (seen) resolve(seen);
      else waits.push({ test: (l) => test.test(l), resolve });
    });
  return { lines, push, line };
}

function nextChange(s: Supervisor, type: SupervisorChange["type"]): Promise<SupervisorChange> {
  return new Promise((resolve) => {
    const off = s.onChange((c) => {
      if (c.type !== type) return;
      off();
      resolve(c);
    });
  });
}

const alive = (pid: number | undefined) => {
  try {
    process.kill(pid as number, 0);
    return true;
  } catch {
    return false;
  }
};

describe("npm start's supervisor", () => {
  it("prefixes each process's output, passes the worker's live updates to the web, restarts a killed worker and stops both", async () => {
    const out = output();
    const s = startSupervisor({ web: node(WEB), worker: node(WORKER), backoffMs: { first: 10, max: 20, resetAfterMs: 60_000 }, out: out.push, err: out.push });
    await out.line(/^\[web\] web up$/);
    await out.line(/^\[worker\] worker up \d+$/);
    // The live update the worker sent reached the web process through the supervisor.
    await out.line(/^\[web\] got live import$/);

    const first = s.worker();
    const restarted = nextChange(s, "worker-started");
    first?.kill("SIGKILL");
    const again = await restarted;
    expect(again).toMatchObject({ type: "worker-started", starts: 2 });
    expect(again.type === "worker-started" && again.pid).not.toBe(first?.pid);
    expect(out.lines.some((l) => /^\[supervisor\] the worker stopped \(SIGKILL\); restarting/.test(l))).toBe(true);
    await out.line(new RegExp(`^\\[worker\\] worker up ${again.type === "worker-started" ? again.pid : 0}$`));

    const web = s.web;
    const worker = s.worker();
    expect(await s.stop("SIGTERM")).toBe(0);
    expect(out.lines).toContain("[web] web stopping");
    expect(alive(web.pid)).toBe(false);
    expect(alive(worker?.pid)).toBe(false);
    // Stopped on purpose: no restart follows.
    expect(s.worker()).toBeNull();
  });

  it("ends with the web server's exit status when the web server stops, stopping the worker", async () => {
    const out = output();
    const s = startSupervisor({ web: node(`setTimeout(() => process.exit(3), 0); process.on("message", () => {});`), worker: node(WORKER), out: out.push, err: out.push });
    const worker = await new Promise<ReturnType<Supervisor["worker"]>>((resolve) => resolve(s.worker()));
    expect(await s.done).toBe(3);
    expect(alive(worker?.pid)).toBe(false);
    expect(out.lines.some((l) => /the web server stopped \(exit 3\)/.test(l))).toBe(true);
  });
});

describe("npm start and ACCORD_WORKER", () => {
  it("starts no worker of its own when the user switched the job runner off, as the server reads the switch", () => {
    for (const off of ["off", "OFF", "0", "false", "no", "n", "disabled"]) expect(workerSwitchedOff({ ACCORD_WORKER: off }), off).toBe(true);
    for (const on of [undefined, "", "on", "1", "true", "yes"]) expect(workerSwitchedOff({ ACCORD_WORKER: on }), String(on)).toBe(false);
  });
});
