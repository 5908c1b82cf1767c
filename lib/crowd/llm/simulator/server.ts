import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock, RealClock, type SimClock } from "@/lib/crowd/simulator/clock";
import { toTruthOracle, type TruthInput } from "@/lib/crowd/simulator/truth";
import { createRng, seedFrom } from "@/lib/util/random";
import { answerCompletion, type Completion } from "./completion";
import { FaultInjector, FORCEABLE_FAULTS, type ForcedFault, type LlmSimulatorFaults } from "./faults";
import { LabellingModel, type ModelErrorOptions } from "./model";
import { chatRequestSchema, invalidRequest, LlmSimError, missingKey, modelNotFound, rateLimited, serverError, wrongKey } from "./protocol";

export const DEFAULT_LLM_MODEL = "accord-sim-1";
export const DEFAULT_LLM_API_KEY = "accord-simulator-key";

export interface StartLlmSimulatorOptions {
  /** 0 = a random free port (default 0). */
  port?: number;
  host?: string;
  /** Seeds the model's confusions, its per-tweet draws, per-call noise and the faults (default 1). */
  seed?: number;
  /** The Bearer key accepted (default "accord-simulator-key"); anything else is a 401. */
  apiKey?: string;
  /** Model ids served (default ["accord-sim-1"]); others are a 404 model_not_found. */
  models?: string[];
  /** What is true for a tweet: text key (`textKey(text)`) or text → label; else a seeded pseudo-truth. */
  truth?: TruthInput;
  errors?: ModelErrorOptions;
  faults?: LlmSimulatorFaults;
  /** The clock of `created` timestamps (tests pass a ManualClock). */
  clock?: SimClock | "manual";
}

export interface LlmSimulatorStats {
  requests: number;
  byStatus: Record<string, number>;
  completions: number;
  rateLimited: number;
  serverErrors: number;
  timeouts: number;
  malformed: number;
  outOfScheme: number;
  itemsLabelled: number;
  /** The token bill of the answered completions (estimated tokens, see tokens.ts). */
  promptTokens: number;
  completionTokens: number;
}

export interface RunningLlmSimulator {
  url: string;
  /** The base URL for the openai package: `${url}/v1`. */
  baseURL: string;
  port: number;
  apiKey: string;
  models: string[];
  model: LabellingModel;
  stats: LlmSimulatorStats;
  setFaults(faults: LlmSimulatorFaults): void;
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new LlmSimError(413, "The request body is too large.", "invalid_request_error"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

let requestCounter = 0;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": `req_sim${(++requestCounter).toString(16).padStart(8, "0")}`,
    ...headers,
  });
  res.end(text);
}

/**
 * The local LLM simulator: OpenAI's chat-completions protocol (POST /v1/chat/completions, GET /v1/models) answered by
 * a labelling model with systematic, seeded errors (model.ts), and seeded faults (faults.ts). See README.md.
 */
export async function startLlmSimulator(opts: StartLlmSimulatorOptions = {}): Promise<RunningLlmSimulator> {
  const seed = opts.seed ?? 1;
  const apiKey = opts.apiKey ?? DEFAULT_LLM_API_KEY;
  const models = opts.models ?? [DEFAULT_LLM_MODEL];
  const clock: SimClock = typeof opts.clock === "object" ? opts.clock : opts.clock === "manual" ? new ManualClock() : new RealClock(1);
  const model = new LabellingModel({ seed, truth: toTruthOracle(opts.truth), errors: opts.errors });
  const faults = new FaultInjector(opts.faults ?? {}, seed);
  const stats: LlmSimulatorStats = {
    requests: 0, byStatus: {}, completions: 0, rateLimited: 0, serverErrors: 0, timeouts: 0, malformed: 0, outOfScheme: 0,
    itemsLabelled: 0, promptTokens: 0, completionTokens: 0,
  };
  let calls = 0;
  const send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => {
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    sendJson(res, status, body, headers);
  };
  const sendError = (res: ServerResponse, err: LlmSimError) => send(res, err.status, err.body(), err.headers);

  function authorize(req: IncomingMessage): void {
    const header = req.headers.authorization;
    if (!header) throw missingKey();
    const key = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? "";
    if (key !== apiKey) throw wrongKey(key);
  }

  /** Holds a timed-out request open until its client gives up (or hangMs passes, then drops the connection). */
  function hang(req: IncomingMessage, res: ServerResponse): void {
    stats.timeouts++;
    const timer = setTimeout(() => res.destroy(), faults.faults.hangMs ?? 600_000);
    timer.unref();
    req.socket.once("close", () => clearTimeout(timer));
  }

  async function completions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    authorize(req);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new LlmSimError(400, "We could not parse the JSON body of your request.", "invalid_request_error");
    }
    const parsed = chatRequestSchema.safeParse(json);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const body = parsed.data;
    if (body.stream) throw new LlmSimError(400, "The simulator does not stream: send stream false.", "invalid_request_error", "unsupported_value", "stream");
    if (!models.includes(body.model)) throw modelNotFound(body.model);
    const forcedHeader = String(req.headers["x-simulator-fault"] ?? "");
    const forced = (FORCEABLE_FAULTS as readonly string[]).includes(forcedHeader) ? (forcedHeader as ForcedFault) : null;
    const fault = faults.requestFault(forced);
    if (fault === "timeout") return hang(req, res);
    const delay = faults.latency();
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (fault === "rate_limit") {
      stats.rateLimited++;
      throw rateLimited(faults.faults.retryAfterSeconds ?? 1);
    }
    if (fault === "server_error") {
      stats.serverErrors++;
      throw serverError();
    }
    const call = calls++;
    const completion: Completion = answerCompletion(body, {
      model,
      callRng: createRng(seedFrom(seed, "llm-call", call)),
      faults,
      forced,
      id: `chatcmpl-sim${seedFrom(seed, "llm-id", call).toString(36)}${call.toString(36)}`,
      created: Math.floor(clock.now() / 1000),
    });
    stats.completions++;
    stats.malformed += completion.stats.malformed;
    stats.outOfScheme += completion.stats.outOfScheme;
    stats.itemsLabelled += completion.stats.items;
    stats.promptTokens += completion.body.usage.prompt_tokens;
    stats.completionTokens += completion.body.usage.completion_tokens;
    send(res, 200, completion.body);
  }

  const server = createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "");
    const handle = async (): Promise<void> => {
      if (req.method === "GET" && path === "/health") return send(res, 200, { ok: true });
      if (req.method === "GET" && path === "/__simulator/summary") return send(res, 200, { models, stats });
      if (path === "/v1/chat/completions") {
        if (req.method !== "POST") throw new LlmSimError(405, "Use POST for /v1/chat/completions.", "invalid_request_error");
        return completions(req, res);
      }
      if (req.method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"))) {
        authorize(req);
        const view = (id: string) => ({ id, object: "model", created: Math.floor(Date.UTC(2026, 0, 1) / 1000), owned_by: "accord-simulator" });
        if (path === "/v1/models") return send(res, 200, { object: "list", data: models.map(view) });
        const id = decodeURIComponent(path.slice("/v1/models/".length));
        if (!models.includes(id)) throw modelNotFound(id);
        return send(res, 200, view(id));
      }
      throw new LlmSimError(404, `Invalid URL (${req.method ?? "GET"} ${url.pathname})`, "invalid_request_error");
    };
    handle().catch((err: unknown) => {
      if (res.headersSent || res.destroyed) return;
      sendError(res, err instanceof LlmSimError ? err : serverError());
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    apiKey,
    models,
    model,
    stats,
    setFaults(f) {
      faults.faults = f;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
