import { createRng, randomInt } from "@/lib/util/random";

/**
 * The adversarial shape of issue 24: rows of `words` words drawn from a tiny vocabulary, so that every row
 * shares almost every feature with every other row (prefix filtering prunes nothing) while no two rows are
 * near-duplicates (cosine about 0.63 at 46 words × 150). Deterministic for a seed.
 */
export function adversarialTexts({ rows, words = 150, vocabulary = 46, seed = 24 }: { rows: number; words?: number; vocabulary?: number; seed?: number }): string[] {
  const rng = createRng(seed);
  const vocab = Array.from({ length: vocabulary }, (_, k) => `w${k.toString(36)}x${"abcdefghij"[k % 10]}`);
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    const parts: string[] = [];
    for (let w = 0; w < words; w++) parts.push(vocab[randomInt(rng, vocabulary)]);
    out.push(parts.join(" "));
  }
  return out;
}

/** The same rows as a tweet TSV (tweet_id, tweet_text), ids 10^17 + row. */
export function adversarialTsv(options: { rows: number; words?: number; vocabulary?: number; seed?: number }): string {
  const texts = adversarialTexts(options);
  const lines = ["tweet_id\ttweet_text"];
  texts.forEach((t, k) => lines.push(`${100000000000000000n + BigInt(k)}\t${t}`));
  return lines.join("\n") + "\n";
}
