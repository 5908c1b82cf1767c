/**
 * The LLM-echo test (lib/metrics/llm-echo.ts): its error rates over seeded constructed crowds, and its time at
 * HumAID scale. Rates: 18 honest workers (accuracies 0.6–0.9, a confusion shared with the LLM on its confused
 * classes) and 2 echo workers copying the LLM 80% of the time, 1,000 tweets × 3 judgments, 30 gold answers each,
 * α = 0.05 (Benjamini–Hochberg), over SEEDS seeds; then the same without echo workers (every flag is false).
 * Time: 83,300 tweets × 4 judgments = 333,200 judgments by 300 workers (HumAID: 77K tweets × ~4.3), median of RUNS.
 * Run: npx tsx scripts/bench/llm-echo.ts [seeds]
 */
import { cpus, loadavg } from "node:os";
import { llmEchoReport } from "@/lib/metrics/llm-echo";
import { DEFAULT_HONEST, echoCrowd } from "@/lib/metrics/llm-echo-synthetic";

const SEEDS = Number(process.argv[2] ?? 200);
const RUNS = 5;

function rates(echoWorkers: number, sharedConfusion?: number) {
  let honestFlags = 0;
  let honestTested = 0;
  let runsWithHonestFlag = 0;
  let echoCaught = 0;
  let echoTotal = 0;
  let h0 = 0;
  for (let seed = 0; seed < SEEDS; seed++) {
    const crowd = echoCrowd({ seed, echoWorkers, sharedConfusion });
    const r = llmEchoReport(crowd);
    const flagged = new Set(r.workers.filter((w) => w.flagged).map((w) => w.worker));
    const honest = crowd.honestIds.filter((h) => flagged.has(h)).length;
    honestFlags += honest;
    honestTested += r.workers.filter((w) => w.tested && crowd.honestIds.includes(w.worker)).length;
    if (honest > 0) runsWithHonestFlag++;
    if (flagged.has("h0")) h0++;
    for (const e of crowd.echoIds) {
      echoTotal++;
      if (flagged.has(e)) echoCaught++;
    }
  }
  return { honestFlags, honestTested, runsWithHonestFlag, h0, echoCaught, echoTotal };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(2)}%` : "–");
console.log(`node ${process.version} · ${cpus().length} cores · load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
for (const [label, echo, shared] of [["2 echo workers among 20", 2, undefined], ["2 echo, no shared confusion", 2, 0], ["no echo worker (every flag false)", 0, undefined]] as const) {
  const r = rates(echo, shared);
  console.log(
    `${label}, ${SEEDS} seeds: honest workers flagged ${r.honestFlags}/${r.honestTested} tested (${pct(r.honestFlags, r.honestTested)}), runs with ≥ 1 honest flagged ${pct(r.runsWithHonestFlag, SEEDS)}, the 0.8 worker flagged ${pct(r.h0, SEEDS)}` +
      (r.echoTotal ? `, echo workers caught ${r.echoCaught}/${r.echoTotal} (${pct(r.echoCaught, r.echoTotal)})` : ""),
  );
}

const honest = Array.from({ length: 298 }, (_, i) => DEFAULT_HONEST[i % DEFAULT_HONEST.length]);
const big = echoCrowd({ seed: 1, tweets: 83_300, perTweet: 4, honest, echoWorkers: 2, labels: 11 });
const times: number[] = [];
let flagged = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const r = llmEchoReport(big);
  times.push(performance.now() - t0);
  flagged = r.flagged;
}
times.sort((a, b) => a - b);
console.log(`HumAID scale: ${big.judgments.length.toLocaleString("en-US")} judgments, ${honest.length + 2} workers: echo analysis median ${times[Math.floor(RUNS / 2)].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[RUNS - 1].toFixed(0)}), ${flagged} flagged (2 echo workers planted)`);
console.log(`load after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
