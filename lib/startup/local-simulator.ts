import "server-only";
import path from "node:path";
import { env } from "@/lib/config/env";
import { startSimulator, type RunningSimulator } from "@/lib/crowd/simulator/server";
import { addTextKeys, type TruthOracle } from "@/lib/crowd/simulator/truth";
import type { Db } from "@/lib/db/client";
import { subscribeLive } from "@/lib/live/bus";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { IMPORT_STATUS } from "@/lib/db/enums";

/**
 * The local MTurk simulator inside the server process (`npm start` default): it listens on the port of the
 * configured simulator URL (9400), keeps its state in data/simulator-state.json so a restarted Accord finds
 * its HITs again, runs on a sped-up clock, and its simulated workers answer by a truth oracle built from the
 * labels Accord knows (knownLabelsOracle).
 */
export type LocalSimulatorHandle = { sim: RunningSimulator; stop(): Promise<void> } | null;

/**
 * The simulated workers' truth: the labels Accord knows (demo truth, then each tweet's gold or source label by its
 * tweet id and by its text key), reloaded from the database when an import completes (the tweets of a batch published right after an
 * upload must be known before workers answer it: with a stale oracle they answered at random and failed the gold)
 * and every 30 s (labels edited in other ways).
 */
export async function knownLabelsOracle(db: Db, demoTruth?: Map<string, string>): Promise<{ oracle: TruthOracle; stop(): void }> {
  const load = async (): Promise<Map<string, string>> => {
    const map = new Map(demoTruth ?? []);
    const rows = await db.tweet.findMany({
      where: { OR: [{ sourceLabel: { not: null } }, { goldLabel: { not: null } }] },
      select: { externalId: true, text: true, sourceLabel: true, goldLabel: true },
    });
    for (const r of rows) map.set(r.externalId, (r.goldLabel ?? r.sourceLabel) as string);
    // HITs and participant pages show a tweet's text, never its id: workers know it by text (simulator/truth.ts).
    addTextKeys(map, rows);
    const demoIds = [...(demoTruth?.keys() ?? [])];
    for (let i = 0; i < demoIds.length; i += 500) addTextKeys(map, await db.tweet.findMany({ where: { externalId: { in: demoIds.slice(i, i + 500) } }, select: { externalId: true, text: true } }));
    return map;
  };
  let labels = await load();
  const refresh = async () => {
    labels = await load();
  };
  const timer = setInterval(() => void refresh().catch(() => undefined), 30_000);
  timer.unref?.();
  const unsubscribe = subscribeLive((m) => {
    if (m.kind === "import" && m.data?.status === IMPORT_STATUS.completed) void refresh().catch(() => undefined);
  });
  return {
    oracle: {
      label: (id) => labels.get(id),
      get size() {
        return labels.size;
      },
    },
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

export async function startLocalSimulator(db: Db, { demoTruth, speedup, workers }: { demoTruth?: Map<string, string>; speedup: number; workers: string }): Promise<LocalSimulatorHandle> {
  const crowd = await getCrowdSettings(db);
  if (crowd.mode !== "simulator") return null;
  const url = new URL(crowd.simulatorUrl);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return null; // an external simulator
  const truth = await knownLabelsOracle(db, demoTruth);
  let sim: RunningSimulator;
  try {
    sim = await startSimulator({
      port: Number(url.port || 9400),
      host: url.hostname === "localhost" ? "127.0.0.1" : url.hostname.replace(/^\[|\]$/g, ""),
      seed: 2026,
      clock: "real",
      speedup,
      workers,
      truth: truth.oracle,
      persistFile: path.resolve(/*turbopackIgnore: true*/ process.cwd(), env().ACCORD_SIMULATOR_STATE),
    });
  } catch (err) {
    truth.stop();
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      console.log(`[accord] a simulator is already listening on ${crowd.simulatorUrl}; using it`);
      return null;
    }
    throw err;
  }
  console.log(`[accord] MTurk simulator on ${sim.url} (clock ×${speedup}, workers ${workers})`);
  return {
    sim,
    async stop() {
      truth.stop();
      await sim.stop();
    },
  };
}
