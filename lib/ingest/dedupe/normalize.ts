/**
 * The near-duplicate definition (issue 5, after HumAID §3.1 step 6), as plain functions shared by the
 * fast similarity join and the brute-force reference, so both see exactly the same vectors:
 * - normalise: lowercase; remove URLs (`https?://\S+`, `www\.\S+`) and user mentions (`@[A-Za-z0-9_]+`);
 *   drop non-ASCII characters;
 * - tokens: maximal runs of `[a-z0-9]`;
 * - features: unigrams plus bigrams of adjacent tokens, with raw counts;
 * - similarity: cosine of the two count vectors.
 */

const URL_RE = /https?:\/\/\S+|www\.\S+/g;
// After lowercasing, `@[A-Za-z0-9_]+` is `@[a-z0-9_]+`.
const MENTION_RE = /@[a-z0-9_]+/g;
// eslint-disable-next-line no-control-regex
const NON_ASCII_RE = /[^\x00-\x7f]+/g;
const TOKEN_RE = /[a-z0-9]+/g;

export function normalizeForDedupe(text: string): string {
  return text.toLowerCase().replace(URL_RE, "").replace(MENTION_RE, "").replace(NON_ASCII_RE, "");
}

export function dedupeTokens(text: string): string[] {
  return normalizeForDedupe(text).match(TOKEN_RE) ?? [];
}

/** Feature → raw count; a bigram is written "a b" (tokens never contain a space, so it cannot clash with a unigram). */
export function featureCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < tokens.length; i++) {
    counts.set(tokens[i], (counts.get(tokens[i]) ?? 0) + 1);
    if (i > 0) {
      const bigram = `${tokens[i - 1]} ${tokens[i]}`;
      counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Cosine from the integer dot product and the two integer squared norms. Every implementation computes
 * the similarity through this one function, so identical inputs give bit-identical similarities.
 */
export function cosineFromCounts(dot: number, normSqA: number, normSqB: number): number {
  return dot / Math.sqrt(normSqA * normSqB);
}

export const DEFAULT_DEDUPE_THRESHOLD = 0.75;
