import fs from "node:fs";
import path from "node:path";
import { UserError } from "@/lib/errors";

/**
 * A TweetEval task split (`<split>_text.txt`, `<split>_labels.txt` and the task's `mapping.txt`: "index<TAB>name" per
 * line) read as one file of tweets: line n of the texts with label n, ids `tweeteval:<task>:<split>:<n>` (the
 * dataset has no tweet ids). Written as a HumAID TSV for the ordinary import.
 */
export type TweetEvalFiles = { texts: string; labels: string; mapping: string };

export function tweetEvalSiblings(textPath: string): { task: string; split: string; labels: string; mapping: string } {
  const base = path.basename(textPath);
  const m = /^(.+)_text\.txt$/.exec(base);
  if (!m) throw new UserError(`${base} is not a TweetEval text file (expected <split>_text.txt)`, "tweeteval");
  const dir = path.dirname(textPath);
  return { task: path.basename(path.resolve(dir)), split: m[1], labels: path.join(dir, `${m[1]}_labels.txt`), mapping: path.join(dir, "mapping.txt") };
}

/** The import's display name of a split: "sentiment/train_text.txt+train_labels.txt". */
export function tweetEvalFileName({ task, split }: { task: string; split: string }): string {
  return `${task}/${split}_text.txt+${split}_labels.txt`;
}

/**
 * Which of a set of chosen files (the upload page's multiple file input) is the split's text, labels and mapping:
 * exactly `<split>_text.txt`, `<split>_labels.txt` and `mapping.txt`, of one split.
 */
export function tweetEvalSet(names: readonly string[]): { split: string; text: number; labels: number; mapping: number } {
  const base = names.map((n) => path.basename(n));
  const text = base.flatMap((n, i) => (/^(.+)_text\.txt$/.test(n) ? [i] : []));
  const mapping = base.indexOf("mapping.txt");
  const wanted = "three files of one TweetEval split: <split>_text.txt, <split>_labels.txt and mapping.txt";
  if (base.length !== 3 || text.length !== 1 || mapping < 0) throw new UserError(`Choose one file, or the ${wanted} (chosen: ${base.join(", ")}).`, "tweeteval");
  const split = base[text[0]].slice(0, -"_text.txt".length);
  const labels = base.indexOf(`${split}_labels.txt`);
  if (labels < 0) throw new UserError(`${split}_labels.txt is missing: a TweetEval split is ${wanted} (chosen: ${base.join(", ")}).`, "tweeteval");
  return { split, text: text[0], labels, mapping };
}

const lines = (text: string) => text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");

export function tweetEvalTsv({ texts, labels, mapping }: TweetEvalFiles, { task, split }: { task: string; split: string }): string {
  const names = new Map<string, string>();
  for (const [i, line] of lines(mapping).entries()) {
    if (!line.trim()) continue;
    const [index, name] = line.split("\t");
    if (!index || !name) throw new UserError(`mapping.txt line ${i + 1} should be "index<TAB>name", got ${JSON.stringify(line.slice(0, 60))}`, "tweeteval");
    names.set(index.trim(), name.trim());
  }
  const t = lines(texts);
  const l = lines(labels);
  if (t.length !== l.length) throw new UserError(`${split}_text.txt has ${t.length} lines but ${split}_labels.txt has ${l.length}: they must pair line by line`, "tweeteval");
  const id = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, "_");
  const out = ["tweet_id\ttweet_text\tclass_label"];
  for (let n = 0; n < t.length; n++) {
    const label = names.get(l[n].trim());
    if (label === undefined) throw new UserError(`${split}_labels.txt line ${n + 1}: label ${JSON.stringify(l[n].slice(0, 20))} is not in mapping.txt`, "tweeteval");
    out.push(`tweeteval:${id(task)}:${id(split)}:${n + 1}\t${t[n].replace(/\t/g, " ")}\t${label}`);
  }
  return out.join("\n") + "\n";
}

/** Reads the three files next to `textPath` and writes the TSV into `outDir`; returns its path and a display name. */
export function writeTweetEvalTsv(textPath: string, outDir: string): { filePath: string; fileName: string } {
  const s = tweetEvalSiblings(textPath);
  const read = (p: string) => {
    try {
      return fs.readFileSync(p, "utf8");
    } catch {
      throw new UserError(`cannot read ${p} (a TweetEval split needs <split>_text.txt, <split>_labels.txt and mapping.txt side by side)`, "tweeteval");
    }
  };
  const tsv = tweetEvalTsv({ texts: read(textPath), labels: read(s.labels), mapping: read(s.mapping) }, s);
  const filePath = path.join(outDir, `tweeteval-${s.task}-${s.split}.tsv`);
  fs.writeFileSync(filePath, tsv, { mode: 0o600 });
  return { filePath, fileName: tweetEvalFileName(s) };
}
