import { GrowableFloat64, GrowableInt32 } from "./buffers";
import { cosineFromCounts, dedupeTokens, DEFAULT_DEDUPE_THRESHOLD, featureCounts } from "./normalize";
import { assertThreshold, type NearDuplicateOptions, type NearDuplicateResult } from "./types";

/**
 * Reference implementations: every pair is compared. They are the yardstick the fast similarity join
 * is checked against (tests) and timed against (benchmarks). O(n²).
 */

type Vectors = {
  n: number;
  normSq: ArrayLike<number>;
  isEmpty(i: number): boolean;
  /** Called before row i is compared with the rows before it, and after. */
  enter?(i: number): void;
  leave?(i: number): void;
  /** Integer dot product of rows i and j (j < i). */
  dot(i: number, j: number): number;
};

function allPairs(v: Vectors, options: NearDuplicateOptions): NearDuplicateResult {
  const threshold = options.threshold ?? DEFAULT_DEDUPE_THRESHOLD;
  assertThreshold(threshold);
  const all = options.mode === "all";
  const { n, normSq } = v;
  const duplicateOf = new Int32Array(n).fill(-1);
  const a = new GrowableInt32();
  const b = new GrowableInt32();
  const sims = new GrowableFloat64();
  let tokenless = 0;
  let comparisons = 0;
  for (let i = 0; i < n; i++) {
    if (v.isEmpty(i)) {
      tokenless++;
      continue;
    }
    v.enter?.(i);
    for (let j = 0; j < i; j++) {
      if (v.isEmpty(j)) continue;
      comparisons++;
      const dot = v.dot(i, j);
      if (dot === 0) continue;
      const sim = cosineFromCounts(dot, normSq[j], normSq[i]);
      if (!(sim > threshold)) continue;
      if (duplicateOf[i] < 0) duplicateOf[i] = j;
      if (!all) break;
      a.push(j);
      b.push(i);
      sims.push(sim);
    }
    v.leave?.(i);
  }
  let duplicates = 0;
  for (let i = 0; i < n; i++) if (duplicateOf[i] >= 0) duplicates++;
  return {
    rows: n,
    duplicateOf,
    duplicates,
    tokenless,
    capped: 0,
    maxWorkPerRow: Infinity,
    pairs: all ? { count: a.length, a: a.view(), b: b.view(), similarity: sims.view() } : null,
    stats: { comparisons },
  };
}

function squaredNorm(counts: Iterable<number>): number {
  let s = 0;
  for (const c of counts) s += c * c;
  return s;
}

/** The plainest possible version: string-keyed count maps, every pair. Obviously correct, slow. */
export function bruteForceNearDuplicates(texts: readonly string[], options: NearDuplicateOptions = {}): NearDuplicateResult {
  const vectors = texts.map((t) => featureCounts(dedupeTokens(t)));
  return allPairs(
    {
      n: texts.length,
      normSq: vectors.map((v) => squaredNorm(v.values())),
      isEmpty: (i) => vectors[i].size === 0,
      dot(i, j) {
        const [small, large] = vectors[i].size <= vectors[j].size ? [vectors[i], vectors[j]] : [vectors[j], vectors[i]];
        let dot = 0;
        for (const [f, c] of small) dot += c * (large.get(f) ?? 0);
        return dot;
      },
    },
    options,
  );
}

/**
 * Brute force done well: integer feature ids; each row is scattered into a dense array once, then every
 * earlier row's features are looked up in it. Same answers as above, much faster: the honest baseline
 * for the benchmark's speed ratio.
 */
export function bruteForceNearDuplicatesIndexed(texts: readonly string[], options: NearDuplicateOptions = {}): NearDuplicateResult {
  const n = texts.length;
  const vocab = new Map<string, number>();
  const offsets = new Int32Array(n + 1);
  const feats = new GrowableInt32(n * 16);
  const counts = new GrowableInt32(n * 16);
  const normSq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = featureCounts(dedupeTokens(texts[i]));
    for (const [f, c] of v) {
      let id = vocab.get(f);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(f, id);
      }
      feats.push(id);
      counts.push(c);
    }
    normSq[i] = squaredNorm(v.values());
    offsets[i + 1] = feats.length;
  }
  const F = feats.view();
  const C = counts.view();
  const dense = new Int32Array(vocab.size);
  const scatter = (i: number, on: boolean) => {
    for (let k = offsets[i]; k < offsets[i + 1]; k++) dense[F[k]] = on ? C[k] : 0;
  };
  return allPairs(
    {
      n,
      normSq,
      isEmpty: (i) => offsets[i] === offsets[i + 1],
      enter: (i) => scatter(i, true),
      leave: (i) => scatter(i, false),
      dot(_i, j) {
        let dot = 0;
        for (let k = offsets[j], e = offsets[j + 1]; k < e; k++) dot += dense[F[k]] * C[k];
        return dot;
      },
    },
    options,
  );
}
