import path from "node:path";
import { readTweetFile } from "@/lib/ingest/read-file";
import { perturb } from "@/lib/ingest/testing/perturb";
import { createRng, randomInt } from "@/lib/util/random";
import { crisisLexT26Files, crisisLexT6Files, loadTweetEval } from "./shared-datasets";

/**
 * Benchmark inputs built from the real public datasets in ../shared/data when present (never copied into the
 * repository): CrisisLexT6 and CrisisLexT26 read through the product's own file reader, TweetEval's
 * one-tweet-per-line files, and realistic perturbed copies of them.
 */
export type BenchTweet = { id: string; text: string; label: string };

export async function readCrisisLex(files: string[]): Promise<BenchTweet[]> {
  const out: BenchTweet[] = [];
  for (const f of files) {
    const r = await readTweetFile(f, { fileName: path.basename(f) });
    for (const row of r.rows) out.push({ id: row.externalId, text: row.text, label: row.label ?? "" });
  }
  return out;
}

export const readCrisisLexT6 = () => readCrisisLex(crisisLexT6Files());
export const readCrisisLexT26 = () => readCrisisLex(crisisLexT26Files());

/** TweetEval tweets get made-up snowflake-style ids (they have none). */
export function readTweetEval(): BenchTweet[] {
  return loadTweetEval().map((t, i) => ({ id: String(1_200_000_000_000_000_000n + BigInt(i)), text: t.text, label: t.label }));
}

/** `n` tweets: every real tweet once, then perturbed copies of random real tweets, shuffled in by position. */
export function withPerturbedCopies(real: readonly BenchTweet[], n: number, seed = 2024): BenchTweet[] {
  const rng = createRng(seed);
  const out: BenchTweet[] = real.slice(0, n);
  let next = 0;
  while (out.length < n) {
    const src = real[randomInt(rng, real.length)];
    out.push({ id: `p${next++}`, text: perturb(src.text, rng), label: src.label });
  }
  // Interleave so that copies come both before and after their originals.
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
