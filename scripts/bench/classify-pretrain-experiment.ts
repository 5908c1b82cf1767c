/**
 * Experiment (not a product change): do word vectors pretrained on the locally available, unlabeled
 * tweet text help the fastText-style model of classify-alternatives.ts (fasttext-style.ts), in
 * particular on HatEval?
 *
 *   npx tsx scripts/bench/classify-pretrain-experiment.ts [--dims 50,100] [--pre-epochs 5,3] [--emoji] [--seeds 1,2,3]
 *                                                         [--exclude-val] [--pre-seed 1] [--pretrain-only]
 *
 * --exclude-val leaves the TweetEval val texts out of the pretraining corpus (val scores are then not
 * transductive); --pre-seed changes the pretraining seed (its variance).
 *
 * 1. Pretraining corpus: every TweetEval train and val text (all tasks, sentiment val only: its
 *    train text is not distributed here) + CrisisLexT26 + CrisisLexT6 tweets. No TweetEval test file
 *    is used; tweets whose token sequence equals a TweetEval test tweet's are removed from the corpus
 *    as well (decontamination), and exact token-sequence duplicates (retweets) are dropped.
 *    Tokens: wordTokens(text, { stopWords: false, asciiOnly: false }), the supervised model's tokens.
 * 2. Skip-gram with negative sampling (word2vec / fastText `skipgram` without subwords): window 5
 *    (random shrink), 5 negatives drawn from unigram^0.75, frequent-word subsampling t = 1e-4,
 *    min count 3, lr 0.05 decaying linearly; 5 epochs at dim 50, 3 at dim 100 (each < 3 min CPU here).
 * 3. The fastText-style supervised model (fasttext-style.ts, shared with classify-alternatives.ts)
 *    with its word lookup table initialised from the vectors (as fastText -pretrainedVectors does:
 *    pretrained words join the dictionary, so words unseen in train but pretrained still count at
 *    prediction time).
 * 4. Grid over dim {50,100} x supervised epochs {5,10} x word bigrams {on,off} x frozen vectors {no,yes}
 *    (lr 0.2 as in classify-alternatives.ts), scored on VAL only; the global configuration is the best
 *    mean val score over emotion, hate, irony, offensive, stance; the per-task one the best val score of
 *    that task. Test is scored only for the baseline and the val-chosen configurations (the full hate
 *    test grid is printed afterwards as a labelled diagnostic, never used for a choice).
 * 5. Combination: w * SVM probabilities (lib/classify, C and class weighting searched on val, softmax
 *    temperature fitted on val) + (1 - w) * pretrained fastText probabilities; w in {0, .25, .5, .75, 1}
 *    chosen by mean val score.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { wordTokens } from "@/lib/classify/preprocess";
import { trainClassifier } from "@/lib/classify/train";
import { evaluate } from "@/lib/metrics/classification";
import { createRng, randomInt } from "@/lib/util/random";
import { cpuSeconds, readTweetEvalSplit as split, tweetEvalDir, TWEETEVAL_TASKS, type TweetEvalTask } from "./classify-tweeteval-data";
import { type Data, type Emb, trainFastText } from "./fasttext-style";
import { requireSharedData } from "./shared-datasets";

type FtConfig = { dim: number; epochs: number; lr: number; bigrams: boolean; freeze: boolean; pretrained: boolean; seed: number };
type Probs = { labels: string[]; probs: number[][] };


// ---------------------------------------------------------------------------------------------
// tokens (cached: the grid tokenises the same texts many times)

const tokenCache = new Map<string, string[]>();
function tok(text: string): string[] {
  let t = tokenCache.get(text);
  if (!t) tokenCache.set(text, (t = wordTokens(text, { stopWords: false, asciiOnly: false })));
  return t;
}

// ---------------------------------------------------------------------------------------------
// corpus

function readLines(file: string): string[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "");
}

function readCsvColumn(file: string, column: string): string[] {
  const rows = parse(fs.readFileSync(file), {
    columns: (h: string[]) => h.map((s) => s.trim().toLowerCase()),
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    bom: true,
  }) as Record<string, string>[];
  return rows.map((r) => r[column]).filter((t): t is string => typeof t === "string" && t.trim() !== "");
}

function tweetEvalDirs(): string[] {
  const root = tweetEvalDir();
  const dirs: string[] = [];
  for (const d of fs.readdirSync(root).sort()) {
    const full = path.join(root, d);
    if (!fs.statSync(full).isDirectory()) continue;
    if (d === "stance") for (const t of fs.readdirSync(full).sort()) dirs.push(`stance/${t}`);
    else dirs.push(d);
  }
  return dirs;
}

function buildCorpus(excludeVal: boolean) {
  const sources: Record<string, number> = {};
  const raw: string[] = [];
  const add = (name: string, texts: string[]) => {
    sources[name] = (sources[name] ?? 0) + texts.length;
    raw.push(...texts);
  };
  const testKeys = new Set<string>();
  const root = tweetEvalDir();
  for (const dir of tweetEvalDirs()) {
    for (const s of excludeVal ? ["train"] : ["train", "val"]) {
      const f = path.join(root, dir, `${s}_text.txt`);
      if (fs.existsSync(f)) add(`tweeteval ${s}`, readLines(f));
    }
    // Test texts are read only to REMOVE any identical tweet from the corpus.
    const tf = path.join(root, dir, "test_text.txt");
    if (fs.existsSync(tf)) for (const t of readLines(tf)) testKeys.add(tok(t).join(" "));
  }
  const t26 = requireSharedData("CrisisLexT26");
  for (const ev of fs.readdirSync(t26).sort()) {
    const f = path.join(t26, ev, `${ev}-tweets_labeled.csv`);
    if (fs.existsSync(f)) add("CrisisLexT26", readCsvColumn(f, "tweet text"));
  }
  const t6 = requireSharedData("CrisisLexT6");
  for (const ev of fs.readdirSync(t6).sort()) {
    const f = path.join(t6, ev, `${ev}-ontopic_offtopic.csv`);
    if (fs.existsSync(f)) add("CrisisLexT6", readCsvColumn(f, "tweet"));
  }
  const seen = new Set<string>();
  const sentences: string[][] = [];
  let duplicates = 0;
  let inTest = 0;
  let empty = 0;
  for (const text of raw) {
    const tokens = wordTokens(text, { stopWords: false, asciiOnly: false }); // not cached: corpus only
    if (tokens.length === 0) {
      empty++;
      continue;
    }
    const key = tokens.join(" ");
    if (testKeys.has(key)) {
      inTest++;
      continue;
    }
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    sentences.push(tokens);
  }
  const tokens = sentences.reduce((a, s) => a + s.length, 0);
  return { sentences, sources, raw: raw.length, duplicates, inTest, empty, tokens };
}

// ---------------------------------------------------------------------------------------------
// skip-gram with negative sampling

function pretrainSkipgram(
  sentences: string[][],
  { dim = 100, epochs = 5, window = 5, neg = 5, minCount = 3, lr = 0.05, t = 1e-4, seed = 1 } = {},
): Emb & { stats: string } {
  const counts = new Map<string, number>();
  for (const s of sentences) for (const w of s) counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts.entries()]
    .filter(([, c]) => c >= minCount)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([w]) => w);
  const index = new Map(words.map((w, i) => [w, i]));
  const V = words.length;
  const freq = new Float64Array(V);
  let total = 0;
  for (let i = 0; i < V; i++) total += freq[i] = counts.get(words[i]) as number;
  // corpus as ids
  const ids: number[] = [];
  const starts: number[] = [0];
  for (const s of sentences) {
    for (const w of s) {
      const id = index.get(w);
      if (id !== undefined) ids.push(id);
    }
    starts.push(ids.length);
  }
  const corpus = Int32Array.from(ids);
  const keep = new Float64Array(V);
  for (let i = 0; i < V; i++) {
    const f = freq[i] / total;
    keep[i] = Math.min(1, Math.sqrt(t / f) + t / f); // fastText's subsampling
  }
  const TABLE = 10_000_000;
  const table = new Int32Array(TABLE);
  {
    let z = 0;
    for (let i = 0; i < V; i++) z += Math.pow(freq[i], 0.75);
    let i = 0;
    let cum = Math.pow(freq[0], 0.75) / z;
    for (let a = 0; a < TABLE; a++) {
      table[a] = i;
      if (a / TABLE > cum && i < V - 1) cum += Math.pow(freq[++i], 0.75) / z;
    }
  }
  const rng = createRng(seed);
  const input = new Float32Array(V * dim);
  for (let i = 0; i < input.length; i++) input[i] = (rng() * 2 - 1) / dim;
  const output = new Float32Array(V * dim);
  const grad = new Float32Array(dim);
  const buf = new Int32Array(4096);
  const totalSteps = epochs * corpus.length;
  let processed = 0;
  let pairs = 0;
  let loss = 0;
  let lossN = 0;
  for (let e = 0; e < epochs; e++) {
    for (let s = 0; s + 1 < starts.length; s++) {
      const a = starts[s];
      const b = starts[s + 1];
      const rate = lr * Math.max(1e-4, 1 - processed / totalSteps);
      processed += b - a;
      let n = 0;
      for (let k = a; k < b && n < buf.length; k++) if (rng() < keep[corpus[k]]) buf[n++] = corpus[k];
      for (let i = 0; i < n; i++) {
        const w = buf[i];
        const wb = w * dim;
        const span = 1 + randomInt(rng, window);
        for (let c = Math.max(0, i - span); c <= Math.min(n - 1, i + span); c++) {
          if (c === i) continue;
          pairs++;
          grad.fill(0);
          for (let d = 0; d <= neg; d++) {
            let target: number;
            if (d === 0) target = buf[c];
            else {
              target = table[(rng() * TABLE) | 0];
              if (target === buf[c]) continue;
            }
            const sig = sgUpdate(input, output, grad, wb, target * dim, dim, d === 0 ? 1 : 0, rate);
            if ((pairs & 1023) === 0) {
              loss -= Math.log(Math.max(1e-7, d === 0 ? sig : 1 - sig));
              lossN++;
            }
          }
          for (let k = 0; k < dim; k++) input[wb + k] += grad[k];
        }
      }
    }
  }
  return {
    words,
    dim,
    vectors: input,
    stats: `vocab ${V} (min count ${minCount}), ${corpus.length} in-vocab tokens, ${pairs} (center, context) pairs, sampled loss ${(loss / Math.max(1, lossN)).toFixed(3)}`,
  };
}

/** One (input row, output row) logistic step; accumulates the input gradient into grad. */
function sgUpdate(input: Float32Array, output: Float32Array, grad: Float32Array, wb: number, tb: number, dim: number, label: number, rate: number): number {
  let dot = 0;
  for (let k = 0; k < dim; k++) dot += input[wb + k] * output[tb + k];
  const sig = dot > 8 ? 1 : dot < -8 ? 0 : 1 / (1 + Math.exp(-dot));
  const g = rate * (label - sig);
  for (let k = 0; k < dim; k++) {
    grad[k] += g * output[tb + k];
    output[tb + k] += g * input[wb + k];
  }
  return sig;
}

function nearest(emb: Emb, word: string, k = 6): string {
  const i = emb.words.indexOf(word);
  if (i < 0) return `${word}: (not in vocab)`;
  const { dim, vectors: v } = emb;
  const norm = (j: number) => Math.sqrt(v.subarray(j * dim, (j + 1) * dim).reduce((a, x) => a + x * x, 0));
  const ni = norm(i);
  const sims: Array<[number, number]> = [];
  for (let j = 0; j < emb.words.length; j++) {
    if (j === i) continue;
    let dot = 0;
    for (let d = 0; d < dim; d++) dot += v[i * dim + d] * v[j * dim + d];
    sims.push([dot / (ni * norm(j) + 1e-9), j]);
  }
  sims.sort((a, b) => b[0] - a[0]);
  return `${word}: ${sims
    .slice(0, k)
    .map(([s, j]) => `${emb.words[j]} ${s.toFixed(2)}`)
    .join(", ")}`;
}

// ---------------------------------------------------------------------------------------------
// evaluation helpers

type TaskRun = { val: Probs[]; test: Probs[]; cpu: number };

function argmaxLabels(pr: Probs): string[] {
  return pr.probs.map((row) => {
    let best = 0;
    for (let c = 1; c < row.length; c++) if (row[c] > row[best]) best = c;
    return pr.labels[best];
  });
}

const goldCache = new Map<string, Data>();
function data(dir: string, s: string): Data {
  const key = `${dir}/${s}`;
  let d = goldCache.get(key);
  if (!d) goldCache.set(key, (d = split(dir, s)));
  return d;
}

function score(task: TweetEvalTask, s: "val" | "test", per: Probs[]): number {
  const gold: string[] = [];
  const pred: string[] = [];
  task.dirs.forEach((dir, i) => {
    gold.push(...data(dir, s).labels);
    pred.push(...argmaxLabels(per[i]));
  });
  return 100 * evaluate({ gold, pred, metric: task.metric }).score;
}

/** Mixture of two probability sets over the same label names. */
function mix(a: Probs, b: Probs, w: number): Probs {
  const labels = a.labels;
  const map = labels.map((l) => b.labels.indexOf(l));
  if (map.some((j) => j < 0)) throw new Error("label mismatch");
  return { labels, probs: a.probs.map((row, i) => row.map((x, c) => w * x + (1 - w) * b.probs[i][map[c]])) };
}

function runFastText(task: TweetEvalTask, cfg: FtConfig, emb: Emb | undefined, withTest: boolean): TaskRun {
  const run: TaskRun = { val: [], test: [], cpu: 0 };
  for (const dir of task.dirs) {
    const c0 = cpuSeconds();
    const m = trainFastText(data(dir, "train"), { ...cfg, tokenize: tok }, cfg.pretrained ? emb : undefined);
    run.cpu += cpuSeconds() - c0;
    run.val.push({ labels: m.labels, probs: m.predictProba(data(dir, "val").texts) });
    if (withTest) run.test.push({ labels: m.labels, probs: m.predictProba(data(dir, "test").texts) });
  }
  return run;
}

const cfgName = (c: FtConfig) =>
  c.pretrained ? `pre d${c.dim} e${c.epochs} ${c.bigrams ? "bi" : "uni"}${c.freeze ? " frozen" : ""}` : `nopre d${c.dim} e${c.epochs} ${c.bigrams ? "bi" : "uni"}`;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// ---------------------------------------------------------------------------------------------

function main() {
  const { values } = parseArgs({
    options: {
      dims: { type: "string", default: "50,100" },
      // pretraining epochs per dim (same order as --dims): keeps each pretraining under ~3 min CPU here
      "pre-epochs": { type: "string", default: "5,3" },
      emoji: { type: "boolean", default: false },
      seeds: { type: "string", default: "1,2,3" },
      "pretrain-only": { type: "boolean", default: false },
      "exclude-val": { type: "boolean", default: false },
      "pre-seed": { type: "string", default: "1" },
    },
  });
  const dims = (values.dims as string).split(",").map(Number);
  const preEpochsList = (values["pre-epochs"] as string).split(",").map(Number);
  const seeds = (values.seeds as string).split(",").map(Number);
  const tasks = TWEETEVAL_TASKS.filter((t) => t.name !== "emoji");
  const emojiTask = TWEETEVAL_TASKS.find((t) => t.name === "emoji") as TweetEvalTask;

  // 1. corpus
  let c0 = cpuSeconds();
  const corpus = buildCorpus(values["exclude-val"] as boolean);
  console.log(
    `corpus: ${corpus.raw} raw tweets (${Object.entries(corpus.sources)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}); dropped ${corpus.duplicates} duplicates, ${corpus.inTest} identical to a TweetEval test tweet, ${corpus.empty} empty; ` +
      `kept ${corpus.sentences.length} tweets, ${corpus.tokens} tokens (${(cpuSeconds() - c0).toFixed(1)} s CPU)`,
  );

  // 2. pretraining
  const embs = new Map<number, Emb>();
  for (const [di, dim] of dims.entries()) {
    const preEpochs = preEpochsList[Math.min(di, preEpochsList.length - 1)];
    c0 = cpuSeconds();
    const t0 = performance.now();
    const emb = pretrainSkipgram(corpus.sentences, { dim, epochs: preEpochs, seed: Number(values["pre-seed"]) });
    console.log(
      `skip-gram dim ${dim}, ${preEpochs} epochs: ${(cpuSeconds() - c0).toFixed(1)} s CPU, ${((performance.now() - t0) / 1000).toFixed(1)} s wall; ${emb.stats}`,
    );
    for (const w of ["bitch", "immigrants", "women", "hate", "buildthatwall", "flood", "happy"]) console.log(`  ${nearest(emb, w)}`);
    embs.set(dim, emb);
  }
  if (values["pretrain-only"]) return;

  // 3. grid on val (test predictions kept aside, not looked at until the choice is made)
  const baseline: FtConfig = { dim: 50, epochs: 10, lr: 0.2, bigrams: true, freeze: false, pretrained: false, seed: 1 };
  const grid: FtConfig[] = [baseline];
  for (const dim of dims)
    for (const epochs of [5, 10])
      for (const bigrams of [true, false])
        for (const freeze of [false, true]) grid.push({ dim, epochs, lr: 0.2, bigrams, freeze, pretrained: true, seed: 1 });
  const results: Array<{ cfg: FtConfig; runs: Map<string, TaskRun>; val: Record<string, number> }> = [];
  console.log(`\nVAL grid (seed 1): ${tasks.map((t) => t.name).join(" / ")} / mean · CPU s`);
  for (const cfg of grid) {
    const runs = new Map<string, TaskRun>();
    const val: Record<string, number> = {};
    let cpu = 0;
    for (const task of tasks) {
      const run = runFastText(task, cfg, embs.get(cfg.dim), true);
      runs.set(task.name, run);
      val[task.name] = score(task, "val", run.val);
      cpu += run.cpu;
    }
    results.push({ cfg, runs, val });
    console.log(
      `  ${cfgName(cfg).padEnd(24)} ${tasks.map((t) => val[t.name].toFixed(1).padStart(5)).join(" ")}  mean ${mean(tasks.map((t) => val[t.name])).toFixed(1)} · ${cpu.toFixed(0)} s`,
    );
  }
  const pre = results.filter((r) => r.cfg.pretrained);
  const meanVal = (r: (typeof results)[number]) => mean(tasks.map((t) => r.val[t.name]));
  const globalBest = pre.reduce((a, b) => (meanVal(b) > meanVal(a) ? b : a));
  const perTask: Record<string, (typeof results)[number]> = {};
  for (const t of tasks) perTask[t.name] = pre.reduce((a, b) => (b.val[t.name] > a.val[t.name] ? b : a));
  console.log(`\nchosen on val: global (best mean) = ${cfgName(globalBest.cfg)}; per task: ${tasks.map((t) => `${t.name} ${cfgName(perTask[t.name].cfg)}`).join("; ")}`);

  // 4. SVM (lib/classify, dev search on val) and the combination weight, chosen on val
  console.log(`\nSVM (C, class weighting searched on val; temperature fitted on val):`);
  const svm = new Map<string, TaskRun>();
  for (const task of tasks) {
    const run: TaskRun = { val: [], test: [], cpu: 0 };
    for (const dir of task.dirs) {
      const cc = cpuSeconds();
      const m = trainClassifier({ ...data(dir, "train"), options: { metric: task.metric }, dev: data(dir, "val") });
      run.cpu += cpuSeconds() - cc;
      run.val.push({ labels: m.labels, probs: m.predictProba(data(dir, "val").texts) });
      run.test.push({ labels: m.labels, probs: m.predictProba(data(dir, "test").texts) });
    }
    svm.set(task.name, run);
    console.log(`  ${task.name}: val ${score(task, "val", run.val).toFixed(1)} (${run.cpu.toFixed(1)} s CPU)`);
  }
  const weights = [0, 0.25, 0.5, 0.75, 1];
  const mixVal = (w: number, ft: (typeof results)[number]) =>
    Object.fromEntries(
      tasks.map((t) => [t.name, score(t, "val", (svm.get(t.name) as TaskRun).val.map((p, i) => mix(p, (ft.runs.get(t.name) as TaskRun).val[i], w)))]),
    ) as Record<string, number>;
  console.log(`combination w*SVM + (1-w)*fastText(${cfgName(globalBest.cfg)}), VAL:`);
  let bestW = 0;
  let bestWScore = -Infinity;
  for (const w of weights) {
    const v = mixVal(w, globalBest);
    const m = mean(tasks.map((t) => v[t.name]));
    console.log(`  w ${w.toFixed(2)}: ${tasks.map((t) => `${t.name} ${v[t.name].toFixed(1)}`).join(", ")}; mean ${m.toFixed(1)}`);
    if (m > bestWScore) [bestW, bestWScore] = [w, m];
  }
  console.log(`  chosen w (best mean val) = ${bestW}`);
  const perTaskW: Record<string, number> = {};
  for (const t of tasks) {
    let bw = 0;
    let bs = -Infinity;
    for (const w of weights) {
      const v = mixVal(w, globalBest)[t.name];
      if (v > bs + 1e-9) [bw, bs] = [w, v]; // ties: the smaller SVM weight
    }
    perTaskW[t.name] = bw;
  }
  console.log(`  per-task w chosen on val: ${tasks.map((t) => `${t.name} ${perTaskW[t.name]}`).join(", ")}`);

  // 5. the table: val and test for the chosen configurations only
  const base = results[0];
  const rowsOut: string[][] = [];
  for (const task of tasks) {
    const s = svm.get(task.name) as TaskRun;
    const g = globalBest.runs.get(task.name) as TaskRun;
    const pt = perTask[task.name];
    const comb = (which: "val" | "test") => score(task, which, s[which].map((p, i) => mix(p, g[which][i], bestW)));
    rowsOut.push([
      task.name,
      `${score(task, "val", base.runs.get(task.name)!.val).toFixed(1)} / ${score(task, "test", base.runs.get(task.name)!.test).toFixed(1)}`,
      `${score(task, "val", g.val).toFixed(1)} / ${score(task, "test", g.test).toFixed(1)}`,
      `${score(task, "val", pt.runs.get(task.name)!.val).toFixed(1)} / ${score(task, "test", pt.runs.get(task.name)!.test).toFixed(1)}`,
      `${score(task, "val", s.val).toFixed(1)} / ${score(task, "test", s.test).toFixed(1)}`,
      `${comb("val").toFixed(1)} / ${comb("test").toFixed(1)}`,
      `${score(task, "val", s.val.map((p, i) => mix(p, g.val[i], perTaskW[task.name]))).toFixed(1)} / ${score(task, "test", s.test.map((p, i) => mix(p, g.test[i], perTaskW[task.name]))).toFixed(1)}`,
    ]);
  }
  const header = ["task", "ft no-pre", `ft pre global`, "ft pre per-task", "SVM (dev search)", `SVM+ft w=${bestW}`, "SVM+ft w per task"];
  console.log(`\nval / test (seed 1). global = ${cfgName(globalBest.cfg)}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rowsOut.map((r) => r[i].length)));
  console.log(header.map((h, i) => h.padStart(widths[i])).join("  "));
  for (const r of rowsOut) console.log(r.map((c, i) => c.padStart(widths[i])).join("  "));

  // 6. seed spread of the chosen global config and baseline
  console.log(`\nseed spread (seeds ${seeds.join(",")}), val / test:`);
  const spread: Array<[FtConfig, TweetEvalTask[]]> = [
    [baseline, tasks],
    [globalBest.cfg, tasks],
  ];
  if (perTask.hate.cfg !== globalBest.cfg) spread.push([perTask.hate.cfg, tasks.filter((t) => t.name === "hate")]);
  for (const [cfg0, ts] of spread) {
    const line: string[] = [];
    for (const task of ts) {
      const v: number[] = [];
      const te: number[] = [];
      for (const seed of seeds) {
        const r = runFastText(task, { ...cfg0, seed }, embs.get(cfg0.dim), true);
        v.push(score(task, "val", r.val));
        te.push(score(task, "test", r.test));
      }
      line.push(`${task.name} ${mean(v).toFixed(1)} / ${mean(te).toFixed(1)} (test ${Math.min(...te).toFixed(1)}–${Math.max(...te).toFixed(1)})`);
    }
    console.log(`  ${cfgName(cfg0)}: ${line.join("; ")}`);
  }

  // 7. emoji (optional, slow)
  if (values.emoji) {
    for (const cfg of [baseline, globalBest.cfg]) {
      const r = runFastText(emojiTask, cfg, embs.get(cfg.dim), true);
      console.log(`emoji ${cfgName(cfg)}: val ${score(emojiTask, "val", r.val).toFixed(1)} / test ${score(emojiTask, "test", r.test).toFixed(1)} (${r.cpu.toFixed(0)} s CPU)`);
    }
  }

  // 8. diagnostic only (after all choices): hate test for every grid configuration
  console.log(`\nDIAGNOSTIC ONLY, not used for any choice — hate val / test for every grid configuration:`);
  const hate = tasks.find((t) => t.name === "hate") as TweetEvalTask;
  const hs = svm.get("hate") as TaskRun;
  const hg = globalBest.runs.get("hate") as TaskRun;
  console.log(
    `  combination SVM+ft(global) on hate, val / test by w: ${weights
      .map((w) => `w ${w}: ${score(hate, "val", hs.val.map((p, i) => mix(p, hg.val[i], w))).toFixed(2)} / ${score(hate, "test", hs.test.map((p, i) => mix(p, hg.test[i], w))).toFixed(1)}`)
      .join("; ")}`,
  );
  for (const r of results) {
    const h = r.runs.get("hate") as TaskRun;
    const predHate = argmaxLabels(h.test[0]).filter((l) => l === "hate").length;
    console.log(`  ${cfgName(r.cfg).padEnd(24)} ${r.val.hate.toFixed(1)} / ${score(hate, "test", h.test).toFixed(1)}  (predicted hateful on test: ${predHate})`);
  }
}

main();
