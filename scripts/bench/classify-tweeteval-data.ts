/** TweetEval tasks, their official metrics and the paper's baselines, shared by the classify benchmarks. */
import path from "node:path";
import { readTweetFile } from "@/lib/classify/io";
import type { MetricName } from "@/lib/metrics/classification";
import { requireSharedData } from "./shared-datasets";

/** ../shared/data/tweeteval; exits with how to get TweetEval when it is missing. */
export const tweetEvalDir = () => requireSharedData("TweetEval");

export type TweetEvalTask = { name: string; metric: MetricName; metricLabel: string; svm: number; fasttext: number; dirs: string[] };

// Metrics of TweetEval's evaluation script; SVM and FastText: the paper's Table 3, Test rows.
export const TWEETEVAL_TASKS: TweetEvalTask[] = [
  { name: "emoji", metric: "macro-f1", metricLabel: "M-F1", svm: 29.3, fasttext: 25.8, dirs: ["emoji"] },
  { name: "emotion", metric: "macro-f1", metricLabel: "M-F1", svm: 64.7, fasttext: 65.2, dirs: ["emotion"] },
  { name: "hate", metric: "macro-f1", metricLabel: "M-F1", svm: 36.7, fasttext: 50.6, dirs: ["hate"] },
  { name: "irony", metric: "f1:irony", metricLabel: "F1(irony)", svm: 61.7, fasttext: 63.1, dirs: ["irony"] },
  { name: "offensive", metric: "macro-f1", metricLabel: "M-F1", svm: 52.3, fasttext: 73.4, dirs: ["offensive"] },
  {
    name: "stance",
    metric: "stance",
    metricLabel: "avg F1(a,f)",
    svm: 67.3,
    fasttext: 65.4,
    // One model per target; the official script pools the five targets' predictions.
    dirs: ["abortion", "atheism", "climate", "feminist", "hillary"].map((t) => `stance/${t}`),
  },
];

/** Texts and label names of one split (train, val or test) of a task folder. */
export function readTweetEvalSplit(dir: string, split: string): { texts: string[]; labels: string[] } {
  const rows = readTweetFile(path.join(tweetEvalDir(), dir, `${split}_text.txt`), { requireText: true, requireLabel: true }).rows;
  return { texts: rows.map((r) => r.text as string), labels: rows.map((r) => r.label as string) };
}

export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
