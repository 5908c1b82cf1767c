import { GrowableFloat64, GrowableInt32, IntKeyIdTable } from "./buffers";
import { cosineFromCounts, dedupeTokens, DEFAULT_DEDUPE_THRESHOLD } from "./normalize";
import { assertThreshold, type NearDuplicateOptions, type NearDuplicateResult } from "./types";

/**
 * Exact near-duplicate detection: an all-pairs cosine similarity join (after Bayardo et al., "Scaling
 * up all pairs similarity search", WWW 2007, and Anastasiu & Karypis's L2AP bounds, ICDE 2014).
 *
 * Every row is a vector of uni+bigram counts, unit-normalised. Features are put in one global order,
 * rarest first. A row's *prefix* is its shortest leading run of features whose remaining suffix has
 * norm ≤ t. With one global order, two rows with cosine > t must share a feature that lies in both
 * prefixes (if R_x ≤ R_y are the ranks where the prefixes end, a shared feature of x's prefix is in y's
 * prefix too; with none, the whole dot product comes from x's suffix and is ≤ ‖x_suffix‖·‖y‖ ≤ t).
 * So rows are scanned in input order; each probes an inverted index of the prefixes of earlier rows
 * with its own prefix, then adds its prefix to the index. Candidates are pruned at first contact by
 * ‖x_from_f‖·‖y_from_f‖ (all shared features have rank ≥ that of the first one met) and by the
 * L1·L∞ bound, and the survivors are verified with the exact integer dot product. Rows identical to an
 * earlier row (same count vector) are not searched again: they inherit that row's answer.
 *
 * Pruning only discards pairs whose similarity is provably ≤ t (every bound is rounded upwards), and
 * verification computes the similarity exactly as the brute force does, so the result is the
 * brute-force result. Tests check this on thousands of real tweets.
 */

const BIGRAM_BASE = 0x4000000; // 2^26: unigram ids stay below it; bigram keys are (u1 + 1)·2^26 + u2 < 2^53
const SAFETY = 1 + 1e-9; // bounds are inflated by this before comparing with t
const NORM_ROUND_UP = 1 + 1e-6; // stored Float32 norms are rounded up by more than Float32's error

function hashVector(feats: Int32Array, counts: Int32Array, from: number, to: number): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let k = from; k < to; k++) {
    h1 = Math.imul(h1 ^ feats[k], 0x01000193);
    h1 = Math.imul(h1 ^ counts[k], 0x01000193);
    h2 = Math.imul(h2 ^ (feats[k] + 0x5bd1e995), 0x5bd1e995);
    h2 ^= h2 >>> 13;
    h2 = Math.imul(h2 ^ counts[k], 0x27d4eb2d);
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 11) & 0x1fffff);
}

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

/** Count vectors over distinct feature ids (sorted by id); rows identical to an earlier row are grouped. */
function vectorize(texts: readonly string[]): Vectors {
  const n = texts.length;
  const vocab = new Map<string, number>();
  const table = new IntKeyIdTable(1 << 16);
  let df = new Int32Array(1 << 16);
  const offsets = new Int32Array(n + 1);
  const feats = new GrowableInt32(n * 16 + 16);
  const counts = new GrowableInt32(n * 16 + 16);
  const normSq = new Float64Array(n);
  const l1 = new Float64Array(n);
  const linf = new Int32Array(n);
  const rep = new Int32Array(n).fill(-1);
  const firstWithHash = new Map<number, number>();
  const nextWithHash = new Int32Array(n).fill(-1);
  let tmp = new Int32Array(256);
  let tokenless = 0;

  for (let i = 0; i < n; i++) {
    const tokens = dedupeTokens(texts[i]);
    const start = feats.length;
    offsets[i] = start;
    offsets[i + 1] = start;
    if (tokens.length === 0) {
      tokenless++;
      continue;
    }
    if (tmp.length < tokens.length * 2) tmp = new Int32Array(tokens.length * 2);
    let k = 0;
    let prev = -1;
    for (const tok of tokens) {
      let u = vocab.get(tok);
      if (u === undefined) {
        u = vocab.size;
        if (u >= BIGRAM_BASE - 1) throw new RangeError("too many distinct tokens for the near-duplicate index");
        vocab.set(tok, u);
      }
      tmp[k++] = table.idOf(u);
      if (prev >= 0) tmp[k++] = table.idOf((prev + 1) * BIGRAM_BASE + u);
      prev = u;
    }
    if (table.size > df.length) {
      const bigger = new Int32Array(Math.max(table.size, df.length * 2));
      bigger.set(df);
      df = bigger;
    }
    const ids = tmp.subarray(0, k).sort();
    feats.reserve(k);
    counts.reserve(k);
    const F = feats.data;
    const C = counts.data;
    let end = start;
    let ns = 0;
    let s1 = 0;
    let mx = 0;
    for (let a = 0; a < k; ) {
      let b = a + 1;
      while (b < k && ids[b] === ids[a]) b++;
      const c = b - a;
      F[end] = ids[a];
      C[end] = c;
      end++;
      ns += c * c;
      s1 += c;
      if (c > mx) mx = c;
      a = b;
    }
    // Identical to an earlier row? Then drop this copy's features and point at that row.
    const h = hashVector(F, C, start, end);
    let same = -1;
    for (let r = firstWithHash.get(h) ?? -1; r >= 0 && same < 0; r = nextWithHash[r]) {
      const ro = offsets[r];
      if (offsets[r + 1] - ro !== end - start) continue;
      let equal = true;
      for (let q = 0; q < end - start && equal; q++) equal = F[ro + q] === F[start + q] && C[ro + q] === C[start + q];
      if (equal) same = r;
    }
    if (same >= 0) {
      rep[i] = same;
      continue;
    }
    const head = firstWithHash.get(h);
    if (head !== undefined) nextWithHash[i] = head;
    firstWithHash.set(h, i);
    rep[i] = i;
    for (let q = start; q < end; q++) df[F[q]]++;
    normSq[i] = ns;
    l1[i] = s1;
    linf[i] = mx;
    feats.length = end;
    counts.length = end;
    offsets[i + 1] = end;
  }
  return { n, offsets, F: feats.data, C: counts.data, normSq, l1, linf, rep, df, nFeatures: table.size, tokenless };
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

/** Suffix sums of squared unit weights: out[q] = Σ_{k ≥ q} (c_k² / ‖c‖²). */
function suffixNorms(C: Int32Array, o: number, len: number, normSq: number, out: Float64Array): void {
  out[len] = 0;
  for (let q = len - 1; q >= 0; q--) out[q] = out[q + 1] + (C[o + q] * C[o + q]) / normSq;
}

const PACK = 0x400000; // 2^22 positions per row before falling back to a comparator sort

/**
 * Puts each representative's features in rank order (in place) and finds its prefix: features up to
 * the first position whose suffix has norm ≤ t (checked with a safety margin, so the prefix is never
 * too short). Returns the prefix lengths and the inverted index layout (CSR starts per feature).
 */
function orderAndPrefix(v: Vectors, rank: Int32Array, t: number): { prefixLen: Int32Array; postStart: Int32Array } {
  const { n, offsets, F, C, normSq, rep, df, nFeatures } = v;
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
        F[o + q] = fs[from];
        C[o + q] = cs[from];
      }
    } else {
      const idx = Array.from({ length: len }, (_, q) => q).sort((a, b) => rank[fs[a]] - rank[fs[b]]);
      for (let q = 0; q < len; q++) {
        F[o + q] = fs[idx[q]];
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
  return { prefixLen, postStart };
}

export function findNearDuplicates(texts: readonly string[], options: NearDuplicateOptions = {}): NearDuplicateResult {
  const t = options.threshold ?? DEFAULT_DEDUPE_THRESHOLD;
  assertThreshold(t);
  const all = options.mode === "all";
  const v = vectorize(texts);
  const rank = rankByRarity(v.df, v.nFeatures);
  const { prefixLen, postStart } = orderAndPrefix(v, rank, t);
  return scan(v, prefixLen, postStart, t, all);
}

/** Scans rows in input order: probe the index with the row's prefix, verify candidates, index the prefix. */
function scan(v: Vectors, prefixLen: Int32Array, postStart: Int32Array, t: number, all: boolean): NearDuplicateResult {
  const { n, offsets, F, C, normSq, l1, linf, rep, df, nFeatures } = v;
  const fill = postStart.slice(0, nFeatures);
  const totalPostings = postStart[nFeatures];
  const postRow = new Int32Array(totalPostings);
  const postNorm = new Float32Array(totalPostings);
  const duplicateOf = new Int32Array(n).fill(-1);
  const dense = new Int32Array(nFeatures);
  const seen = new Int32Array(n).fill(-1);
  const candidates = new GrowableInt32(1024);
  let suffix = new Float64Array(257);
  const pairA = new GrowableInt32(all ? 1024 : 16);
  const pairB = new GrowableInt32(all ? 1024 : 16);
  const pairSim = new GrowableFloat64(all ? 1024 : 16);
  // Mode "all": identical copies of each representative, and the representatives it matched.
  const copies = new Map<number, number[]>();
  const matchedReps = new Map<number, number[]>();
  const matchedSims = new Map<number, number[]>();
  const group: Array<{ a: number; sim: number }> = [];
  let probes = 0;
  let contacts = 0;
  let verified = 0;
  let matches = 0;
  let copyRows = 0;

  const addGroup = (r: number, sim: number) => {
    group.push({ a: r, sim });
    for (const c of copies.get(r) ?? []) group.push({ a: c, sim });
  };
  const link = (x: number, y: number, sim: number) => {
    let reps = matchedReps.get(x);
    let sims = matchedSims.get(x);
    if (!reps || !sims) {
      matchedReps.set(x, (reps = []));
      matchedSims.set(x, (sims = []));
    }
    reps.push(y);
    sims.push(sim);
  };
  const flushGroup = (b: number) => {
    if (group.length === 0) return;
    group.sort((p, q) => p.a - q.a);
    duplicateOf[b] = group[0].a;
    for (const g of group) {
      pairA.push(g.a);
      pairB.push(b);
      pairSim.push(g.sim);
    }
    group.length = 0;
  };

  for (let i = 0; i < n; i++) {
    const r = rep[i];
    if (r < 0) continue;
    if (r !== i) {
      // An identical copy: cosine 1 with r and r's copies, and r's similarity with everything else.
      copyRows++;
      const self = cosineFromCounts(normSq[r], normSq[r], normSq[r]);
      if (all) {
        if (self > t) addGroup(r, self);
        const reps = matchedReps.get(r) ?? [];
        const sims = matchedSims.get(r) ?? [];
        for (let m = 0; m < reps.length; m++) addGroup(reps[m], sims[m]);
        flushGroup(i);
        let list = copies.get(r);
        if (!list) copies.set(r, (list = []));
        list.push(i);
      } else if (self > t) {
        duplicateOf[i] = duplicateOf[r] >= 0 ? duplicateOf[r] : r;
      }
      continue;
    }

    const o = offsets[i];
    const len = offsets[i + 1] - o;
    const p = prefixLen[i];
    const nx = normSq[i];
    if (suffix.length < len + 1) suffix = new Float64Array(len * 2 + 1);
    suffixNorms(C, o, len, nx, suffix);

    candidates.length = 0;
    for (let q = 0; q < p; q++) {
      const f = F[o + q];
      if (df[f] < 2) continue;
      const xNorm = Math.sqrt(suffix[q]) * SAFETY;
      const end = fill[f];
      for (let e = postStart[f]; e < end; e++) {
        probes++;
        const y = postRow[e];
        if (seen[y] === i) continue;
        seen[y] = i;
        contacts++;
        // All shared features rank at or after f: the dot product is at most the product of the tails.
        if (xNorm * postNorm[e] <= t) continue;
        const bound = (Math.min(l1[i] * linf[y], l1[y] * linf[i]) / Math.sqrt(nx * normSq[y])) * SAFETY;
        if (bound <= t) continue;
        candidates.push(y);
      }
    }

    if (candidates.length > 0) {
      for (let q = o; q < o + len; q++) dense[F[q]] = C[q];
      const cand = candidates.view();
      if (!all) cand.sort();
      for (let c = 0; c < cand.length; c++) {
        const y = cand[c];
        let dot = 0;
        for (let q = offsets[y], ey = offsets[y + 1]; q < ey; q++) dot += dense[F[q]] * C[q];
        verified++;
        const sim = cosineFromCounts(dot, normSq[y], nx);
        if (!(sim > t)) continue;
        matches++;
        if (!all) {
          duplicateOf[i] = y;
          break;
        }
        addGroup(y, sim);
        link(i, y, sim);
        link(y, i, sim);
      }
      for (let q = o; q < o + len; q++) dense[F[q]] = 0;
      if (all) flushGroup(i);
    }

    // Index this row's prefix (a feature of a single row can never be shared).
    for (let q = 0; q < p; q++) {
      const f = F[o + q];
      if (df[f] < 2) continue;
      const e = fill[f]++;
      postRow[e] = i;
      postNorm[e] = Math.fround(Math.sqrt(suffix[q]) * NORM_ROUND_UP);
    }
  }

  let duplicates = 0;
  for (let i = 0; i < n; i++) if (duplicateOf[i] >= 0) duplicates++;
  return {
    rows: n,
    duplicateOf,
    duplicates,
    tokenless: v.tokenless,
    pairs: all ? { count: pairA.length, a: pairA.view(), b: pairB.view(), similarity: pairSim.view() } : null,
    stats: {
      features: nFeatures,
      representatives: n - v.tokenless - copyRows,
      identicalCopies: copyRows,
      postings: totalPostings,
      probes,
      contacts,
      verified,
      matches,
    },
  };
}
