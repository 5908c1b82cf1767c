/**
 * Near-duplicates on all 60,082 CrisisLexT6 tweets: the exact similarity join against brute force over
 * every pair, in the same process. Checks that both find the identical pairs (and similarities) and
 * prints the speed ratio (the issue asks for at least 20×).
 *
 *   npx tsx scripts/bench/dedupe-crisislex.ts [--threshold 0.75]
 */
import os from "node:os";
import { bruteForceNearDuplicatesIndexed } from "@/lib/ingest/dedupe/brute-force";
import { findNearDuplicates } from "@/lib/ingest/dedupe/similarity-join";
import type { NearDuplicateResult } from "@/lib/ingest/dedupe/types";
import { readCrisisLexT6, seconds } from "./dedupe-datasets";

const thresholdArg = process.argv.indexOf("--threshold");
const threshold = thresholdArg > 0 ? Number(process.argv[thresholdArg + 1]) : 0.75;

function samePairs(a: NearDuplicateResult, b: NearDuplicateResult): boolean {
  const p = a.pairs;
  const q = b.pairs;
  if (!p || !q || p.count !== q.count || a.duplicates !== b.duplicates) return false;
  for (let k = 0; k < p.count; k++) {
    if (p.a[k] !== q.a[k] || p.b[k] !== q.b[k] || p.similarity[k] !== q.similarity[k]) return false;
  }
  for (let i = 0; i < a.rows; i++) if (a.duplicateOf[i] !== b.duplicateOf[i]) return false;
  return true;
}

const tweets = await readCrisisLexT6();
const texts = tweets.map((t) => t.text);
console.log(`CrisisLexT6: ${texts.length.toLocaleString("en-US")} tweets; threshold: cosine > ${threshold}`);
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

// Warm-up on a slice so both sides run JIT-compiled code.
findNearDuplicates(texts.slice(0, 5_000), { threshold, mode: "all" });
bruteForceNearDuplicatesIndexed(texts.slice(0, 2_000), { threshold, mode: "all" });

let t0 = performance.now();
const fast = findNearDuplicates(texts, { threshold, mode: "all" });
const fastMs = performance.now() - t0;
console.log(`similarity join: ${seconds(fastMs)}: ${fast.duplicates.toLocaleString("en-US")} duplicates, ${fast.pairs?.count.toLocaleString("en-US")} pairs`);
console.log(`  work: ${Object.entries(fast.stats).map(([k, v]) => `${k} ${v.toLocaleString("en-US")}`).join(", ")}`);

t0 = performance.now();
const brute = bruteForceNearDuplicatesIndexed(texts, { threshold, mode: "all" });
const bruteMs = performance.now() - t0;
console.log(`brute force:     ${seconds(bruteMs)}: ${brute.duplicates.toLocaleString("en-US")} duplicates, ${brute.pairs?.count.toLocaleString("en-US")} pairs (${brute.stats.comparisons.toLocaleString("en-US")} comparisons)`);

const identical = samePairs(fast, brute);
console.log(`identical pairs, similarities and duplicate-of: ${identical ? "yes" : "NO"}`);
console.log(`speed-up: ${(bruteMs / fastMs).toFixed(1)}× (required: ≥ 20×)`);
if (!identical) process.exitCode = 1;
