/**
 * TweetEval benchmark of Accord's baseline classifier (issue 8).
 *
 *   npx tsx scripts/bench/classify-tweeteval.ts [--tasks emoji,emotion,...] [--eval test|val]
 *                                              [--options '{"c":1}'] [--no-dev]
 *
 * For each task: train on train, choose C and class weighting on val by the task's official metric
 * (lib/classify trainClassifier with dev), predict test, and score it the way TweetEval's
 * evaluation script does (emoji, emotion, hate, offensive: macro-F1; irony: F1 of "irony"; stance:
 * mean F1 of against and favor over the five targets' pooled predictions, one model per target).
 * Prints the paper's test baselines (Table 3, SVM and FastText rows) beside Accord's score and its
 * training time. `--eval val` scores val instead (for choosing defaults without touching test).
 * Reads ../shared/data/tweeteval when it is there (benchmark data, never used by the product or the tests).
 */
import { parseArgs } from "node:util";
import { trainClassifier, type TrainOptions } from "@/lib/classify/train";
import { evaluate } from "@/lib/metrics/classification";
import { cpuSeconds, readTweetEvalSplit as split, tweetEvalDir, TWEETEVAL_TASKS as TASKS } from "./classify-tweeteval-data";

function main() {
  tweetEvalDir(); // stops with how to get TweetEval when it is missing
  const { values } = parseArgs({
    options: {
      tasks: { type: "string", default: TASKS.map((t) => t.name).join(",") },
      eval: { type: "string", default: "test" },
      options: { type: "string", default: "{}" },
      "no-dev": { type: "boolean", default: false },
    },
  });
  const wanted = (values.tasks as string).split(",");
  const evalSplit = values.eval === "val" ? "val" : "test";
  const extra = JSON.parse(values.options as string) as TrainOptions;
  const header = ["task", "metric", "SVM", "FastText", "target", "Accord", "vs best", "train s", "train cpu s", "features"];
  const rows: string[][] = [];
  console.log(`TweetEval ${evalSplit} set; options ${JSON.stringify(extra)}${values["no-dev"] ? "; no dev search" : ""}`);
  for (const task of TASKS.filter((t) => wanted.includes(t.name))) {
    const gold: string[] = [];
    const pred: string[] = [];
    let wall = 0;
    let cpu = 0;
    let features = 0;
    const chosen: string[] = [];
    for (const dir of task.dirs) {
      const train = split(dir, "train");
      const val = split(dir, "val");
      const evaluation = evalSplit === "val" ? val : split(dir, "test");
      const t0 = performance.now();
      const c0 = cpuSeconds();
      const model = trainClassifier({
        ...train,
        options: { metric: task.metric, ...extra },
        dev: values["no-dev"] || evalSplit === "val" ? undefined : val,
      });
      wall += (performance.now() - t0) / 1000;
      cpu += cpuSeconds() - c0;
      features += model.info.features;
      const lin = model.info.options.linear;
      chosen.push(`${dir}: ${lin.loss} C=${lin.c} ${lin.classWeight}${model.info.dev ? ` dev=${(100 * model.info.dev.score).toFixed(1)}` : ""}`);
      gold.push(...evaluation.labels);
      pred.push(...model.predict(evaluation.texts));
    }
    const score = 100 * evaluate({ gold, pred, metric: task.metric }).score;
    const best = Math.max(task.svm, task.fasttext);
    rows.push([
      task.name,
      task.metricLabel,
      task.svm.toFixed(1),
      task.fasttext.toFixed(1),
      (best - 3).toFixed(1),
      score.toFixed(1),
      `${score - best >= 0 ? "+" : ""}${(score - best).toFixed(1)}`,
      wall.toFixed(1),
      cpu.toFixed(1),
      String(features),
    ]);
    console.log(`  ${task.name}: ${score.toFixed(1)} (${chosen.join("; ")})`);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log("");
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  console.log("\nSVM / FastText: TweetEval paper, Table 3 (test). target = best of the two − 3 points.");
  console.log("train s: wall-clock training time incl. the dev search; train cpu s: CPU time of this process.");
}

main();
