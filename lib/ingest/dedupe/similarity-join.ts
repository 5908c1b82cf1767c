import { GrowableFloat64, GrowableInt32, PairIdTable, TokenTable } from "./buffers";
import { cosineFromCounts, DEFAULT_DEDUPE_THRESHOLD, normalizeForDedupe } from "./normalize";
import { assertThreshold, type NearDuplicateOptions, type NearDuplicateResult } from "./types";

/**
 * Exact near-duplicate detection: an all-pairs cosine similarity join (after Bayardo et al., "Scaling
 * up all pairs similarity search", WWW 2007, with the L2-norm bounds of Anastasiu & Karypis's L2AP,
 * ICDE 2014).
 *
 * Every row is a vector of uni+bigram counts, unit-normalised. Features are put in one global order,
 * rarest first. A row's *prefix* is its shortest leading run of features whose remaining suffix has
 * norm ≤ t. With one global order, two rows with cosine > t share a feature that lies in both
 * prefixes: if R_x ≤ R_y are the ranks where the prefixes end, a shared feature in x's prefix is in y's
 * prefix too, and with none the dot product comes from x's suffix alone, ≤ ‖x_suffix‖·‖y‖ ≤ t.
 *
 * So the prefixes are indexed (an inverted list per feature), and each row probes the lists of its own
 * prefix features, in rank order, for earlier rows. At the first feature f that x and y share, every
 * shared feature ranks at or after f, so cos(x, y) ≤ ‖x from f‖·‖y from f‖. Each list is sorted by
 * ‖y from f‖, largest first, so the scan of a list stops at the first entry where that product is ≤ t:
 * no pair above the threshold can hide behind it (for such a pair, the entry at its first shared
 * feature passes the test, so it is always met). Pairs met are also pruned by the L1·L∞ bound; the
 * rest are verified with the exact integer dot product, a merge of the two rank-sorted lists that gives
 * up as soon as the part computed plus ‖x from here‖·‖y from here‖ cannot exceed t. Rows identical to an earlier row (same count
 * vector) are not searched again: they inherit that row's answer (cosine 1 with it, and its
 * similarities with every other row).
 *
 * Pruning only discards pairs whose similarity is provably ≤ t (stored norms are rounded upwards and
 * bounds compared with a safety margin), and verification computes the similarity exactly as the brute
 * force does, so the result IS the brute-force result. Tests check this on thousands of real tweets.
 *
 * The one exception is the per-row work cap (maxWorkPerRow): on text where every row shares its prefix
 * features with every other row (a tiny vocabulary), no bound prunes and the join turns quadratic. A row
 * that reaches the cap stops probing (after half of it) and verifies the candidates met in the most lists
 * first; it may then miss a near-duplicate, and is counted in `capped` so that callers can say so.
 */

const SAFETY = 1 + 1e-9; // bounds are inflated by this before comparing with t
const LOW = 1 - 1e-6; // a Float32 copy of a value is within these factors of it
const HIGH = 1 + 1e-6;
const NORM_STEPS = 0x100000; // postings keep ‖y from f‖ as ceil(norm · 2^20) / 2^20 (never below the norm)
const ROW_SPACE = 0x80000000; // 2^31: (steps, row) pack into a double for sorting
const MAX_TOKEN_IDS = 0x7fffffff;

/**
 * The default cap on one row's candidate work (index entries scanned + feature-list steps verified). Real
 * tweets stay far below it; text from a tiny vocabulary, where every row is a candidate of every other,
 * reaches it, and the join's worst case becomes linear in the rows instead of quadratic.
 */
export const DEFAULT_MAX_WORK_PER_ROW = 20_000;

type Vectors = {
  n: number;
  /** Row i's features are F[offsets[i] .. offsets[i + 1]) with counts C[…]; empty for copies and tokenless rows. */
  offsets: Int32Array;
  F: Int32Array;
  C: Int32Array;
  normSq: Float64Array;
  l1: Float64Array;
  linf: Int32Array;
  /** -1: no tokens; i: row i is a representative; r < i: row i has the same vector as row r. */
  rep: Int32Array;
  /** Document frequency of each feature (over representatives). */
  df: Int32Array;
  nFeatures: number;
  tokenless: number;
};

function grow(a: Int32Array<ArrayBuffer>, min: number, fill = 0): Int32Array<ArrayBuffer> {
  if (a.length >= min) return a;
  const b = new Int32Array(Math.max(min, a.length * 2));
  if (fill !== 0) b.fill(fill);
  b.set(a);
  return b;
}

/** An order-independent hash of a count vector (sum of mixed (feature, count) pairs, two lanes). */
function mixPair(f: number, c: number, seed: number): number {
  let h = Math.imul(f ^ seed, 0x9e3779b1) + Math.imul(c, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/** Count vectors; rows identical to an earlier row are grouped (rep), their features not kept. */
function vectorize(texts: readonly string[]): Vectors {
  const n = texts.length;
  const vocab = new TokenTable(1 << 16);
  const bigrams = new PairIdTable(1 << 16);
  // Feature ids: unigram u → 2u, bigram b → 2b + 1 (both id spaces grow as the text is read).
  let maxFeature = -1;
  // Per feature, side by side: [row that last met it, its position in that row's list, document frequency].
  let scratch = new Int32Array(3 << 16).fill(-1);
  const offsets = new Int32Array(n + 1);
  const feats = new GrowableInt32(n * 16 + 16);
  const counts = new GrowableInt32(n * 16 + 16);
  const normSq = new Float64Array(n);
  const l1 = new Float64Array(n);
  const linf = new Int32Array(n);
  const rep = new Int32Array(n).fill(-1);
  // Rows by the hash of their vector: (h1, h2) → a slot, whose first row is firstWithHash[slot].
  const hashSlots = new PairIdTable(1 << 16);
  const firstWithHash = new GrowableInt32(1 << 16);
  const nextWithHash = new Int32Array(n).fill(-1);
  let tokenless = 0;

  for (let i = 0; i < n; i++) {
    // Tokens are the maximal runs of [a-z0-9] of the normalised text (as dedupeTokens), read in place.
    const text = normalizeForDedupe(texts[i]);
    const start = feats.length;
    offsets[i] = start;
    offsets[i + 1] = start;
    feats.reserve(text.length + 1);
    counts.reserve(text.length + 1);
    const F = feats.data;
    const C = counts.data;
    let end = start;
    let prev = -1;
    for (let k = 0; k < text.length; ) {
      let c = text.charCodeAt(k);
      if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
        k++;
        continue;
      }
      const from = k;
      let th = 0x811c9dc5; // TokenTable.hash, computed on the way
      do {
        th = Math.imul(th ^ c, 0x01000193);
        k++;
        c = text.charCodeAt(k);
      } while ((c >= 97 && c <= 122) || (c >= 48 && c <= 57));
      const u = vocab.idOf(text, from, k, th);
      if (u >= MAX_TOKEN_IDS - 1) throw new RangeError("too many distinct tokens for the near-duplicate index");
      for (let pass = prev >= 0 ? 0 : 1; pass < 2; pass++) {
        const id = pass === 0 ? bigrams.idOf(prev, u) * 2 + 1 : u * 2;
        if (id > maxFeature) maxFeature = id;
        const at = id * 3;
        if (at >= scratch.length) scratch = grow(scratch, at + 3, -1);
        if (scratch[at] === i) C[scratch[at + 1]]++;
        else {
          scratch[at] = i;
          scratch[at + 1] = end;
          F[end] = id;
          C[end] = 1;
          end++;
        }
      }
      prev = u;
    }
    if (end === start) {
      tokenless++;
      continue;
    }
    let ns = 0;
    let s1 = 0;
    let mx = 0;
    let h1 = 0;
    let h2 = 0;
    for (let q = start; q < end; q++) {
      const c = C[q];
      ns += c * c;
      s1 += c;
      if (c > mx) mx = c;
      h1 = (h1 + mixPair(F[q], c, 0x1b873593)) | 0;
      h2 = (h2 + mixPair(F[q], c, 0x5bd1e995)) | 0;
    }
    // Identical to an earlier row? The features of row i are marked (stamp = i), so compare as sets.
    const slot = hashSlots.idOf(h1 >>> 1, h2 >>> 1);
    if (slot === firstWithHash.length) firstWithHash.push(-1);
    let same = -1;
    for (let r = firstWithHash.data[slot]; r >= 0 && same < 0; r = nextWithHash[r]) {
      const ro = offsets[r];
      if (offsets[r + 1] - ro !== end - start) continue;
      let equal = true;
      for (let q = ro; q < offsets[r + 1] && equal; q++) equal = scratch[F[q] * 3] === i && C[scratch[F[q] * 3 + 1]] === C[q];
      if (equal) same = r;
    }
    if (same >= 0) {
      rep[i] = same;
      continue;
    }
    nextWithHash[i] = firstWithHash.data[slot];
    firstWithHash.data[slot] = i;
    rep[i] = i;
    for (let q = start; q < end; q++) scratch[F[q] * 3 + 2]++;
    normSq[i] = ns;
    l1[i] = s1;
    linf[i] = mx;
    feats.length = end;
    counts.length = end;
    offsets[i + 1] = end;
  }
  const nFeatures = maxFeature + 1;
  if (scratch.length < nFeatures * 3) scratch = grow(scratch, nFeatures * 3, -1);
  const df = new Int32Array(nFeatures);
  // The df slot started at -1 (the fill value): add it back.
  for (let f = 0; f < nFeatures; f++) df[f] = scratch[f * 3 + 2] + 1;
  return { n, offsets, F: feats.data, C: counts.data, normSq, l1, linf, rep, df, nFeatures, tokenless };
}

/** The global feature order: rarest first (document frequency, then id). Counting sort, O(features). */
function rankByRarity(df: Int32Array, nFeatures: number): Int32Array {
  let maxDf = 0;
  for (let f = 0; f < nFeatures; f++) if (df[f] > maxDf) maxDf = df[f];
  const bucket = new Int32Array(maxDf + 2);
  for (let f = 0; f < nFeatures; f++) bucket[df[f] + 1]++;
  for (let d = 1; d < bucket.length; d++) bucket[d] += bucket[d - 1];
  const rank = new Int32Array(nFeatures);
  for (let f = 0; f < nFeatures; f++) rank[f] = bucket[df[f]]++;
  return rank;
}

/** Suffix sums of squared unit weights: out[q] = Σ_{k ≥ q} c_k² / ‖c‖². */
function suffixNorms(C: Int32Array, o: number, len: number, normSq: number, out: Float64Array): void {
  out[len] = 0;
  for (let q = len - 1; q >= 0; q--) out[q] = out[q + 1] + (C[o + q] * C[o + q]) / normSq;
}

const PACK = 0x400000; // 2^22 positions per row before falling back to a comparator sort

type Index = {
  prefixLen: Int32Array;
  /** Document frequency by rank. */
  dfByRank: Int32Array;
  /** CSR: posting e of feature f, postStart[f] ≤ e < postStart[f + 1], is post[4e .. 4e + 3] and size[3e .. 3e + 2]. */
  postStart: Int32Array;
  /**
   * [row, ‖row from f‖ as ceil(norm · 2^20), start and end of the row's feature list]; each list is
   * sorted by that norm, largest first. Candidates are verified from the posting alone (no lookup by row).
   */
  post: Int32Array;
  /** The row's [L1 rounded up, L∞ rounded up, ‖·‖² (nearest Float32)], for bounds without touching the row. */
  size: Float32Array;
};

/**
 * Replaces each representative's feature ids by their ranks, in rank order (in place), finds its prefix (features up to the
 * first position whose suffix has norm ≤ t, with a safety margin so that the prefix is never too short),
 * and builds the inverted index of the prefixes (features of a single row are left out: they cannot be
 * shared).
 */
function buildIndex(v: Vectors, rank: Int32Array, t: number): Index {
  const { n, offsets, F, C, normSq, rep, nFeatures } = v;
  const df = new Int32Array(nFeatures);
  for (let f = 0; f < nFeatures; f++) df[rank[f]] = v.df[f];
  const prefixLen = new Int32Array(n);
  const postStart = new Int32Array(nFeatures + 1);
  let packed = new Float64Array(256);
  let fs = new Int32Array(256);
  let cs = new Int32Array(256);
  let suffix = new Float64Array(257);
  for (let i = 0; i < n; i++) {
    if (rep[i] !== i) continue;
    const o = offsets[i];
    const len = offsets[i + 1] - o;
    if (fs.length < len) {
      fs = new Int32Array(len * 2);
      cs = new Int32Array(len * 2);
      packed = new Float64Array(len * 2);
      suffix = new Float64Array(len * 2 + 1);
    }
    fs.set(F.subarray(o, o + len));
    cs.set(C.subarray(o, o + len));
    if (len < PACK) {
      for (let q = 0; q < len; q++) packed[q] = rank[fs[q]] * PACK + q;
      const order = packed.subarray(0, len).sort();
      for (let q = 0; q < len; q++) {
        const from = order[q] % PACK;
        F[o + q] = rank[fs[from]];
        C[o + q] = cs[from];
      }
    } else {
      const idx = Array.from({ length: len }, (_, q) => q).sort((a, b) => rank[fs[a]] - rank[fs[b]]);
      for (let q = 0; q < len; q++) {
        F[o + q] = rank[fs[idx[q]]];
        C[o + q] = cs[idx[q]];
      }
    }
    suffixNorms(C, o, len, normSq[i], suffix);
    let p = len;
    while (p > 0 && Math.sqrt(suffix[p - 1]) * SAFETY <= t) p--;
    prefixLen[i] = p;
    for (let q = 0; q < p; q++) if (df[F[o + q]] > 1) postStart[F[o + q] + 1]++;
  }
  for (let f = 0; f < nFeatures; f++) postStart[f + 1] += postStart[f];

  // Fill the lists as packed (NORM_STEPS - norm steps, row) keys, sort each list, unpack.
  const keys = new Float64Array(postStart[nFeatures]);
  const fill = postStart.slice(0, nFeatures);
  for (let i = 0; i < n; i++) {
    if (rep[i] !== i) continue;
    const o = offsets[i];
    const len = offsets[i + 1] - o;
    if (suffix.length < len + 1) suffix = new Float64Array(len * 2 + 1);
    suffixNorms(C, o, len, normSq[i], suffix);
    for (let q = 0; q < prefixLen[i]; q++) {
      const f = F[o + q];
      if (df[f] < 2) continue;
      const steps = Math.min(NORM_STEPS, Math.ceil(Math.sqrt(suffix[q]) * SAFETY * NORM_STEPS));
      keys[fill[f]++] = (NORM_STEPS - steps) * ROW_SPACE + i;
    }
  }
  const post = new Int32Array(keys.length * 4);
  const size = new Float32Array(keys.length * 3);
  for (let f = 0; f < nFeatures; f++) {
    const a = postStart[f];
    const b = postStart[f + 1];
    if (b - a > 1) keys.subarray(a, b).sort();
    for (let e = a; e < b; e++) {
      const row = keys[e] % ROW_SPACE;
      post[e * 4] = row;
      post[e * 4 + 1] = NORM_STEPS - (keys[e] - row) / ROW_SPACE;
      post[e * 4 + 2] = offsets[row];
      post[e * 4 + 3] = offsets[row + 1];
      size[e * 3] = Math.fround(v.l1[row] * HIGH);
      size[e * 3 + 1] = Math.fround(v.linf[row] * HIGH);
      size[e * 3 + 2] = Math.fround(normSq[row]);
    }
  }
  return { prefixLen, dfByRank: df, postStart, post, size };
}

export function findNearDuplicates(texts: readonly string[], options: NearDuplicateOptions = {}): NearDuplicateResult {
  const t = options.threshold ?? DEFAULT_DEDUPE_THRESHOLD;
  assertThreshold(t);
  const t0 = performance.now();
  const v = vectorize(texts);
  const t1 = performance.now();
  const index = buildIndex(v, rankByRarity(v.df, v.nFeatures), t);
  const t2 = performance.now();
  const cap = options.maxWorkPerRow ?? DEFAULT_MAX_WORK_PER_ROW;
  if (!(cap > 0)) throw new RangeError(`maxWorkPerRow must be positive, got ${cap}`);
  const result = scan(v, index, t, options.mode === "all", cap);
  const t3 = performance.now();
  Object.assign(result.stats, { vectorizeMs: Math.round(t1 - t0), indexMs: Math.round(t2 - t1), scanMs: Math.round(t3 - t2) });
  return result;
}

/**
 * Mode "all": every pair, grouped by the later row, each group sorted by the earlier row. Identical
 * copies of a representative and the representatives it matched are kept as linked lists in typed
 * arrays (millions of pairs, no per-pair objects).
 */
class PairSink {
  readonly a = new GrowableInt32(1 << 16);
  readonly b = new GrowableInt32(1 << 16);
  readonly sim = new GrowableFloat64(1 << 16);
  private readonly copyHead: Int32Array;
  private readonly copyTail: Int32Array;
  private readonly copyNext: Int32Array;
  private readonly edgeHead: Int32Array;
  private readonly edgeNext = new GrowableInt32(1 << 16);
  private readonly edgeTo = new GrowableInt32(1 << 16);
  private readonly edgeSim = new GrowableFloat64(1 << 16);
  private groupA = new GrowableInt32(256);
  private groupSim = new GrowableFloat64(256);
  private keys = new Float64Array(256);

  constructor(n: number) {
    this.copyHead = new Int32Array(n).fill(-1);
    this.copyTail = new Int32Array(n).fill(-1);
    this.copyNext = new Int32Array(n).fill(-1);
    this.edgeHead = new Int32Array(n).fill(-1);
  }

  /** Row r and its identical copies so far, all at similarity `sim` with the current row. */
  addGroup(r: number, sim: number): void {
    this.groupA.push(r);
    this.groupSim.push(sim);
    for (let c = this.copyHead[r]; c >= 0; c = this.copyNext[c]) {
      this.groupA.push(c);
      this.groupSim.push(sim);
    }
  }

  /** Representatives x and y are near-duplicates. */
  link(x: number, y: number, sim: number): void {
    for (const [from, to] of [
      [x, y],
      [y, x],
    ]) {
      this.edgeNext.push(this.edgeHead[from]);
      this.edgeTo.push(to);
      this.edgeSim.push(sim);
      this.edgeHead[from] = this.edgeTo.length - 1;
    }
  }

  /** Emits the group for row b, sorted by the earlier row; returns that earliest row, or -1. */
  flush(b: number): number {
    const m = this.groupA.length;
    if (m === 0) return -1;
    const ga = this.groupA.data;
    const gs = this.groupSim.data;
    if (this.keys.length < m) this.keys = new Float64Array(m * 2);
    const keys = this.keys.subarray(0, m);
    for (let k = 0; k < m; k++) keys[k] = ga[k] * 0x200000 + k; // rows < 2^31, group < 2^21
    if (m > 1) keys.sort();
    for (let k = 0; k < m; k++) {
      const from = keys[k] % 0x200000;
      this.a.push(ga[from]);
      this.b.push(b);
      this.sim.push(gs[from]);
    }
    const first = ga[keys[0] % 0x200000];
    this.groupA.length = 0;
    this.groupSim.length = 0;
    return first;
  }

  /** Row i is an identical copy of representative r. */
  copyOf(i: number, r: number, self: number, t: number): number {
    if (self > t) this.addGroup(r, self);
    for (let e = this.edgeHead[r]; e >= 0; e = this.edgeNext.data[e]) this.addGroup(this.edgeTo.data[e], this.edgeSim.data[e]);
    const first = this.flush(i);
    if (this.copyTail[r] < 0) this.copyHead[r] = i;
    else this.copyNext[this.copyTail[r]] = i;
    this.copyTail[r] = i;
    return first;
  }
}

/** Scans rows in input order: probe the index with the row's prefix for earlier rows, verify what survives the bounds. */
function scan(v: Vectors, { prefixLen, dfByRank: df, postStart, post, size }: Index, t: number, all: boolean, cap: number): NearDuplicateResult {
  const { n, offsets, F, C, normSq, l1, linf, rep } = v;
  const duplicateOf = new Int32Array(n).fill(-1);
  const seen = new Int32Array(n).fill(-1); // the last row whose probe met this row
  const slot = new Int32Array(n); // where that probe put it among the candidates (-1: pruned)
  // Candidates: the row, where its feature list is, and its ‖·‖² as stored (Float32) in the posting.
  const candidates = new GrowableInt32(1024);
  const candStart = new GrowableInt32(1024);
  const candEnd = new GrowableInt32(1024);
  const candNorm = new GrowableFloat64(1024);
  const candHits = new GrowableInt32(1024); // how many probed lists met the candidate
  const sink = all ? new PairSink(n) : null;
  let order = new Float64Array(1024);
  let suffix = new Float64Array(257);
  let byHits = new Int32Array(256);
  let probes = 0;
  let contacts = 0;
  let verified = 0;
  let abandonedEarly = 0;
  let matches = 0;
  let copyRows = 0;
  let capped = 0;
  let maxRowWork = 0;

  for (let i = 0; i < n; i++) {
    const r = rep[i];
    if (r < 0) continue;
    if (r !== i) {
      copyRows++;
      const self = cosineFromCounts(normSq[r], normSq[r], normSq[r]);
      if (sink) duplicateOf[i] = sink.copyOf(i, r, self, t);
      else if (self > t) duplicateOf[i] = duplicateOf[r] >= 0 ? duplicateOf[r] : r;
      continue;
    }

    const o = offsets[i];
    const len = offsets[i + 1] - o;
    const p = prefixLen[i];
    const nx = normSq[i];
    const l1x = l1[i];
    const linfx = linf[i];
    if (suffix.length < len + 1) suffix = new Float64Array(len * 2 + 1);
    suffixNorms(C, o, len, nx, suffix);

    candidates.length = 0;
    candStart.length = 0;
    candEnd.length = 0;
    candNorm.length = 0;
    candHits.length = 0;
    // This row's work: index entries scanned (at most half of the cap), then feature-list steps verified.
    let work = 0;
    const probeCap = cap / 2;
    let cut = false;
    for (let q = 0; q < p; q++) {
      const f = F[o + q];
      if (df[f] < 2) continue;
      if (work >= probeCap) {
        cut = true;
        break;
      }
      // Stop at the first entry whose ‖y from f‖ (steps / 2^20) makes ‖x from f‖·‖y from f‖ ≤ t.
      const minSteps = (t / (Math.sqrt(suffix[q]) * SAFETY)) * NORM_STEPS;
      const start = postStart[f];
      const end = Math.min(postStart[f + 1], start + Math.ceil(probeCap - work));
      let e = start;
      for (; e < end; e++) {
        probes++;
        const pe = e * 4;
        if (post[pe + 1] <= minSteps) {
          e++;
          break;
        }
        const y = post[pe];
        if (y >= i) continue;
        if (seen[y] === i) {
          if (slot[y] >= 0) candHits.data[slot[y]]++;
          continue;
        }
        seen[y] = i;
        slot[y] = -1;
        contacts++;
        const z = e * 3;
        if ((Math.min(l1x * size[z + 1], size[z] * linfx) / Math.sqrt(nx * size[z + 2] * LOW)) * SAFETY <= t) continue;
        slot[y] = candidates.length;
        candHits.push(1);
        candidates.push(y);
        candStart.push(post[pe + 2]);
        candEnd.push(post[pe + 3]);
        candNorm.push(size[z + 2]);
      }
      work += e - start;
      if (e === end && end < postStart[f + 1]) cut = true;
    }
    if (candidates.length === 0) {
      if (cut) capped++;
      if (work > maxRowWork) maxRowWork = work;
      continue;
    }

    // First mode wants the earliest match: try candidates by row, and stop at the first. A search cut short
    // tries the candidates met in the most lists first instead (the likeliest near-duplicates; a counting
    // sort, so that ordering stays linear in the candidates).
    const m = candidates.length;
    if (order.length < m) order = new Float64Array(m * 2);
    if (cut) {
      if (byHits.length < p + 2) byHits = new Int32Array(p * 2 + 2);
      byHits.fill(0, 0, p + 2);
      for (let c = 0; c < m; c++) byHits[p + 1 - Math.min(p, candHits.data[c])]++;
      for (let h = 1; h < p + 2; h++) byHits[h] += byHits[h - 1];
      for (let c = 0; c < m; c++) order[byHits[p - Math.min(p, candHits.data[c])]++] = c;
    } else for (let c = 0; c < m; c++) order[c] = all ? c : candidates.data[c] * 0x200000 + c;
    if (!cut && !all && m > 1) {
      if (m < 0x200000) order.subarray(0, m).sort();
      else order.set(Array.from(order.subarray(0, m)).sort((u, w) => u - w));
    }
    const xe = o + len;
    for (let k = 0; k < m; k++) {
      if (work >= cap) {
        cut = true;
        break;
      }
      const c = cut ? order[k] : all ? k : order[k] % 0x200000;
      const y = candidates.data[c];
      // Exact integer dot product: merge the two rank-sorted feature lists. Shared features still to
      // come lie at or after a in x and b in y, so the similarity is at most dot/‖x‖‖y‖ plus
      // ‖x from a‖·‖y from b‖; as soon as that cannot exceed t, give up on y. (‖y‖² is the posting's
      // Float32 copy, widened by its rounding error in the safe direction.)
      const nyF = candNorm.data[c];
      const scale = 1 / Math.sqrt(nx * nyF * LOW);
      const nyHigh = nyF * HIGH;
      let dot = 0;
      let consumed = 0; // Σ c² of y before b
      let a = o;
      let b = candStart.data[c];
      const be = candEnd.data[c];
      let abandoned = false;
      while (a < xe && b < be) {
        const fa = F[a];
        const fb = F[b];
        if (fa === fb) {
          const cb = C[b];
          dot += C[a] * cb;
          consumed += cb * cb;
          a++;
          b++;
        } else if (fa < fb) a++;
        else {
          const cb = C[b];
          consumed += cb * cb;
          b++;
        }
        const gap = t - dot * scale * SAFETY;
        if (gap > 0 && suffix[a - o] * (1 - consumed / nyHigh) * SAFETY <= gap * gap) {
          abandoned = true;
          break;
        }
      }
      work += a - o + (b - candStart.data[c]);
      if (abandoned) {
        abandonedEarly++;
        continue;
      }
      verified++;
      const sim = cosineFromCounts(dot, normSq[y], nx);
      if (!(sim > t)) continue;
      matches++;
      if (!sink) {
        duplicateOf[i] = y;
        break;
      }
      sink.addGroup(y, sim);
      sink.link(i, y, sim);
    }
    if (sink) duplicateOf[i] = sink.flush(i);
    if (cut) capped++;
    if (work > maxRowWork) maxRowWork = work;
  }

  let duplicates = 0;
  for (let i = 0; i < n; i++) if (duplicateOf[i] >= 0) duplicates++;
  return {
    rows: n,
    duplicateOf,
    duplicates,
    tokenless: v.tokenless,
    capped,
    maxWorkPerRow: cap,
    pairs: sink ? { count: sink.a.length, a: sink.a.view(), b: sink.b.view(), similarity: sink.sim.view() } : null,
    stats: {
      features: v.nFeatures,
      representatives: n - v.tokenless - copyRows,
      identicalCopies: copyRows,
      postings: postStart[postStart.length - 1],
      probes,
      contacts,
      abandonedEarly,
      verified,
      matches,
      cappedRows: capped,
      maxRowWork,
    },
  };
}
