import fs from "node:fs";
import { stringify } from "csv-stringify/sync";
import { UserError } from "@/lib/errors";
import { readTweetFile, type ReadOptions, type TweetRow } from "@/lib/classify/io";
import { deserializeClassifier, serializeClassifier } from "@/lib/classify/serialize";
import { trainClassifier, type TrainOptions } from "@/lib/classify/train";
import { evaluate, type Evaluation, metricNameSchema } from "@/lib/metrics/classification";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";

const FORMATS = `FILE formats: CSV or TSV with a header naming an id column (id or tweet_id), a text column (text or
tweet_text) and a label column (label or class_label, or --label-column NAME) — HumAID's TSV is one; or a TweetEval
pair <split>_text.txt + <split>_labels.txt (either name may be given; mapping.txt beside it or one folder up turns
label ids into names; ids are line numbers from 1).`;

const USAGE = `usage:
  accord classify train --train FILE [--dev FILE] --out MODEL [options]
  accord classify predict --model MODEL FILE
  accord classify eval --gold FILE --pred FILE [--metric METRIC] [--json]

train     trains the baseline classifier (HumAID §5.1 preprocessing, word 1-3-gram and character 2-5-gram
          tf-idf, linear SVM) and writes the model file. With --dev, C and class weighting are chosen by the dev
          score (--metric) and the probabilities are calibrated on it.
predict   prints CSV tweet_id,label: the predicted label of every tweet of FILE.
eval      scores predictions (CSV tweet_id,label) against gold labels: accuracy, precision / recall / F1 per
          class, macro and weighted averages, the confusion matrix, and the chosen metric.

options:
  --metric M          weighted-f1 (default) | macro-f1 | macro-recall | accuracy | f1:LABEL | stance
                      (stance: TweetEval's mean F1 of favor and against)
  --json              eval: print one JSON object
  --label-column NAME header of the label column when it is not label / class_label
  --loss svm|logistic, --c N, --class-weight none|balanced, --seed N, --no-search
                      train: the linear model (with --dev, C and class weight are searched unless --no-search)
  --keep-non-ascii    train: keep non-ASCII characters and emoji as word tokens (HumAID removes them)
  --keep-stop-words   train: keep stop words

${FORMATS}`;

function withUserErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
}

function read(file: string, options: ReadOptions): TweetRow[] {
  return withUserErrors(() => readTweetFile(file, options).rows);
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`missing ${flag}\n\n${USAGE}`, 2);
  return value;
}

function metricOf(value: string | undefined) {
  const parsed = metricNameSchema.safeParse(value ?? "weighted-f1");
  if (!parsed.success) throw new CliError(`--metric: ${parsed.error.issues[0].message}`, 2);
  return parsed.data;
}

function numberOf(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`${flag} must be a number, got "${value}"`, 2);
  return n;
}

const fmt = (x: number) => x.toFixed(4);

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(USAGE + "\n");
    return sub ? 0 : 2;
  }
  if (sub === "train") return train(rest);
  if (sub === "predict") return predict(rest);
  if (sub === "eval") return evaluateCommand(rest);
  throw new CliError(`unknown subcommand "${sub}"\n\n${USAGE}`, 2);
}

async function train(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(
    argv,
    {
      train: { type: "string" },
      dev: { type: "string" },
      out: { type: "string" },
      metric: { type: "string" },
      "label-column": { type: "string" },
      loss: { type: "string" },
      c: { type: "string" },
      "class-weight": { type: "string" },
      seed: { type: "string" },
      "no-search": { type: "boolean", default: false },
      "keep-non-ascii": { type: "boolean", default: false },
      "keep-stop-words": { type: "boolean", default: false },
    },
    { allowPositionals: false },
  );
  const trainFile = need(values.train, "--train FILE");
  const out = need(values.out, "--out MODEL");
  const readOptions: ReadOptions = { requireText: true, requireLabel: true, labelColumn: values["label-column"] };
  const rows = read(trainFile, readOptions);
  const devRows = values.dev ? read(values.dev, readOptions) : undefined;
  const loss = values.loss;
  if (loss !== undefined && loss !== "svm" && loss !== "logistic") throw new CliError(`--loss must be svm or logistic`, 2);
  const classWeight = values["class-weight"];
  if (classWeight !== undefined && classWeight !== "none" && classWeight !== "balanced") {
    throw new CliError(`--class-weight must be none or balanced`, 2);
  }
  const options: TrainOptions = {
    metric: metricOf(values.metric),
    ...(loss ? { loss } : {}),
    ...(values.c !== undefined ? { c: numberOf(values.c, "--c") } : {}),
    ...(classWeight ? { classWeight } : {}),
    ...(values.seed !== undefined ? { seed: numberOf(values.seed, "--seed") } : {}),
    ...(values["no-search"] ? { search: false } : {}),
    ...(values["keep-non-ascii"] ? { asciiOnly: false } : {}),
    ...(values["keep-stop-words"] ? { stopWords: false } : {}),
  };
  const model = withUserErrors(() =>
    trainClassifier({
      texts: rows.map((r) => r.text ?? ""),
      labels: rows.map((r) => r.label ?? ""),
      options,
      dev: devRows ? { texts: devRows.map((r) => r.text ?? ""), labels: devRows.map((r) => r.label ?? "") } : undefined,
    }),
  );
  const bytes = serializeClassifier(model);
  try {
    fs.writeFileSync(out, bytes);
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const { info } = model;
  const counts = Object.entries(info.labelCounts)
    .map(([l, n]) => `${l} ${n}`)
    .join(", ");
  const lines = [
    `trained on ${info.rows} tweets, ${model.labels.length} labels: ${counts}`,
    `features ${info.features}, loss ${info.options.linear.loss}, C ${info.options.linear.c}, class weight ${info.options.linear.classWeight}`,
  ];
  if (info.dev) lines.push(`dev ${info.dev.rows} tweets: ${info.dev.metric} ${fmt(info.dev.score)}`);
  lines.push(`training time ${(info.trainingMs / 1000).toFixed(1)} s`);
  lines.push(`model written to ${out} (${(bytes.length / 1e6).toFixed(2)} MB)`);
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

async function predict(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    model: { type: "string" },
    "label-column": { type: "string" },
  });
  const modelFile = need(values.model, "--model MODEL");
  if (positionals.length !== 1) throw new CliError(`expected one FILE of tweets\n\n${USAGE}`, 2);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(modelFile);
  } catch (err) {
    throw new CliError(`cannot read ${modelFile}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const model = withUserErrors(() => deserializeClassifier(bytes));
  const rows = read(positionals[0], { requireText: true, labelColumn: values["label-column"] });
  const labels = model.predict(rows.map((r) => r.text ?? ""));
  process.stdout.write(stringify([["tweet_id", "label"], ...rows.map((r, i) => [r.id, labels[i]])]));
  return 0;
}

async function evaluateCommand(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(
    argv,
    {
      gold: { type: "string" },
      pred: { type: "string" },
      metric: { type: "string" },
      json: { type: "boolean", default: false },
      "label-column": { type: "string" },
    },
    { allowPositionals: false },
  );
  const goldFile = need(values.gold, "--gold FILE");
  const predFile = need(values.pred, "--pred FILE");
  const metric = metricOf(values.metric);
  const gold = read(goldFile, { requireLabel: true, labelColumn: values["label-column"] });
  const pred = read(predFile, { requireLabel: true });
  const { goldLabels, predLabels, extra } = join(goldFile, gold, predFile, pred);
  if (extra > 0) process.stderr.write(`note: ${extra} prediction${extra === 1 ? "" : "s"} for ids not in ${goldFile} ignored\n`);
  const result = withUserErrors(() => evaluate({ gold: goldLabels, pred: predLabels, metric }));
  process.stdout.write((values.json ? JSON.stringify(jsonOf(result)) : table(result)) + "\n");
  return 0;
}

function uniqueIds(file: string, rows: TweetRow[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const r of rows) {
    if (map.has(r.id)) throw new CliError(`${file}: id "${r.id}" appears more than once`);
    map.set(r.id, r.label ?? "");
  }
  return map;
}

function join(goldFile: string, gold: TweetRow[], predFile: string, pred: TweetRow[]) {
  const g = uniqueIds(goldFile, gold);
  const p = uniqueIds(predFile, pred);
  const missing = [...g.keys()].filter((id) => !p.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? ", …" : "");
    throw new CliError(`${predFile}: no prediction for ${missing.length} of ${g.size} gold tweets (ids ${shown})`);
  }
  const ids = [...g.keys()];
  return {
    goldLabels: ids.map((id) => g.get(id) as string),
    predLabels: ids.map((id) => p.get(id) as string),
    extra: [...p.keys()].filter((id) => !g.has(id)).length,
  };
}

function jsonOf({ metric, score, report }: Evaluation) {
  return {
    metric,
    score,
    n: report.n,
    accuracy: report.accuracy,
    macro: report.macro,
    weighted: report.weighted,
    perClass: report.perClass,
    confusion: report.confusion,
  };
}

function table({ metric, score, report }: Evaluation): string {
  const width = Math.max(12, ...report.perClass.map((c) => c.label.length)) + 2;
  const row = (name: string, cells: string[]) => name.padEnd(width) + cells.map((c) => c.padStart(10)).join("");
  const lines = [
    `metric   ${metric}`,
    `score    ${fmt(score)}`,
    `tweets   ${report.n}`,
    `accuracy ${fmt(report.accuracy)}`,
    "",
    row("label", ["precision", "recall", "f1", "support"]),
    ...report.perClass.map((c) => row(c.label, [fmt(c.precision), fmt(c.recall), fmt(c.f1), String(c.support)])),
    row("macro avg", [fmt(report.macro.precision), fmt(report.macro.recall), fmt(report.macro.f1), String(report.n)]),
    row("weighted avg", [
      fmt(report.weighted.precision),
      fmt(report.weighted.recall),
      fmt(report.weighted.f1),
      String(report.n),
    ]),
    "",
    "confusion matrix (rows gold, columns predicted):",
    row("", report.confusion.labels.map((l) => l.slice(0, 9))),
    ...report.confusion.labels.map((l, i) => row(l, report.confusion.matrix[i].map(String))),
  ];
  return lines.join("\n");
}
