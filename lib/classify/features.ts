import { normalizeTweet, type PreprocessOptions, wordTokens } from "./preprocess";

/**
 * Hashed, pruned tf-idf features: word n-grams of the preprocessed tokens plus word-boundary-aware
 * character n-grams. Every n-gram is hashed (no strings kept), buckets seen in fewer than `minDf`
 * training tweets are dropped, and the survivors get compact column numbers. Each block (words,
 * characters) is weighted (1 + ln tf) · idf and L2-normalised on its own, then scaled by its weight.
 */
export type FeatureOptions = {
  preprocess: PreprocessOptions;
  /** Word n-gram orders, inclusive (HumAID: uni-, bi- and trigrams). */
  wordNgrams: [number, number];
  /** Character n-gram orders inside space-padded words, inclusive; null turns them off. */
  charNgrams: [number, number] | null;
  /** Characters come from the preprocessed tokens ("clean") or the lightly normalised text ("light"). */
  charSource: "clean" | "light";
  /** Hash space per block: 2^hashBits buckets. */
  hashBits: number;
  /** Drop n-grams seen in fewer training tweets than this. */
  minDf: number;
  /** Scale of the character block relative to the word block. */
  charWeight: number;
};

/** Rows of a sparse matrix in compressed sparse row form. */
export type SparseRows = {
  rows: number;
  cols: number;
  indptr: Int32Array;
  indices: Int32Array;
  values: Float32Array;
};

export type FittedFeatures = {
  options: FeatureOptions;
  /** Kept hash buckets (word block in [0, 2^bits), character block in [2^bits, 2^(bits+1))), by falling df. */
  buckets: Uint32Array;
  idf: Float32Array;
};

// --- hashing -------------------------------------------------------------------------------------

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const WORD_SEED = 0x2545f491;
const CHAR_SEED = 0x9e3779b9;

/** Pushes the hash bucket of every word n-gram into `out` and of every character n-gram into `chars`. */
function hashDocument(text: string, o: FeatureOptions, out: Int32Buffer, chars: Int32Buffer, mask: number): void {
  const tokens = wordTokens(text, o.preprocess);
  const th = tokens.map(hashString);
  const [wmin, wmax] = o.wordNgrams;
  for (let i = 0; i < th.length; i++) {
    let h = WORD_SEED;
    for (let n = 1; n <= wmax && i + n <= th.length; n++) {
      h = Math.imul(h ^ th[i + n - 1], 0x01000193) + n;
      if (n >= wmin) out.push(fmix(h) & mask);
    }
  }
  if (!o.charNgrams) return;
  const [cmin, cmax] = o.charNgrams;
  const offset = mask + 1;
  const words = o.charSource === "clean" ? wordTokens(text, { ...o.preprocess, stopWords: false }) : normalizeTweet(text).split(" ");
  for (const word of words) {
    if (!word) continue;
    const padded = ` ${word} `;
    const len = padded.length;
    for (let i = 0; i < len; i++) {
      let h = CHAR_SEED;
      for (let n = 1; n <= cmax && i + n <= len; n++) {
        h = Math.imul(h ^ padded.charCodeAt(i + n - 1), 0x01000193);
        if (n >= cmin) chars.push(offset + (fmix(h + n) & mask));
      }
    }
  }
}

/** A growable typed array. */
class Growable<A extends Int32Array | Float32Array> {
  data: A;
  length = 0;
  constructor(private readonly make: (size: number) => A) {
    this.data = make(1024);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  clear(): void {
    this.length = 0;
  }
}

type Int32Buffer = Growable<Int32Array>;
const int32Buffer = (): Int32Buffer => new Growable((n) => new Int32Array(n));
const float32Buffer = () => new Growable((n) => new Float32Array(n));

/**
 * Bag-of-buckets of many documents: for document i, entries hashedStart[i] .. hashedStart[i + 1]
 * hold distinct buckets and their counts, word block first (up to wordEnd[i]).
 */
type HashedDocs = { start: Int32Array; wordEnd: Int32Array; buckets: Int32Array; counts: Int32Array };

/**
 * Counts the distinct buckets of one document in a small open-addressing table (it stays in the
 * CPU cache, unlike a table over the whole hash space), in first-seen order.
 */
class DocumentCounter {
  private keys = new Int32Array(1024).fill(-1);
  private values = new Int32Array(1024);
  private slots = new Int32Array(512);
  private shift = 32 - 10;

  count(raw: Int32Buffer, buckets: Int32Buffer, counts: Int32Buffer): void {
    if (raw.length * 2 > this.keys.length) {
      const bits = Math.ceil(Math.log2(raw.length * 2));
      this.keys = new Int32Array(1 << bits).fill(-1);
      this.values = new Int32Array(1 << bits);
      this.slots = new Int32Array(1 << (bits - 1));
      this.shift = 32 - bits;
    }
    const { keys, values, slots, shift } = this;
    const mask = keys.length - 1;
    let distinct = 0;
    for (let j = 0; j < raw.length; j++) {
      const b = raw.data[j];
      let slot = Math.imul(b, 0x9e3779b1) >>> shift;
      while (keys[slot] !== -1 && keys[slot] !== b) slot = (slot + 1) & mask;
      if (keys[slot] === -1) {
        keys[slot] = b;
        slots[distinct++] = slot;
      }
      values[slot]++;
    }
    // Emit in first-seen order and empty the table.
    for (let t = 0; t < distinct; t++) {
      const slot = slots[t];
      buckets.push(keys[slot]);
      counts.push(values[slot]);
      keys[slot] = -1;
      values[slot] = 0;
    }
  }
}

function hashAll(texts: readonly string[], options: FeatureOptions): HashedDocs {
  const mask = (1 << options.hashBits) - 1;
  const start = new Int32Array(texts.length + 1);
  const wordEnd = new Int32Array(texts.length);
  const buckets = int32Buffer();
  const counts = int32Buffer();
  const word = int32Buffer();
  const char = int32Buffer();
  const counter = new DocumentCounter();
  texts.forEach((text, i) => {
    word.clear();
    char.clear();
    hashDocument(text, options, word, char, mask);
    counter.count(word, buckets, counts);
    wordEnd[i] = buckets.length;
    counter.count(char, buckets, counts);
    start[i + 1] = buckets.length;
  });
  return { start, wordEnd, buckets: buckets.data, counts: counts.data };
}

/** Learns the kept buckets and their idf from training texts. */
export function fitFeatures(texts: readonly string[], options: FeatureOptions): FittedFeatures {
  return fitHashed(hashAll(texts, options), texts.length, options);
}

function fitHashed(docs: HashedDocs, n: number, options: FeatureOptions): FittedFeatures {
  const df = new Int32Array(2 << options.hashBits);
  const end = docs.start[n];
  for (let j = 0; j < end; j++) df[docs.buckets[j]] += 1;
  const keep: number[] = [];
  for (let b = 0; b < df.length; b++) if (df[b] >= options.minDf) keep.push(b);
  // Most frequent first, so that the weights read most often sit together in memory.
  keep.sort((a, b) => df[b] - df[a] || a - b);
  const buckets = Uint32Array.from(keep);
  const idf = Float32Array.from(keep, (b) => Math.log((1 + n) / (1 + df[b])) + 1); // scikit-learn's smoothed idf
  return { options, buckets, idf };
}

/** Turns texts into tf-idf rows with a fitted feature space; unseen n-grams are ignored. */
export class FeatureSpace {
  private readonly column: Int32Array;
  readonly size: number;

  constructor(readonly fitted: FittedFeatures) {
    this.column = new Int32Array(2 << fitted.options.hashBits).fill(-1);
    fitted.buckets.forEach((b, i) => {
      this.column[b] = i;
    });
    this.size = fitted.buckets.length;
  }

  transform(texts: readonly string[]): SparseRows {
    return this.build(hashAll(texts, this.fitted.options), texts.length);
  }

  private build(docs: HashedDocs, rows: number): SparseRows {
    const { idf, options } = this.fitted;
    const indptr = new Int32Array(rows + 1);
    const indices = int32Buffer();
    const values = float32Buffer();
    const push = (from: number, to: number) => {
      for (let j = from; j < to; j++) {
        const col = this.column[docs.buckets[j]];
        if (col < 0) continue;
        indices.push(col);
        values.push((1 + Math.log(docs.counts[j])) * idf[col]);
      }
    };
    for (let i = 0; i < rows; i++) {
      const from = indices.length;
      push(docs.start[i], docs.wordEnd[i]);
      const wordEnd = indices.length;
      push(docs.wordEnd[i], docs.start[i + 1]);
      normalizeBlock(values.data, from, wordEnd, 1);
      normalizeBlock(values.data, wordEnd, indices.length, options.charWeight);
      indptr[i + 1] = indices.length;
    }
    return {
      rows,
      cols: this.size,
      indptr,
      indices: indices.data.slice(0, indices.length),
      values: values.data.slice(0, values.length),
    };
  }

  /** Fits a feature space and transforms the same texts, hashing them once. */
  static fitTransform(texts: readonly string[], options: FeatureOptions): { space: FeatureSpace; x: SparseRows } {
    const docs = hashAll(texts, options);
    const space = new FeatureSpace(fitHashed(docs, texts.length, options));
    return { space, x: space.build(docs, texts.length) };
  }
}

function normalizeBlock(values: Float32Array, from: number, to: number, scale: number): void {
  let sq = 0;
  for (let i = from; i < to; i++) sq += values[i] * values[i];
  if (sq === 0) return;
  const f = scale / Math.sqrt(sq);
  for (let i = from; i < to; i++) values[i] *= f;
}
