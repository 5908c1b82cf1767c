/**
 * The measurement behind lib/classify's choice of model (lib/classify/README.md):
 *
 *   npx tsx scripts/bench/classify-alternatives.ts [--tasks emotion,hate,irony,offensive,stance,emoji] [--eval val|test]
 *
 * On TweetEval's val sets (test untouched unless --eval test), with fixed settings, compares:
 *   - svm:        one-vs-rest L2-loss linear SVM, dual coordinate descent (the default),
 *   - logistic:   one-vs-rest L2-regularised logistic regression, dual coordinate descent,
 *   - fasttext:   a fastText-style model written for the comparison (Joulin et al. 2017:
 *                 averaged embeddings of words and hashed word bigrams, a softmax layer, SGD with a
 *                 linearly decaying rate; dim 50, 10 epochs, lr 0.2, 2^18 bigram buckets, seed 1;
 *                 no pretrained vectors, which cannot be downloaded here).
 * No fastText WebAssembly package is installed in this project, so that in-TypeScript re-creation
 * (scripts/bench/fasttext-style.ts, shared with classify-pretrain-experiment.ts) stands in for it.
 * Prints each task's official metric and the training time (wall and CPU).
 */
import { parseArgs } from "node:util";
import { trainClassifier } from "@/lib/classify/train";
import { evaluate, type MetricName } from "@/lib/metrics/classification";
import { cpuSeconds, readTweetEvalSplit as split, TWEETEVAL_TASKS } from "./classify-tweeteval-data";
import { type Data, trainFastText } from "./fasttext-style";

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
