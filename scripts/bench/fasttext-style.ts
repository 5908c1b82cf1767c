/**
 * A fastText-style supervised text classifier (Joulin et al. 2017, "Bag of Tricks for Efficient Text
 * Classification"), re-created in TypeScript for the benchmarks: no fastText WebAssembly package is
 * installed in this project. Used by classify-alternatives.ts (the comparison behind lib/classify's
 * choice of model) and classify-pretrain-experiment.ts (pretrained word vectors).
 *
 * The model: a text's input ids (its words and, optionally, its hashed word bigrams) → the mean of
 * their embedding rows → a linear layer → softmax; trained by SGD on the log loss with a linearly
 * decaying rate, one shuffled pass over the training texts per epoch. Optionally the word rows start
 * from pretrained vectors (as fastText -pretrainedVectors does: pretrained words join the
 * dictionary, so words unseen in train but pretrained still count at prediction time), and those
 * rows can be frozen.
 */
import { wordTokens } from "@/lib/classify/preprocess";
import { createRng, randomInt } from "@/lib/util/random";

export type Data = { texts: string[]; labels: string[] };
/** Word vectors: row i of `vectors` (length `dim`) belongs to `words[i]`. */
export type Emb = { words: string[]; dim: number; vectors: Float32Array };

export type FastTextOptions = {
  dim?: number;
  epochs?: number;
  /** Initial learning rate, decayed linearly to 0 over all the steps. */
  lr?: number;
  /** Hash buckets for word bigrams (used only when `bigrams` is on). */
  buckets?: number;
  bigrams?: boolean;
  /** Keep the pretrained word rows fixed (no effect without pretrained vectors). */
  freeze?: boolean;
  seed?: number;
  /** Text → tokens; the default is lib/classify's word tokens (stop words and non-ASCII kept). */
  tokenize?: (text: string) => string[];
};

const defaultTokens = (text: string) => wordTokens(text, { stopWords: false, asciiOnly: false });

/** FNV-1a over UTF-16 code units. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * fastText's supervised model: input ids → mean embedding → softmax. `pretrained`, if given,
 * initialises the word rows (its dim must equal `dim`).
 */
export function trainFastText(train: Data, options: FastTextOptions = {}, pretrained?: Emb) {
  const { dim = 50, epochs = 10, lr = 0.2, bigrams = true, freeze = false, seed = 1, tokenize = defaultTokens } = options;
  const buckets = bigrams ? (options.buckets ?? 1 << 18) : 0;
  const labels = [...new Set(train.labels)].sort();
  const K = labels.length;
  const vocab = new Map<string, number>();
  if (pretrained) {
    if (pretrained.dim !== dim) throw new Error("dim mismatch");
    for (const w of pretrained.words) vocab.set(w, vocab.size);
  }
  const nPre = vocab.size;
  // Word ids are >= 0; bigram bucket b is id -1 - b (its row follows the word rows).
  const idsOf = (text: string, grow: boolean): number[] => {
    const tokens = tokenize(text);
    const ids: number[] = [];
    for (const t of tokens) {
      if (grow && !vocab.has(t)) vocab.set(t, vocab.size);
      const id = vocab.get(t);
      if (id !== undefined) ids.push(id);
    }
    if (bigrams) for (let i = 1; i < tokens.length; i++) ids.push(-1 - (hash(`${tokens[i - 1]} ${tokens[i]}`) % buckets));
    return ids;
  };
  const docs = train.texts.map((t) => idsOf(t, true));
  const nWords = vocab.size;
  const rows = nWords + buckets;
  const index = (id: number) => (id >= 0 ? id : nWords - 1 - id);
  const rng = createRng(seed);
  const input = new Float32Array(rows * dim);
  for (let i = 0; i < input.length; i++) input[i] = (rng() * 2 - 1) / dim;
  if (pretrained) input.set(pretrained.vectors.subarray(0, nPre * dim), 0);
  const output = new Float32Array(K * dim);
  const y = train.labels.map((l) => labels.indexOf(l));
  const hidden = new Float64Array(dim);
  const grad = new Float64Array(dim);
  const p = new Float64Array(K);
  const order = Array.from({ length: docs.length }, (_, i) => i);
  const total = epochs * docs.length;
  let step = 0;
  /** hidden = sum (or mean) of the ids' rows; p = the class scores. */
  const scores = (ids: number[], mean: boolean) => {
    hidden.fill(0);
    for (const id of ids) for (let k = 0, b = index(id) * dim; k < dim; k++) hidden[k] += input[b + k];
    if (mean && ids.length) for (let k = 0; k < dim; k++) hidden[k] /= ids.length;
    for (let c = 0; c < K; c++) {
      let s = 0;
      for (let k = 0; k < dim; k++) s += output[c * dim + k] * hidden[k];
      p[c] = s;
    }
  };
  /** p = softmax of the mean embedding's scores. */
  const forward = (ids: number[]) => {
    scores(ids, true);
    let max = -Infinity;
    for (let c = 0; c < K; c++) max = Math.max(max, p[c]);
    let z = 0;
    for (let c = 0; c < K; c++) z += p[c] = Math.exp(p[c] - max);
    for (let c = 0; c < K; c++) p[c] /= z;
  };
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = randomInt(rng, i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const d of order) {
      const rate = lr * (1 - step++ / total);
      const ids = docs[d];
      if (ids.length === 0) continue;
      forward(ids);
      grad.fill(0);
      for (let c = 0; c < K; c++) {
        const g = rate * ((c === y[d] ? 1 : 0) - p[c]);
        for (let k = 0; k < dim; k++) {
          grad[k] += g * output[c * dim + k];
          output[c * dim + k] += g * hidden[k];
        }
      }
      for (const id of ids) {
        if (freeze && id >= 0 && id < nPre) continue;
        for (let k = 0, b = index(id) * dim; k < dim; k++) input[b + k] += grad[k] / ids.length;
      }
    }
  }
  return {
    labels,
    /**
     * The best-scoring label: argmax of the scores of the summed (not averaged) embedding, as
     * classify-alternatives.ts has always predicted (the mean's ranking, up to rounding).
     */
    predict(texts: string[]): string[] {
      return texts.map((t) => {
        scores(idsOf(t, false), false);
        let best = 0;
        let bestScore = -Infinity;
        for (let c = 0; c < K; c++) if (p[c] > bestScore) [best, bestScore] = [c, p[c]];
        return labels[best];
      });
    },
    /** Class probabilities, in the order of `labels`. */
    predictProba(texts: string[]): number[][] {
      return texts.map((t) => {
        forward(idsOf(t, false));
        return Array.from(p);
      });
    },
  };
}
