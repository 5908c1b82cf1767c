/**
 * How long the analysis job holds the server's event loop in Dawid–Skene: the run at once (the baseline, same run)
 * against the run that pauses after each iteration (lib/metrics/dawid-skene.ts dawidSkenePausing), interleaved, on
 * synthetic judgments at about HumAID scale. Prints, per run, the total time and the longest gap of a 1 ms timer, then
 * the medians and the load average.
 *
 * Run: npx tsx scripts/bench/analysis-pauses.ts [--items 100000] [--rounds 3]
 */
import { loadavg } from "node:os";
import { setImmediate as pause } from "node:timers/promises";
import { parseArgs } from "node:util";
import { dawidSkene, dawidSkenePausing } from "@/lib/metrics/dawid-skene";
import { encodeJudgments } from "@/lib/metrics/judgments";
import { generateCrowdJudgments } from "@/lib/metrics/synthetic";

const { values } = parseArgs({ options: { items: { type: "string", default: "100000" }, rounds: { type: "string", default: "3" } } });
const labels = Array.from({ length: 10 }, (_, i) => `label${i}`);
const data = encodeJudgments(generateCrowdJudgments({ items: Number(values.items), labels, workers: 400, seed: 3 }).judgments);
const options = { maxIterations: 50, tolerance: 1e-6, smoothing: 0.01 };

/** Total milliseconds and the longest gap between two ticks of a 1 ms interval while `run` works. */
async function measure(run: () => Promise<unknown>): Promise<{ totalMs: number; worstGapMs: number }> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await run();
  const totalMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  return { totalMs, worstGapMs: Math.max(worst, performance.now() - last) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const runs: Record<"once" | "pausing", Array<{ totalMs: number; worstGapMs: number }>> = { once: [], pausing: [] };
console.log(`Dawid–Skene over ${data.annotator.length.toLocaleString("en-US")} judgments, ${options.maxIterations} iterations at most`);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const mode of round % 2 === 0 ? (["once", "pausing"] as const) : (["pausing", "once"] as const)) {
    const m = await measure(async () => (mode === "once" ? dawidSkene(data, options) : dawidSkenePausing(data, pause, options)));
    runs[mode].push(m);
    console.log(`  ${mode.padEnd(8)} total ${m.totalMs.toFixed(0).padStart(5)} ms, longest timer gap ${m.worstGapMs.toFixed(0).padStart(5)} ms`);
  }
}
const gap = (mode: "once" | "pausing") => median(runs[mode].map((r) => r.worstGapMs));
const total = (mode: "once" | "pausing") => median(runs[mode].map((r) => r.totalMs));
console.log(`median longest gap: at once ${gap("once").toFixed(0)} ms, pausing ${gap("pausing").toFixed(0)} ms (×${(gap("pausing") / gap("once")).toFixed(3)})`);
console.log(`median total: at once ${total("once").toFixed(0)} ms, pausing ${total("pausing").toFixed(0)} ms (×${(total("pausing") / total("once")).toFixed(2)})`);
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
