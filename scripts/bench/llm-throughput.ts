/**
 * LLM labelling throughput (issue 32): tweets labelled per second by an LLM run against the local LLM simulator at
 * concurrency 1, 4 and 16, with a per-call latency fault (a real endpoint takes seconds per call: without latency
 * concurrency would not matter). Each run is the real engine (lib/crowd/llm/label-run.ts) on a fresh SQLite event:
 * HIT-shaped batches of 20 unknown + 10 gold, the follow-up call for out-of-scheme items, LlmLabel writes, the
 * ledger entry. Prints one row per concurrency and the load average.
 *
 * Run: npx tsx --conditions=react-server scripts/bench/llm-throughput.ts [--tweets 400] [--latency 200] [--concurrency 1,4,16]
 */
import fs from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CircuitBreaker } from "@/lib/crowd/circuit-breaker";
import { createLlmClient } from "@/lib/crowd/llm/client";
import { createLlmRun, executeLlmRun } from "@/lib/crowd/llm/label-run";
import { startLlmSimulator } from "@/lib/crowd/llm/simulator/server";
import { createDb } from "@/lib/db/client";
import { PROVIDER_KIND, TWEET_ROLE } from "@/lib/db/enums";
import { migrateDatabase } from "@/lib/db/migrate";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { ensureHumaidScheme } from "@/lib/labels/schemes";

const { values: args } = parseArgs({ options: { tweets: { type: "string", default: "400" }, latency: { type: "string", default: "200" }, concurrency: { type: "string", default: "1,4,16" } } });
const TWEETS = Number(args.tweets);
const LATENCY = Number(args.latency);
const LEVELS = args.concurrency.split(",").map(Number);
const LABELS = HUMAID_LABELS.map((l) => l.value);
const DIR = path.resolve(process.cwd(), ".tmp/bench-llm");

async function main() {
  fs.rmSync(DIR, { recursive: true, force: true });
  fs.mkdirSync(DIR, { recursive: true });
  const url = `file:${path.join(DIR, "bench.db")}`;
  await migrateDatabase({ url });
  const db = createDb(url);
  const schemeId = await ensureHumaidScheme(db);
  const sim = await startLlmSimulator({ port: 0, seed: 9, faults: { latencyMs: LATENCY } });
  console.log(`LLM throughput: ${TWEETS} unknown tweets + 23 gold per run, simulator latency ${LATENCY} ms per call, SQLite`);
  console.log("concurrency  calls  seconds  tweets/s  prompt-tokens  completion-tokens");
  for (const concurrency of LEVELS) {
    const event = await db.event.create({ data: { slug: `bench-${concurrency}`, name: `Bench ${concurrency}`, type: "flood", schemeId, provider: PROVIDER_KIND.local, locations: [], settings: {}, filters: {} } });
    const rows = Array.from({ length: TWEETS + 23 }, (_, i) => {
      const gold = i >= TWEETS;
      const label = LABELS[i % LABELS.length];
      return { eventId: event.id, externalId: String(i), text: `c${concurrency} tweet ${i}: ${label.replace(/_/g, " ")} near the river`, role: gold ? TWEET_ROLE.gold : TWEET_ROLE.unknown, goldLabel: gold ? label : null };
    });
    await db.tweet.createMany({ data: rows });
    const run = await createLlmRun(db, { eventId: event.id, model: "accord-sim-1", baseUrl: sim.baseURL, temperature: 0, passes: 1, inputPricePerMillion: 1, outputPricePerMillion: 2, currency: "USD" });
    const client = createLlmClient({ baseUrl: sim.baseURL, apiKey: sim.apiKey, model: "accord-sim-1", temperature: 0, timeoutMs: 60_000, breaker: new CircuitBreaker({ failures: 1_000 }) });
    const callsBefore = sim.stats.completions;
    const started = performance.now();
    const summary = await executeLlmRun(db, run.id, { client, concurrency, remainingBudgetCents: null });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      [String(concurrency).padStart(11), String(sim.stats.completions - callsBefore).padStart(6), seconds.toFixed(2).padStart(8), (summary.tweetsLabelled / seconds).toFixed(1).padStart(9), String(summary.promptTokens).padStart(14), String(summary.completionTokens).padStart(18)].join(" "),
    );
  }
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  await sim.stop();
  await db.$disconnect();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
