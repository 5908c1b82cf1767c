/** Pairs (a, b, similarity) with a < b, in order of b then a (the order the input is scanned in). */
export type SimilarPairs = {
  count: number;
  a: Int32Array;
  b: Int32Array;
  similarity: Float64Array;
};

export type NearDuplicateMode = "first" | "all";

export type NearDuplicateOptions = {
  /** A pair is a near-duplicate when its cosine is strictly above this (0 < threshold < 1). */
  threshold?: number;
  /** "first": only each row's earliest near-duplicate; "all": also every pair above the threshold. */
  mode?: NearDuplicateMode;
  /**
   * The most candidate work one row may cost (index entries scanned plus feature-list steps verified); a row
   * that reaches it stops searching and counts in `capped` (it may miss a near-duplicate). Infinity: exact.
   */
  maxWorkPerRow?: number;
};

export type NearDuplicateResult = {
  rows: number;
  /** For each row, the earliest earlier row that is a near-duplicate of it, or -1. */
  duplicateOf: Int32Array;
  duplicates: number;
  /** Rows with no tokens (they take no part). */
  tokenless: number;
  /** Rows whose search stopped at maxWorkPerRow (0: the result is exact). */
  capped: number;
  /** The cap that applied (Infinity when none). */
  maxWorkPerRow: number;
  /** Every pair above the threshold (mode "all"), else null. */
  pairs: SimilarPairs | null;
  /** Work counters (for benchmarks). */
  stats: Record<string, number>;
};

export function assertThreshold(threshold: number): void {
  if (!(threshold > 0 && threshold < 1)) throw new RangeError(`the similarity threshold must be between 0 and 1 (exclusive), got ${threshold}`);
}
