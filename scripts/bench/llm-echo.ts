/**
 * The LLM-echo test (lib/metrics/llm-echo.ts): its error rates over seeded constructed crowds, and its time at
 * HumAID scale. Rates: 18 honest workers (accuracies 0.6–0.9, a confusion shared with the LLM on its confused
 * classes) and 2 echo workers copying the LLM 80% of the time, 1,000 tweets × 3 judgments, 30 gold answers each,
 * α = 0.05 (Benjamini–Hochberg), over SEEDS seeds; then the same without echo workers (every flag is false).
 * Time: 83,300 tweets × 4 judgments = 333,200 judgments by 300 workers (HumAID: 77K tweets × ~4.3), median of RUNS.
 * With --campaigns N, also N whole campaigns on the MTurk simulator (30 HITs of 20 tweets, 18 honest workers
 * careful:6,average:8,sloppy:4 and 2 llm-echo workers, simulator seeds 1…N, SQLite), each judged by the report.
 * Run: npx tsx --conditions=react-server scripts/bench/llm-echo.ts [seeds] [--campaigns N]
 */
import { cpus, loadavg } from "node:os";
import { llmEchoReport } from "@/lib/metrics/llm-echo";
import { DEFAULT_HONEST, echoCrowd } from "@/lib/metrics/llm-echo-synthetic";

const args = process.argv.slice(2);
const campaignsAt = args.indexOf("--campaigns");
const CAMPAIGNS = campaignsAt >= 0 ? Number(args[campaignsAt + 1]) : 0;
const SEEDS = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--campaigns") ?? 200);
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

if (CAMPAIGNS > 0) {
  const { prepareTestTemplates } = await import("@/lib/db/test-db");
  const { runSimulatedEchoCampaign } = await import("@/lib/llm-compare/simulated-campaign");
  const { llmCompareReport } = await import("@/lib/llm-compare/report");
  await prepareTestTemplates();
  let honestFlags = 0;
  let honestTested = 0;
  let echoCaught = 0;
  let echoTested = 0;
  let runsWithHonest = 0;
  let absent = 0;
  for (let seed = 1; seed <= CAMPAIGNS; seed++) {
    const c = await runSimulatedEchoCampaign({ seed, hits: 30, workers: "careful:6,average:8,sloppy:4,llm-echo:2" });
    try {
      const r = (await llmCompareReport(c.f.db, "reliability", { resamples: 0 }))!;
      const honest = r.echo.workers.filter((w) => c.honestIds.has(w.workerId));
      const echo = r.echo.workers.filter((w) => c.echoIds.has(w.workerId));
      const falseFlags = honest.filter((w) => w.flagged).length;
      honestFlags += falseFlags;
      honestTested += honest.filter((w) => w.tested).length;
      echoCaught += echo.filter((w) => w.flagged).length;
      // An echo worker absent from the report had no counted judgment on a compared tweet: nothing to test.
      absent += c.echoIds.size - echo.length;
      echoTested += c.echoIds.size;
      if (falseFlags) runsWithHonest++;
      console.log(`campaign seed ${seed}: ${r.tweets.compared} compared, ${r.tweets.disagreements} disagreements, echo ${echo.map((w) => `${w.echoes}/${w.disagreementTweets} p adj. ${w.pAdjusted?.toExponential(1) ?? "untested"}`).join(", ")}; honest flagged ${falseFlags}`);
    } finally {
      await c.f.close();
    }
  }
  console.log(`MTurk simulator, ${CAMPAIGNS} campaigns: honest workers flagged ${honestFlags}/${honestTested} tested (${pct(honestFlags, honestTested)}), runs with ≥ 1 honest flagged ${pct(runsWithHonest, CAMPAIGNS)}, echo workers caught ${echoCaught}/${echoTested} (${pct(echoCaught, echoTested)}; ${absent} had no counted judgment on a compared tweet)`);
  console.log(`load after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
}
