import { textKey, truthAmong, type TruthOracle } from "@/lib/crowd/simulator/truth";
import { createRng, seedFrom, shuffled, type Rng } from "@/lib/util/random";

/** How wrong the simulated model is. Drawn once per run (seed) and label set, so its mistakes repeat across tweets. */
export interface ModelErrorOptions {
  /** Systematic confusions: classes whose tweets go to a neighbouring class (default 2; at most labels − 1). */
  confusions?: number;
  /** Each confusion's rate, drawn uniformly in this range (default [0.3, 0.5]). */
  confusionRate?: [number, number];
  /** Uniform noise: the share of every class's tweets spread evenly over the other classes (default 0.04). */
  noise?: number;
}

/** One systematic confusion: a share `rate` of the tweets whose truth is `from` are labelled `to`. */
export interface Confusion {
  from: string;
  to: string;
  rate: number;
}

export interface ConfusionMatrix {
  labels: string[];
  confusions: Confusion[];
  /** row[truth][answer] = P(answer | truth), in the scheme's order. */
  rows: Record<string, Record<string, number>>;
}

/**
 * Draws the confusion matrix for a label set: `confusions` distinct source classes, each confused with a neighbour
 * in the scheme's order (the next or previous label) at a rate in `confusionRate`, plus uniform `noise`.
 */
export function drawConfusionMatrix(labels: string[], seed: number, opts: ModelErrorOptions = {}): ConfusionMatrix {
  const k = labels.length;
  const rng = createRng(seedFrom(seed, "llm-confusion", ...labels));
  const [lo, hi] = opts.confusionRate ?? [0.3, 0.5];
  const noise = k > 1 ? (opts.noise ?? 0.04) : 0;
  const count = Math.max(0, Math.min(opts.confusions ?? 2, k - 1));
  const confusions: Confusion[] = shuffled(
    labels.map((_, i) => i),
    rng,
  )
    .slice(0, count)
    .map((i) => {
      const j = i === 0 ? 1 : i === k - 1 ? k - 2 : rng() < 0.5 ? i - 1 : i + 1;
      return { from: labels[i], to: labels[j], rate: lo + rng() * (hi - lo) };
    });
  const rows: ConfusionMatrix["rows"] = {};
  for (const truth of labels) {
    const row: Record<string, number> = {};
    const swap = confusions.find((c) => c.from === truth);
    for (const answer of labels) row[answer] = answer === truth ? 1 - noise - (swap?.rate ?? 0) : noise / (k - 1);
    if (swap) row[swap.to] += swap.rate;
    rows[truth] = row;
  }
  return { labels: [...labels], confusions, rows };
}

/** The answer whose cumulative probability (in scheme order) first exceeds u. */
function sampleRow(row: Record<string, number>, labels: string[], u: number): string {
  let acc = 0;
  for (const l of labels) {
    acc += row[l];
    if (u < acc) return l;
  }
  return labels[labels.length - 1];
}

export interface LabellingModelOptions {
  seed: number;
  /** What is true for a tweet, looked up by `textKey(text)` then by the text itself; else a seeded pseudo-truth. */
  truth?: TruthOracle;
  errors?: ModelErrorOptions;
}

/**
 * The simulated model. A tweet's answer is its truth passed through the run's confusion matrix, sampled with a
 * uniform drawn from the tweet's text (so at temperature 0 the same tweet always gets the same answer, and a
 * confused class loses the same share of its tweets to the same neighbour). At temperature t > 0 the uniform is
 * redrawn from the call's random stream with probability min(1, t / 2): per-call noise around the same matrix.
 */
export class LabellingModel {
  private readonly matrices = new Map<string, ConfusionMatrix>();

  constructor(private readonly opts: LabellingModelOptions) {}

  matrix(labels: string[]): ConfusionMatrix {
    const key = labels.join("\u0001");
    let m = this.matrices.get(key);
    if (!m) {
      m = drawConfusionMatrix(labels, this.opts.seed, this.opts.errors);
      this.matrices.set(key, m);
    }
    return m;
  }

  truth(text: string, labels: string[]): string {
    const key = textKey(text);
    const oracle = this.opts.truth;
    const direct = oracle?.label(key) ?? oracle?.label(text);
    if (direct !== undefined && labels.includes(direct)) return direct;
    return truthAmong(undefined, this.opts.seed, key, labels) as string;
  }

  label(text: string, labels: string[], temperature = 0, callRng?: Rng): string {
    const truth = this.truth(text, labels);
    let u = createRng(seedFrom(this.opts.seed, "llm-item", textKey(text)))();
    if (temperature > 0 && callRng && callRng() < Math.min(1, temperature / 2)) u = callRng();
    return sampleRow(this.matrix(labels).rows[truth], labels, u);
  }
}
