import "server-only";
import { createHash } from "node:crypto";
import { getLlmApiKey, getLlmSettings } from "@/lib/crowd/llm/settings";
import { startLlmSimulator, type RunningLlmSimulator } from "@/lib/crowd/llm/simulator/server";
import type { Db } from "@/lib/db/client";
import { knownLabelsOracle } from "./local-simulator";

/**
 * The local LLM simulator inside the server (`npm start` default, beside the MTurk and Prolific ones): while the
 * language model endpoint of Settings is on this machine (its default, http://127.0.0.1:9420/v1), the simulator
 * listens there with the saved key (else its default) and the saved model, its truth the labels Accord knows.
 */
const LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"];
// Kept on globalThis: start-up (instrumentation) and the Settings action run in different bundles of the server,
// and both must see the one simulator.
type State = { enabled: { demoTruth?: Map<string, string> } | null; running: { key: string; sim: RunningLlmSimulator; stop(): Promise<void> } | null; queue: Promise<unknown> };
const g = globalThis as unknown as { __accordLlmSimulator?: State };
const state = (g.__accordLlmSimulator ??= { enabled: null, running: null, queue: Promise.resolve() });

/** At start-up (ACCORD_SIMULATOR on): remembers that the simulator may run and starts it if Settings point at it. */
export function startLocalLlmSimulator(db: Db, opts: { demoTruth?: Map<string, string> } = {}): Promise<RunningLlmSimulator | null> {
  state.enabled = opts;
  return syncLocalLlmSimulator(db);
}

/** Starts, restarts or stops the embedded simulator to match the saved settings (start-up, and after the admin saves). */
export function syncLocalLlmSimulator(db: Db): Promise<RunningLlmSimulator | null> {
  const next = state.queue.then(() => sync(db));
  state.queue = next.catch(() => undefined);
  return next;
}

/** Stops the embedded simulator (tests). */
export async function stopLocalLlmSimulator(): Promise<void> {
  await state.queue;
  await state.running?.stop();
  state.running = null;
  state.enabled = null;
}

async function sync(db: Db): Promise<RunningLlmSimulator | null> {
  const { enabled } = state;
  if (!enabled) return null;
  const settings = await getLlmSettings(db);
  const url = new URL(settings.baseUrl);
  const local = LOCAL_HOSTS.includes(url.hostname);
  const apiKey = local ? await getLlmApiKey(db) : "";
  const key = local ? JSON.stringify([url.origin, settings.model, createHash("sha256").update(apiKey).digest("hex")]) : "";
  if (state.running?.key === key) return state.running.sim;
  if (state.running) {
    await state.running.stop();
    state.running = null;
  }
  if (!local) return null;
  const truth = await knownLabelsOracle(db, enabled.demoTruth);
  let sim: RunningLlmSimulator;
  try {
    sim = await startLlmSimulator({ port: Number(url.port || 80), host: url.hostname === "localhost" ? "127.0.0.1" : url.hostname.replace(/^\[|\]$/g, ""), apiKey, models: [settings.model], seed: 2026, truth: truth.oracle });
  } catch (err) {
    truth.stop();
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      console.log(`[accord] an LLM endpoint is already listening on ${url.origin}; using it`);
      return null;
    }
    throw err;
  }
  console.log(`[accord] LLM simulator on ${sim.baseURL} (model ${settings.model})`);
  state.running = {
    key,
    sim,
    async stop() {
      truth.stop();
      await sim.stop();
    },
  };
  return sim;
}
