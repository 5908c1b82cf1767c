import "server-only";
import { createHash } from "node:crypto";
import path from "node:path";
import { startProlificSimulator, type RunningProlificSimulator } from "@/lib/crowd/prolific/simulator/server";
import type { Db } from "@/lib/db/client";
import { getProlificSettings, getProlificToken } from "@/lib/crowd/prolific/settings";
import { knownLabelsOracle } from "./local-simulator";
import { dataDir } from "@/lib/server/private-files";

/**
 * The local Prolific simulator inside the server (`npm start` default, like the MTurk one in local-simulator.ts):
 * while Prolific's mode is `simulator` and its address is on this machine, it listens there, keeps its state in
 * <data dir>/prolific-simulator-state.json, runs on the sped-up clock, and its simulated participants (the MTurk
 * simulator's worker profiles) open Accord's own participant pages, answering by the labels Accord knows.
 */
export type LocalProlificOptions = { demoTruth?: Map<string, string>; speedup: number; workers: string; stateFile?: string };

const LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"];
/**
 * The fastest clock the embedded Prolific simulator runs: Prolific times a session out after a few times its
 * estimated minutes (a 10-tweet screening: 20), and participants walk Accord's pages over HTTP one after another, so
 * on ×300 a busy server timed every screening session out (e2e: 27 of 30); ×60 is the demo's speed.
 */
export const PROLIFIC_MAX_SPEEDUP = 60;
let options: LocalProlificOptions | null = null;
let running: { key: string; sim: RunningProlificSimulator; stop(): Promise<void> } | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** At start-up (ACCORD_SIMULATOR on): remembers how to run the simulator and starts it if the settings ask for it. */
export function startLocalProlificSimulator(db: Db, opts: LocalProlificOptions): Promise<RunningProlificSimulator | null> {
  options = opts;
  return syncLocalProlificSimulator(db);
}

/** Starts, restarts or stops the embedded simulator to match the saved settings (start-up, and after the admin saves). */
export function syncLocalProlificSimulator(db: Db): Promise<RunningProlificSimulator | null> {
  const next = queue.then(() => sync(db));
  queue = next.catch(() => undefined);
  return next;
}

/** Stops the embedded simulator (tests). */
export async function stopLocalProlificSimulator(): Promise<void> {
  await queue;
  await running?.stop();
  running = null;
  options = null;
}

async function sync(db: Db): Promise<RunningProlificSimulator | null> {
  if (!options) return null; // ACCORD_SIMULATOR is off: an external simulator, if any
  const settings = await getProlificSettings(db);
  const url = new URL(settings.simulatorUrl);
  const local = settings.mode === "simulator" && LOCAL_HOSTS.includes(url.hostname);
  // The simulator accepts the one token the provider sends: the saved one, else the simulator's default.
  const token = local ? await getProlificToken(db, "simulator") : null;
  const key = local && token ? JSON.stringify([url.origin, createHash("sha256").update(token).digest("hex")]) : "";
  if (running?.key === key) return running.sim;
  if (running) {
    await running.stop();
    running = null;
  }
  if (!local || !token) return null;
  const truth = await knownLabelsOracle(db, options.demoTruth);
  let sim: RunningProlificSimulator;
  try {
    sim = await startProlificSimulator({
      port: Number(url.port || 80),
      host: url.hostname === "localhost" ? "127.0.0.1" : url.hostname.replace(/^\[|\]$/g, ""),
      token,
      seed: 2026,
      speedup: Math.min(options.speedup, PROLIFIC_MAX_SPEEDUP),
      participants: options.workers,
      truth: truth.oracle,
      persistFile: options.stateFile ?? path.join(dataDir(), "prolific-simulator-state.json"),
      log: (message) => console.warn(`[accord] Prolific simulator participant ${message}`),
    });
  } catch (err) {
    truth.stop();
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      console.log(`[accord] a Prolific simulator is already listening on ${settings.simulatorUrl}; using it`);
      return null;
    }
    throw err;
  }
  console.log(`[accord] Prolific simulator on ${sim.url} (clock ×${Math.min(options.speedup, PROLIFIC_MAX_SPEEDUP)}, participants ${options.workers})`);
  running = {
    key,
    sim,
    async stop() {
      truth.stop();
      await sim.stop();
    },
  };
  return sim;
}
