/**
 * Near-duplicates on 1,000,000 tweets (the issue asks for under 2 minutes on this 2-core machine):
 * every tweet of CrisisLexT6, CrisisLexT26 and TweetEval, topped up with perturbed copies of them
 * (retweets, links, dropped/swapped words, hashtags, case), shuffled. Runs the exact join in the mode
 * of `accord dedupe` (every pair listed) and in the pipeline's mode (earliest duplicate only), and, as
 * a spot check of exactness at this size, compares a random sample of rows with brute force.
 *
 *   npx tsx scripts/bench/dedupe-million.ts [--rows 1000000] [--threshold 0.75]
 */
import os from "node:os";
import { cosineFromCounts, dedupeTokens, featureCounts } from "@/lib/ingest/dedupe/normalize";
import { findNearDuplicates } from "@/lib/ingest/dedupe/similarity-join";
import { createRng, randomInt } from "@/lib/util/random";
import { mb, readCrisisLexT26, readCrisisLexT6, readTweetEval, seconds, withPerturbedCopies } from "./dedupe-datasets";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const rows = arg("--rows", 1_000_000);
const threshold = arg("--threshold", 0.75);

const real = [...(await readCrisisLexT6()), ...(await readCrisisLexT26()), ...readTweetEval()];
const tweets = withPerturbedCopies(real, rows);
const texts = tweets.map((t) => t.text);
console.log(`${texts.length.toLocaleString("en-US")} tweets (${real.length.toLocaleString("en-US")} real, the rest perturbed copies); threshold: cosine > ${threshold}`);
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

let t0 = performance.now();
const all = findNearDuplicates(texts, { threshold, mode: "all" });
const allMs = performance.now() - t0;
console.log(`all pairs (accord dedupe): ${seconds(allMs)}: ${all.duplicates.toLocaleString("en-US")} duplicates, ${all.pairs?.count.toLocaleString("en-US")} pairs`);
console.log(`  work: ${Object.entries(all.stats).map(([k, v]) => `${k} ${v.toLocaleString("en-US")}`).join(", ")}`);

t0 = performance.now();
const first = findNearDuplicates(texts, { threshold, mode: "first" });
const firstMs = performance.now() - t0;
console.log(`earliest duplicate only (import pipeline): ${seconds(firstMs)}: ${first.duplicates.toLocaleString("en-US")} duplicates`);
let agree = true;
for (let i = 0; i < texts.length; i++) if (all.duplicateOf[i] !== first.duplicateOf[i]) agree = false;
console.log(`both modes agree on every row's duplicate-of: ${agree ? "yes" : "NO"}`);
console.log(`peak RSS: ${mb(process.resourceUsage().maxRSS * 1024)}`);

// Spot check: for sampled rows, brute force over all earlier rows must give the same duplicate-of.
const sample = Number(process.env.SPOT_CHECK ?? 40);
const rng = createRng(99);
const vectors = new Map<number, { v: Map<string, number>; n: number }>();
const vec = (i: number) => {
  let x = vectors.get(i);
  if (!x) {
    const v = featureCounts(dedupeTokens(texts[i]));
    let n = 0;
    for (const c of v.values()) n += c * c;
    x = { v, n };
    vectors.set(i, x);
  }
  return x;
};
t0 = performance.now();
let mismatches = 0;
for (let s = 0; s < sample; s++) {
  const i = randomInt(rng, texts.length);
  const xi = vec(i);
  let expected = -1;
  if (xi.n > 0) {
    for (let j = 0; j < i && expected < 0; j++) {
      const xj = featureCounts(dedupeTokens(texts[j]));
      let dot = 0;
      let nj = 0;
      for (const [f, c] of xj) {
        nj += c * c;
        dot += c * (xi.v.get(f) ?? 0);
      }
      if (dot > 0 && cosineFromCounts(dot, nj, xi.n) > threshold) expected = j;
    }
  }
  if (expected !== first.duplicateOf[i]) mismatches++;
}
console.log(`brute-force spot check of ${sample} random rows against all earlier rows: ${mismatches === 0 ? "all match" : `${mismatches} MISMATCHES`} (${seconds(performance.now() - t0)})`);
console.log(`under 2 minutes: ${allMs < 120_000 ? "yes" : "NO"} (all pairs ${seconds(allMs)})`);
if (mismatches > 0 || !agree) process.exitCode = 1;
