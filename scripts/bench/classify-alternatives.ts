/**
 * The measurement behind lib/classify's choice of model (lib/classify/README.md):
 *
 *   npx tsx scripts/bench/classify-alternatives.ts [--tasks emotion,hate,irony,offensive,stance,emoji] [--eval val|test]
 *
 * On TweetEval's val sets (test untouched unless --eval test), with fixed settings, compares:
 *   - svm:        one-vs-rest L2-loss linear SVM, dual coordinate descent (the default),
 *   - logistic:   one-vs-rest L2-regularised logistic regression, dual coordinate descent,
 *   - fasttext:   a fastText-style model written here for the comparison (Joulin et al. 2017:
 *                 averaged embeddings of words and hashed word bigrams, a softmax layer, SGD with a
 *                 linearly decaying rate; no pretrained vectors, which cannot be downloaded here).
 * No fastText WebAssembly package is installed in this project, so this in-TypeScript re-creation
 * stands in for it. Prints each task's official metric and the training time (wall and CPU).
 */
import { parseArgs } from "node:util";
import { wordTokens } from "@/lib/classify/preprocess";
import { trainClassifier } from "@/lib/classify/train";
import { evaluate, type MetricName } from "@/lib/metrics/classification";
import { createRng, randomInt } from "@/lib/util/random";
import { cpuSeconds, readTweetEvalSplit as split, TWEETEVAL_TASKS } from "./classify-tweeteval-data";

type Data = { texts: string[]; labels: string[] };

/** fastText's supervised model, minimal: input ids → mean embedding → softmax. */
function trainFastText(train: Data, { dim = 50, epochs = 10, lr = 0.2, buckets = 1 << 18, seed = 1 } = {}) {
  const labels = [...new Set(train.labels)].sort();
  const K = labels.length;
  const vocab = new Map<string, number>();
  const hash = (s: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const idsOf = (text: string, grow: boolean): number[] => {
    const tokens = wordTokens(text, { stopWords: false, asciiOnly: false });
    const ids: number[] = [];
    for (const t of tokens) {
      if (grow && !vocab.has(t)) vocab.set(t, vocab.size);
      const id = vocab.get(t);
      if (id !== undefined) ids.push(id);
    }
    return tokens.slice(1).reduce((acc, t, i) => (acc.push(-1 - (hash(`${tokens[i]} ${t}`) % buckets)), acc), ids);
  };
  const docs = train.texts.map((t) => idsOf(t, true));
  const rows = vocab.size + buckets;
  const index = (id: number) => (id >= 0 ? id : vocab.size - 1 - id);
  const rng = createRng(seed);
  const input = Float32Array.from({ length: rows * dim }, () => (rng() * 2 - 1) / dim);
  const output = new Float32Array(K * dim);
  const y = train.labels.map((l) => labels.indexOf(l));
  const hidden = new Float64Array(dim);
  const grad = new Float64Array(dim);
  const p = new Float64Array(K);
  const order = Array.from({ length: docs.length }, (_, i) => i);
  const total = epochs * docs.length;
  let step = 0;
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = randomInt(rng, i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const d of order) {
      const rate = lr * (1 - step++ / total);
      const ids = docs[d];
      if (ids.length === 0) continue;
      hidden.fill(0);
      for (const id of ids) for (let k = 0, b = index(id) * dim; k < dim; k++) hidden[k] += input[b + k];
      for (let k = 0; k < dim; k++) hidden[k] /= ids.length;
      let max = -Infinity;
      for (let c = 0; c < K; c++) {
        let s = 0;
        for (let k = 0; k < dim; k++) s += output[c * dim + k] * hidden[k];
        p[c] = s;
        max = Math.max(max, s);
      }
      let z = 0;
      for (let c = 0; c < K; c++) z += p[c] = Math.exp(p[c] - max);
      grad.fill(0);
      for (let c = 0; c < K; c++) {
        const g = rate * ((c === y[d] ? 1 : 0) - p[c] / z);
        for (let k = 0; k < dim; k++) {
          grad[k] += g * output[c * dim + k];
          output[c * dim + k] += g * hidden[k];
        }
      }
      for (const id of ids) for (let k = 0, b = index(id) * dim; k < dim; k++) input[b + k] += grad[k] / ids.length;
    }
  }
  return {
    predict(texts: string[]): string[] {
      return texts.map((t) => {
        const ids = idsOf(t, false);
        hidden.fill(0);
        for (const id of ids) for (let k = 0, b = index(id) * dim; k < dim; k++) hidden[k] += input[b + k];
        let best = 0;
        let bestScore = -Infinity;
        for (let c = 0; c < K; c++) {
          let s = 0;
          for (let k = 0; k < dim; k++) s += output[c * dim + k] * hidden[k];
          if (s > bestScore) [best, bestScore] = [c, s];
        }
        return labels[best];
      });
    },
  };
}

function main() {
  const { values } = parseArgs({
    options: {
      tasks: { type: "string", default: "emotion,hate,irony,offensive,stance,emoji" },
      eval: { type: "string", default: "val" },
    },
  });
  const tasks = (values.tasks as string).split(",");
  const evalSplit = values.eval === "test" ? "test" : "val";
  const models: Record<string, (train: Data, metric: MetricName) => { predict(texts: string[]): string[] }> = {
    svm: (train, metric) => trainClassifier({ ...train, options: { metric, loss: "svm", c: 0.3, classWeight: "balanced" } }),
    logistic: (train, metric) => trainClassifier({ ...train, options: { metric, loss: "logistic", c: 1, classWeight: "balanced" } }),
    fasttext: (train) => trainFastText(train),
  };
  console.log(`TweetEval ${evalSplit} sets (official metric ×100) · training wall s / CPU s`);
  console.log(["task".padEnd(10), ...Object.keys(models).map((m) => m.padStart(22))].join(""));
  for (const name of tasks) {
    const task = TWEETEVAL_TASKS.find((t) => t.name === name);
    if (!task) throw new Error(`unknown task ${name}`);
    const cells: string[] = [];
    for (const make of Object.values(models)) {
      const gold: string[] = [];
      const pred: string[] = [];
      let wall = 0;
      let cpu = 0;
      for (const dir of task.dirs) {
        const train = split(dir, "train");
        const val = split(dir, evalSplit);
        const t0 = performance.now();
        const c0 = cpuSeconds();
        const model = make(train, task.metric);
        wall += (performance.now() - t0) / 1000;
        cpu += cpuSeconds() - c0;
        gold.push(...val.labels);
        pred.push(...model.predict(val.texts));
      }
      const score = 100 * evaluate({ gold, pred, metric: task.metric }).score;
      cells.push(`${score.toFixed(1)} (${wall.toFixed(1)}/${cpu.toFixed(1)} s)`.padStart(22));
    }
    console.log(name.padEnd(10) + cells.join(""));
  }
}

main();
