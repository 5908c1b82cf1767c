import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRng, seedFrom, type Rng } from "@/lib/util/random";
import { ManualClock, RealClock, type SimClock } from "./clock";
import { serviceFault, SimError, throttlingError } from "./errors";
import { fileForUrl } from "./ops-hits";
import { MturkSimulatorService } from "./service";
import { emptyState, type SimStateData } from "./state";
import { appendJournal, beforeCreate, clearJournal, JOURNALED_OPERATIONS, journalEntry, readJournal, replayJournal } from "./journal";
import { toTruthOracle, type TruthOracle } from "./truth";
import { createWorkerPool, DEFAULT_WORKER_MIX, parseWorkerMix, type SimWorker, type WorkerMix } from "./workers";

export const TARGET_PREFIX = "MTurkRequesterServiceV20170117.";

/** Fault injection for reliability tests and benchmarks. Randomness is seeded (same seed → same faults). */
export interface SimulatorFaults {
  /** Fraction (0–1) of requests answered with ServiceFault (HTTP 500; the SDK retries it). */
  serviceFaultRate?: number;
  /**
   * Fraction of those faults that happen AFTER the operation was applied (the response is lost, as on a network
   * failure). A retried CreateHIT then meets its own UniqueRequestToken. Default 0.5.
   */
  faultAfterApplyFraction?: number;
  /** Requests per second allowed (token bucket over real time); above it ThrottlingException "Rate exceeded". */
  throttleRate?: number;
  /** Bucket size for throttleRate (default: throttleRate). */
  throttleBurst?: number;
  /** Fraction (0–1) of requests throttled at random, whatever the rate. */
  throttleFraction?: number;
  /** Extra latency per request in ms: a fixed number or a [min, max] range. */
  latencyMs?: number | [number, number];
  /** Operations subject to faults (default: all). */
  operations?: string[];
}

export interface StartSimulatorOptions {
  /** 0 = a random free port (default 0). */
  port?: number;
  host?: string;
  /** Seeds ids, workers and faults (default 1). */
  seed?: number;
  /** A clock, or "manual" (tests) / "real" (default; sped up by `speedup`). */
  clock?: SimClock | "manual" | "real";
  /** Speed-up of the real clock (60 = a simulated minute per second). */
  speedup?: number;
  /** Worker pool: per-profile counts ({careful: 20}), a spec string ("careful:20,average:5"), or explicit workers. */
  workers?: WorkerMix | string | SimWorker[];
  /** Truth oracle: an oracle, a Map/record tweet_id → label, or a CSV file path (tweet_id,label). */
  truth?: TruthOracle | Map<string, string> | Record<string, string> | string;
  faults?: SimulatorFaults;
  /** Persist the state to this JSON file (loaded at start when it exists; written after changes and on stop). */
  persistFile?: string;
  /** Starting balance in cents (default 1,000,000 = $10,000.00). */
  balanceCents?: number;
  /** Sandbox flavour: balance always 10000.00, no money moves. */
  sandbox?: boolean;
  /** Reject worker ids outside the pool with ParameterValidationError (as the sandbox does for production ids). */
  rejectUnknownWorkers?: boolean;
  /** How often the real clock processes due events, in ms (default 200). */
  tickMs?: number;
}

export interface SimulatorStats {
  requests: number;
  byOperation: Record<string, number>;
  serviceFaults: number;
  throttled: number;
  errors: number;
}

export interface RunningSimulator {
  /** Endpoint for `new MTurkClient({ endpoint: url, region: "us-east-1", credentials: … })`. */
  url: string;
  port: number;
  clock: SimClock;
  /** The live state (read it in tests: HIT counts, balances, workers). */
  state: SimStateData;
  service: MturkSimulatorService;
  stats: SimulatorStats;
  /** Replaces the fault settings (e.g. `setFaults({})` to stop injecting). */
  setFaults(faults: SimulatorFaults): void;
  setTruth(truth: StartSimulatorOptions["truth"]): void;
  /** Writes the state file now (no-op without persistFile). */
  persist(): void;
  stop(): Promise<void>;
}

// The state file's path is chosen at run time: the comments keep Turbopack from tracing the whole project for it.
function loadState(file: string): SimStateData | null {
  if (!existsSync(/*turbopackIgnore: true*/ file)) return null;
  const data = JSON.parse(readFileSync(/*turbopackIgnore: true*/ file, "utf8")) as SimStateData;
  if (data.version !== 1) throw new Error(`${file} is not a simulator state file (version ${String(data.version)})`);
  return data;
}

/** Writes the whole state (fsync'd, then renamed over the old file); the journal it now covers is emptied. */
function writeStateAtomic(file: string, state: SimStateData): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(/*turbopackIgnore: true*/ tmp, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify(state));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(/*turbopackIgnore: true*/ tmp, /*turbopackIgnore: true*/ file);
  clearJournal(file);
}

function readBody(req: IncomingMessage, limit = 2 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new SimError("RequestEntityTooLarge", 413, "The request body is too large."));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

class FaultInjector {
  private tokens = 0;
  private last = Date.now();
  private readonly rng: Rng;
  private current: SimulatorFaults = {};

  constructor(faults: SimulatorFaults, seed: number) {
    this.rng = createRng(seedFrom(seed, "faults"));
    this.faults = faults;
  }

  get faults(): SimulatorFaults {
    return this.current;
  }

  /** New settings start with a full token bucket. */
  set faults(f: SimulatorFaults) {
    this.current = f;
    this.tokens = f.throttleBurst ?? f.throttleRate ?? 0;
    this.last = Date.now();
  }

  applies(op: string): boolean {
    return !this.faults.operations || this.faults.operations.includes(op);
  }

  latency(): number {
    const l = this.faults.latencyMs;
    if (l === undefined) return 0;
    return typeof l === "number" ? l : l[0] + this.rng() * (l[1] - l[0]);
  }

  throttled(): boolean {
    const f = this.faults;
    if (f.throttleFraction && this.rng() < f.throttleFraction) return true;
    if (!f.throttleRate) return false;
    const now = Date.now();
    const burst = f.throttleBurst ?? f.throttleRate;
    this.tokens = Math.min(burst, this.tokens + ((now - this.last) / 1000) * f.throttleRate);
    this.last = now;
    if (this.tokens < 1) return true;
    this.tokens -= 1;
    return false;
  }

  /** "before" = fail without applying, "after" = apply then fail, null = no fault. */
  serviceFault(): "before" | "after" | null {
    const rate = this.faults.serviceFaultRate ?? 0;
    if (rate <= 0 || this.rng() >= rate) return null;
    return this.rng() < (this.faults.faultAfterApplyFraction ?? 0.5) ? "after" : "before";
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/x-amz-json-1.1",
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": randomUUID(),
  });
  res.end(text);
}

function sendError(res: ServerResponse, err: SimError): void {
  sendJson(res, err.status, err.body());
}

/**
 * Starts the MTurk simulator in-process: an HTTP server speaking awsJson1.1 (POST with x-amz-target
 * MTurkRequesterServiceV20170117.<Op>), plus `POST /mturk/externalSubmit` (form posts of HIT pages),
 * `GET /health` and `GET /__simulator/summary`.
 */
export async function startSimulator(opts: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const seed = opts.seed ?? 1;
  const clock: SimClock =
    typeof opts.clock === "object" ? opts.clock : opts.clock === "manual" ? new ManualClock() : new RealClock(opts.speedup ?? 1);

  const loaded = opts.persistFile ? loadState(opts.persistFile) : null;
  const state = loaded ?? emptyState({ seed, balanceCents: opts.balanceCents ?? 1_000_000 });
  const journal = opts.persistFile ? readJournal(opts.persistFile) : [];
  if (!loaded) {
    const w = opts.workers;
    state.workers = Array.isArray(w)
      ? w.map((x) => ({ ...x }))
      : createWorkerPool({ seed, mix: typeof w === "string" ? parseWorkerMix(w) : (w ?? DEFAULT_WORKER_MIX) });
  }

  let writeTimer: NodeJS.Timeout | null = null;
  // eslint-disable-next-line prefer-const -- assigned once the service exists (persist is passed to it)
  let service: MturkSimulatorService;
  const persist = (): void => {
    if (writeTimer) {
      clearTimeout(writeTimer);
      writeTimer = null;
    }
    if (opts.persistFile) {
      service.syncEvents();
      writeStateAtomic(opts.persistFile, state);
    }
  };
  service = new MturkSimulatorService({
    state,
    clock,
    truth: toTruthOracle(opts.truth),
    sandbox: opts.sandbox,
    rejectUnknownWorkers: opts.rejectUnknownWorkers,
    onChange: opts.persistFile
      ? () => {
          if (!writeTimer) {
            writeTimer = setTimeout(persist, 200);
            writeTimer.unref();
          }
        }
      : undefined,
  });
  replayJournal(state, journal);
  service.initialiseWorkers();

  const faults = new FaultInjector(opts.faults ?? {}, seed);
  const stats: SimulatorStats = { requests: 0, byOperation: {}, serviceFaults: 0, throttled: 0, errors: 0 };

  async function handleApi(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
    const raw = await readBody(req);
    if (!target.startsWith(TARGET_PREFIX)) {
      sendError(res, new SimError("UnknownOperationException", 400, `Unknown target ${target}`));
      return;
    }
    const op = target.slice(TARGET_PREFIX.length);
    stats.requests++;
    stats.byOperation[op] = (stats.byOperation[op] ?? 0) + 1;
    let body: unknown = {};
    if (raw.trim() !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        sendError(res, new SimError("SerializationException", 400, "The request body is not valid JSON."));
        return;
      }
    }
    const subject = faults.applies(op);
    const delay = subject ? faults.latency() : 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (subject && faults.throttled()) {
      stats.throttled++;
      sendError(res, throttlingError());
      return;
    }
    const fault = subject ? faults.serviceFault() : null;
    if (fault === "before") {
      stats.serviceFaults++;
      sendError(res, serviceFault(clock.now()));
      return;
    }
    try {
      const journaled = opts.persistFile && JOURNALED_OPERATIONS.has(op) ? beforeCreate(state) : null;
      const result = service.call(op, body);
      // A create call is on disk before it is answered (journal.ts): a kill -9 now loses nothing the app was told.
      if (journaled && opts.persistFile) appendJournal(opts.persistFile, journalEntry(state, journaled, (body as { HITId?: string }).HITId));
      if (fault === "after") {
        stats.serviceFaults++;
        sendError(res, serviceFault(clock.now()));
        return;
      }
      sendJson(res, 200, result);
    } catch (err) {
      if (err instanceof SimError) {
        stats.errors++;
        sendError(res, err);
      } else {
        stats.errors++;
        sendError(res, new SimError("ServiceFault", 500, `Simulator error: ${err instanceof Error ? err.message : String(err)}`));
      }
    }
  }

  async function handleExternalSubmit(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const raw = req.method === "POST" ? await readBody(req) : "";
    const params = new URLSearchParams(raw);
    for (const [k, v] of url.searchParams) if (!params.has(k)) params.set(k, v);
    const assignmentId = params.get("assignmentId") ?? "";
    const fields: Record<string, string> = {};
    for (const [k, v] of params) if (k !== "assignmentId") fields[k] = v;
    try {
      service.submitAssignment({ assignmentId, fields });
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!DOCTYPE html><p>Thank you. Your answers were submitted.</p>");
    } catch (err) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
      res.end(err instanceof Error ? err.message : String(err));
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const target = req.headers["x-amz-target"];
    const done = (p: Promise<void>): void => {
      p.catch((err: unknown) => {
        if (!res.headersSent) sendError(res, err instanceof SimError ? err : new SimError("ServiceFault", 500, String(err)));
      });
    };
    if (req.method === "POST" && typeof target === "string") return done(handleApi(req, res, target));
    if (url.pathname.endsWith("/mturk/externalSubmit")) return done(handleExternalSubmit(req, res, url));
    if (req.method === "GET" && url.pathname === "/health") return sendJson(res, 200, { ok: true });
    if (req.method === "GET" && url.pathname.startsWith("/__simulator/files/")) {
      const file = fileForUrl(service, decodeURIComponent(url.pathname.slice("/__simulator/files/".length)), url.searchParams.get("expires"));
      if ("error" in file) {
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
        return void res.end(file.error);
      }
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.content.length });
      return void res.end(file.content);
    }
    if (req.method === "GET" && url.pathname === "/__simulator/notifications") {
      service.advance();
      return sendJson(res, 200, { notifications: service.state.extra?.notificationOutbox ?? [] });
    }
    if (req.method === "GET" && url.pathname === "/__simulator/summary") {
      service.advance();
      return sendJson(res, 200, { ...summarize(service), stats });
    }
    sendError(res, new SimError("UnknownOperationException", 400, "Send POST / with an x-amz-target header."));
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  service.publicUrl = `http://${opts.host ?? "127.0.0.1"}:${port}`;

  const unsubscribe = clock.onAdvance(() => service.advance());
  const ticker = clock.kind === "real" ? setInterval(() => service.advance(), opts.tickMs ?? 200) : null;
  ticker?.unref();

  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    clock,
    state,
    service,
    stats,
    setFaults(f: SimulatorFaults) {
      faults.faults = f;
    },
    setTruth(truth) {
      service.setTruth(toTruthOracle(truth));
    },
    persist,
    async stop() {
      unsubscribe();
      if (ticker) clearInterval(ticker);
      persist();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Counts for a quick look at the simulator (GET /__simulator/summary, and the CLI's status line). */
export function summarize(service: MturkSimulatorService): Record<string, unknown> {
  const s = service.state;
  const hitStatuses: Record<string, number> = {};
  for (const id of s.hitOrder) {
    const st = service.hitStatus(s.hits[id]);
    hitStatuses[st] = (hitStatuses[st] ?? 0) + 1;
  }
  const assignmentStatuses: Record<string, number> = {};
  for (const a of Object.values(s.assignments)) assignmentStatuses[a.status] = (assignmentStatuses[a.status] ?? 0) + 1;
  return {
    now: new Date(service.clock.now()).toISOString(),
    hits: s.hitOrder.length,
    hitStatuses,
    assignments: assignmentStatuses,
    workers: s.workers.length,
    qualificationTypes: Object.keys(s.qualificationTypes).length,
    balanceCents: s.balanceCents,
  };
}
