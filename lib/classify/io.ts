import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { UserError } from "@/lib/errors";

/**
 * Reads labelled (or unlabelled) tweets for the classifier tools:
 *   - CSV or TSV with a header: id (`id` / `tweet_id`), text (`text` / `tweet_text`), label
 *     (`label` / `class_label`, or any column named by `labelColumn`). Header names are matched
 *     case-insensitively with spaces and underscores alike, so CrisisLex's " Tweet ID" works.
 *     HumAID's TSV (`tweet_id  tweet_text  class_label`) is this format.
 *   - TweetEval pairs: `<split>_text.txt` (one tweet per line) with `<split>_labels.txt` beside it
 *     (one integer per line; optional for prediction) and `mapping.txt` (`id<TAB>name`) in the same
 *     folder or its parent, which turns label ids into names. Ids are line numbers from 1.
 * Either file of a TweetEval pair may be given.
 */
export type TweetRow = { id: string; text?: string; label?: string };

export type ReadFormat = "csv" | "tsv" | "tweeteval";

export type ReadOptions = {
  /** Fail unless every row has a text / a label. */
  requireText?: boolean;
  requireLabel?: boolean;
  /** Header of the label column when it is not `label` / `class_label` (e.g. "Information Type"). */
  labelColumn?: string;
  /** Keep TweetEval's numeric label ids instead of the names of mapping.txt. */
  rawTweetEvalLabels?: boolean;
};

export type ReadResult = { format: ReadFormat; rows: TweetRow[]; labelColumn?: string };

const ID_COLUMNS = ["id", "tweet_id"];
const TEXT_COLUMNS = ["text", "tweet_text"];
const LABEL_COLUMNS = ["label", "class_label"];

const normalizeHeader = (h: string) => h.trim().toLowerCase().replace(/[\s_]+/g, "_");

function fail(file: string, message: string): never {
  throw new UserError(`${path.basename(file)}: ${message}`, "invalid_file");
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(code === "ENOENT" ? `file not found: ${file}` : `cannot read ${file}: ${code ?? String(err)}`, "invalid_file");
  }
}

/** Lines of a one-item-per-line file (a final newline does not make an extra item). */
function lines(content: string): string[] {
  const out = content.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

export function isTweetEvalFile(file: string): boolean {
  return /_(text|labels)\.txt$/.test(path.basename(file));
}

/** label id → name from mapping.txt next to the file or one folder up (stance keeps it there). */
function readMapping(dir: string): Map<string, string> | undefined {
  for (const candidate of [path.join(dir, "mapping.txt"), path.join(dir, "..", "mapping.txt")]) {
    if (!fs.existsSync(candidate)) continue;
    const map = new Map<string, string>();
    for (const line of lines(readText(candidate))) {
      const [id, name] = line.split("\t");
      if (id?.trim() && name?.trim()) map.set(id.trim(), name.trim());
    }
    return map;
  }
  return undefined;
}

function readTweetEval(file: string, o: ReadOptions): ReadResult {
  const dir = path.dirname(file);
  const prefix = path.basename(file).replace(/_(text|labels)\.txt$/, "");
  const textFile = path.join(dir, `${prefix}_text.txt`);
  const labelFile = path.join(dir, `${prefix}_labels.txt`);
  const texts = fs.existsSync(textFile) ? lines(readText(textFile)) : undefined;
  const labels = fs.existsSync(labelFile) ? lines(readText(labelFile)).map((l) => l.trim()) : undefined;
  if (!texts && o.requireText) fail(file, `the tweets file ${path.basename(textFile)} is missing`);
  if (!labels && o.requireLabel) fail(file, `the labels file ${path.basename(labelFile)} is missing`);
  if (!texts && !labels) fail(file, "neither the text nor the labels file exists");
  if (texts && labels && texts.length !== labels.length) {
    fail(file, `${texts.length} tweets but ${labels.length} labels`);
  }
  const mapping = o.rawTweetEvalLabels ? undefined : readMapping(dir);
  const n = (texts ?? labels ?? []).length;
  const rows: TweetRow[] = [];
  for (let i = 0; i < n; i++) {
    const row: TweetRow = { id: String(i + 1) };
    if (texts) row.text = texts[i];
    if (labels) {
      const raw = labels[i];
      if (!raw) fail(file, `line ${i + 1}: empty label`);
      row.label = mapping?.get(raw) ?? raw;
    }
    rows.push(row);
  }
  return { format: "tweeteval", rows };
}

function findColumn(header: string[], names: string[]): number {
  return header.findIndex((h) => names.includes(h));
}

function readDelimited(file: string, o: ReadOptions): ReadResult {
  const content = readText(file).replace(/^\uFEFF/, "");
  const firstLine = content.slice(0, content.search(/\r?\n|$/));
  const tsv = /\.tsv$/i.test(file) || (!/\.csv$/i.test(file) && firstLine.split("\t").length > firstLine.split(",").length);
  let records: string[][];
  try {
    records = parse(content, {
      delimiter: tsv ? "\t" : ",",
      // Plain TSV (HumAID's) has no quoting, and tweets may start with a quote mark: quotes are
      // only special in a TSV whose header is quoted.
      quote: tsv && !firstLine.startsWith('"') ? false : '"',
      relax_quotes: true,
      relax_column_count: true, // checked below, with a clearer message
      skip_empty_lines: true,
    }) as string[][];
  } catch (err) {
    fail(file, `not valid ${tsv ? "TSV" : "CSV"}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (records.length === 0) fail(file, "the file is empty");
  const header = records[0].map(normalizeHeader);
  const idCol = findColumn(header, ID_COLUMNS);
  const textCol = findColumn(header, TEXT_COLUMNS);
  const labelNames = o.labelColumn ? [normalizeHeader(o.labelColumn)] : LABEL_COLUMNS;
  const labelCol = findColumn(header, labelNames);
  const columns = records[0].map((h) => h.trim()).join(", ");
  if (idCol < 0) fail(file, `no id column (id or tweet_id) in the header: ${columns}`);
  if (o.requireText && textCol < 0) fail(file, `no text column (text or tweet_text) in the header: ${columns}`);
  if ((o.requireLabel || o.labelColumn) && labelCol < 0) {
    fail(file, `no label column (${labelNames.join(" or ")}) in the header: ${columns}`);
  }
  const rows: TweetRow[] = [];
  for (let r = 1; r < records.length; r++) {
    const rec = records[r];
    const line = r + 1;
    if (rec.length !== header.length) fail(file, `row ${line}: ${rec.length} fields, the header has ${header.length}`);
    const id = rec[idCol].trim().replace(/^'(.*)'$/, "$1");
    if (!id) fail(file, `row ${line}: empty id`);
    const row: TweetRow = { id };
    if (textCol >= 0) row.text = rec[textCol];
    if (labelCol >= 0) {
      const label = rec[labelCol].trim();
      if (!label && o.requireLabel) fail(file, `row ${line}: empty label`);
      if (label) row.label = label;
    }
    rows.push(row);
  }
  return { format: tsv ? "tsv" : "csv", rows, labelColumn: labelCol >= 0 ? records[0][labelCol].trim() : undefined };
}

/** Reads a file of tweets in any supported format. */
export function readTweetFile(file: string, options: ReadOptions = {}): ReadResult {
  const result = isTweetEvalFile(file) ? readTweetEval(file, options) : readDelimited(file, options);
  if (result.rows.length === 0) fail(file, "no rows");
  return result;
}

/** Rows that are sure to have a text and a label (after readTweetFile with both required). */
export function labelledRows(rows: TweetRow[]): Array<{ id: string; text: string; label: string }> {
  return rows.map((r) => ({ id: r.id, text: r.text ?? "", label: r.label ?? "" }));
}
