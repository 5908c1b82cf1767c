import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock, RealClock, type SimClock } from "@/lib/crowd/simulator/clock";
import { createRng, seedFrom } from "@/lib/util/random";
import { route } from "./routes";
import { ProlificSimService } from "./service";
import { ProlificSimError, serverError, tooManyRequests } from "./sim-error";
import { emptyProlificState, loadProlificState, saveProlificState, type ProlificSimState } from "./state";
import { queueDeliveries, sendDueDeliveries } from "./webhooks";
import { toTruthOracle, type TruthInput } from "@/lib/crowd/simulator/truth";
import { parseWorkerMix, type WorkerMix } from "@/lib/crowd/simulator/workers";
import { fillStudyUrl, ProlificParticipants, SESSION_COOKIE } from "./participants";

export type ProlificSimFaults = {
  /** Share of money calls (approve, bonus, places) answered 429, as Prolific's wallet contention does. */
  throttleRate?: number;
  /** Share of all calls answered 500 before doing anything. */
  faultRate?: number;
};

export type StartProlificSimulatorOptions = {
  port?: number;
  host?: string;
  /** The API token the simulator accepts (any request without it gets 401). */
  token?: string;
  seed?: number;
  clock?: SimClock | "manual";
  speedup?: number;
  /** Minor units in the workspace wallet at the start. */
  balance?: number;
  currency?: "GBP" | "USD";
  /** Saved (fsync'd) before every changing call answers, so a kill -9 loses nothing the client was told. */
  persistFile?: string;
  faults?: ProlificSimFaults;
  /** Webhook retry pause, in ms (doubled each attempt). */
  webhookBackoffMs?: number;
  fetch?: typeof fetch;
  /** Simulated participants (the MTurk simulator's profiles, e.g. {careful: 20} or "careful:20,sloppy:5"); none by default. */
  participants?: WorkerMix | string;
  /** What is correct for each tweet (tweet id → label, or a CSV file path); participants answer by their accuracy. */
  truth?: TruthInput;
  /** How often (real ms) participants act on their own; 0 = only when `participants.step()` is called (tests). */
  participantTickMs?: number;
  /** How many participants may be opening a study's page at once on the timer (4 by default). */
  participantJoins?: number;
  /** The signal that ends a participant's page wait (a minute of wall time by default; tests fire it by hand). */
  participantPageTimeout?: (ms: number) => AbortSignal;
  /** Where participants' errors and late sessions are told (the embedded simulator: the server's log). */
  log?: (message: string) => void;
  /** Whether Prolific's support enabled test participants (and so test studies) for the workspace; off by default. */
  testParticipants?: boolean;
};

export type RunningProlificSimulator = {
  url: string;
  apiUrl: string;
  token: string;
  clock: SimClock;
  state: ProlificSimState;
  service: ProlificSimService;
  stats: { requests: number; throttled: number; faults: number };
  setFaults(f: ProlificSimFaults): void;
  /** Sends the webhooks that are due now (also runs on a timer). */
  flushWebhooks(): Promise<number>;
  /** The simulated participants, when started with `participants`. */
  participants: ProlificParticipants | null;
  /**
   * Tests' view of each API call as it is applied (reliability tests kill their client at these points): "before"
   * (returning false drops the call unapplied and unanswered, as if its sender died first) and "after" (applied and
   * saved, the answer not sent yet).
   */
  intercept?: (call: SimCall) => boolean | undefined;
  stop(): Promise<void>;
};

export type SimCall = { phase: "before" | "after"; key: string; path: string[]; body: unknown; status?: number };

const MONEY_CALLS = /^(POST submissions\/(:id\/transition|bulk-approve|bonus-payments)|POST bulk-bonus-payments\/:id\/pay|(PATCH|PUT) studies\/:id|POST studies\/:id\/(transition|screen-out-submissions))$/;

/** The local Prolific simulator: the researcher API over HTTP under /api/v1/, with Token auth. */
export async function startProlificSimulator(opts: StartProlificSimulatorOptions = {}): Promise<RunningProlificSimulator> {
  const seed = opts.seed ?? 1;
  const token = opts.token ?? "accord-simulator-token";
  const clock: SimClock = typeof opts.clock === "object" ? opts.clock : opts.clock === "manual" ? new ManualClock() : new RealClock(opts.speedup ?? 1);
  const state = (opts.persistFile && loadProlificState(opts.persistFile)) || emptyProlificState({ seed, balance: opts.balance ?? 1_000_000, currency: opts.currency });
  let dirty = false;
  state.testParticipants = { enabled: opts.testParticipants ?? state.testParticipants?.enabled ?? false, participant: state.testParticipants?.participant ?? null };
  const service = new ProlificSimService(state, clock, {
    onEvent: (e) => queueDeliveries(state, e, clock.now()),
    onChange: () => {
      dirty = true;
    },
  });
  const persist = () => {
    if (dirty && opts.persistFile) saveProlificState(opts.persistFile, state);
    dirty = false;
  };
  let faults = opts.faults ?? {};
  const rng = createRng(seedFrom(seed, "prolific-faults"));
  const stats = { requests: 0, throttled: 0, faults: 0 };
  let base = "";

  /** The participant's side of Prolific: taking part in a study, and the completion URL participants are sent back to. */
  function handleParticipant(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const page = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
      res.end(`<!DOCTYPE html><title>Prolific simulator</title><p>${text.replace(/</g, "&lt;")}</p>`);
    };
    try {
      service.tick();
      if (url.pathname === "/participant/take-part") {
        const sub = service.startSubmission(url.searchParams.get("participant") ?? "", url.searchParams.get("study") ?? "");
        const target = fillStudyUrl(service.study(sub.study_id).external_study_url, { participantId: sub.participant_id, studyId: sub.study_id, sessionId: sub.id });
        persist();
        res.writeHead(302, { location: target, "set-cookie": `${SESSION_COOKIE}=${sub.id}; Path=/; HttpOnly; SameSite=Lax` });
        return void res.end();
      }
      const session = url.searchParams.get("session") ?? /(?:^|;\s*)prolific_session=([0-9a-f]{24})/.exec(req.headers.cookie ?? "")?.[1];
      if (!session) return page(401, "Sign in to Prolific first: this browser has no study session (the cookie set when you took part).");
      const cc = url.searchParams.get("cc");
      const sub = service.completeSubmission(session, cc && cc.trim() ? cc.trim() : null);
      persist();
      return page(200, `Submission complete: your submission is ${sub.status}. Thank you for taking part.`);
    } catch (err) {
      persist();
      if (err instanceof ProlificSimError) return page(err.status, typeof err.detail === "string" ? err.detail : err.title);
      throw err;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/health") return send(res, 200, { ok: true });
    if (req.method === "GET" && (url.pathname === "/submissions/complete" || url.pathname === "/participant/take-part")) return handleParticipant(req, res, url);
    if (!url.pathname.startsWith("/api/v1/")) return sendError(res, new ProlificSimError(404, "Not found", "The API lives under /api/v1/."));
    if (req.headers.authorization !== `Token ${token}`) return sendError(res, new ProlificSimError(401, "Unauthorized", "Invalid token."));
    stats.requests++;
    const raw = await readBody(req);
    let body: unknown = undefined;
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendError(res, new ProlificSimError(400, "Bad request", "JSON parse error."));
      }
    }
    const path = url.pathname.slice("/api/v1/".length).split("/").filter(Boolean);
    const method = req.method ?? "GET";
    const key = `${method} ${path.map((s) => (/^[0-9a-f]{24}$/.test(s) ? ":id" : s)).join("/")}`;
    if ((faults.throttleRate ?? 0) > 0 && MONEY_CALLS.test(key) && rng() < faults.throttleRate!) {
      stats.throttled++;
      return sendError(res, tooManyRequests());
    }
    if ((faults.faultRate ?? 0) > 0 && rng() < faults.faultRate!) {
      stats.faults++;
      return sendError(res, serverError());
    }
    service.tick();
    if (running.intercept?.({ phase: "before", key, path, body }) === false) return void req.socket.destroy();
    try {
      const out = route(service, { method, path, query: url.searchParams, body, baseUrl: base });
      persist();
      running.intercept?.({ phase: "after", key, path, body, status: out.status });
      send(res, out.status, out.body, out.headers);
    } catch (err) {
      persist();
      if (err instanceof ProlificSimError) return sendError(res, err);
      sendError(res, new ProlificSimError(500, "Internal server error", err instanceof Error ? err.message : String(err)));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, new ProlificSimError(500, "Internal server error", String(err)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://${opts.host ?? "127.0.0.1"}:${port}`;

  let flushing: Promise<number> | null = null;
  const flushWebhooks = async (): Promise<number> => {
    while (flushing) await flushing;
    service.tick();
    flushing = sendDueDeliveries(state, { nowMs: clock.now(), fetch: opts.fetch, backoffMs: opts.webhookBackoffMs }).finally(() => {
      flushing = null;
      dirty = true;
      persist();
    });
    return flushing;
  };
  const timer = setInterval(() => void flushWebhooks().catch(() => undefined), 250);
  timer.unref();

  const participants =
    opts.participants === undefined
      ? null
      : new ProlificParticipants(service, { simulatorUrl: () => base, mix: typeof opts.participants === "string" ? parseWorkerMix(opts.participants) : opts.participants, truth: toTruthOracle(opts.truth), fetch: opts.fetch, log: opts.log, pageTimeout: opts.participantPageTimeout });
  // Each tick starts what is due without waiting for what still runs (a slow page holds back only its own participant).
  const participantTimer =
    participants && (opts.participantTickMs ?? 500) > 0
      ? setInterval(() => {
          try {
            participants.start(opts.participantJoins ?? 4);
          } catch (err) {
            participants.stats.errors.push(String(err));
          }
          persist();
        }, opts.participantTickMs ?? 500)
      : null;
  participantTimer?.unref();
  const unsubscribe = clock.onAdvance(() => {
    service.tick();
    persist();
  });

  const running: RunningProlificSimulator = {
    url: base,
    apiUrl: `${base}/api/v1/`,
    token,
    clock,
    state,
    service,
    stats,
    setFaults(f) {
      faults = f;
    },
    flushWebhooks,
    participants,
    async stop() {
      clearInterval(timer);
      if (participantTimer) clearInterval(participantTimer);
      await participants?.idle();
      unsubscribe();
      while (flushing) await flushing;
      persist();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return running;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, err: ProlificSimError): void {
  send(res, err.status, err.body());
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

