import { parse as parseCsvSync } from "csv-parse/sync";
import { UserError } from "@/lib/errors";
import { isCrisisLexHeader, isHumaidHeader, mapColumns } from "./columns";

/** Values of ImportBatch.format. */
export const IMPORT_FORMATS = ["humaid-tsv", "csv", "tsv", "crisislex-csv", "jsonl-v1", "json-v1", "jsonl-v2", "json-v2"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export type DelimitedFormat = {
  kind: "delimited";
  format: "humaid-tsv" | "csv" | "tsv" | "crisislex-csv";
  delimiter: "," | "\t" | ";";
  /** Whether `"` quotes fields. TSV is read unquoted (HumAID tweets contain stray quotes) unless its header is quoted. */
  quote: boolean;
  /** No header row: columns are id, text[, label] by position. */
  headerless: boolean;
  header: string[];
};

/** csv-parse's options for a delimited upload (the format's delimiter and quoting, lenient on quotes and columns). */
export function delimitedCsvOptions(format: Pick<DelimitedFormat, "delimiter" | "quote">) {
  return { delimiter: format.delimiter, quote: format.quote ? '"' : false, relax_quotes: true, relax_column_count: true } as const;
}


export type JsonFormat = {
  kind: "json";
  format: "jsonl-v1" | "json-v1" | "jsonl-v2" | "json-v2";
  /** "lines": one JSON value per line (JSONL); "document": an array or a (pretty-printed) object. */
  layout: "lines" | "document";
};

export type DetectedFormat = (DelimitedFormat | JsonFormat) & {
  /** Set when the file name's extension says something else than the content (the content wins). */
  note?: string;
};

const DELIMITERS = [",", "\t", ";"] as const;

function extensionOf(fileName: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(fileName.trim());
  return m ? m[1].toLowerCase() : "";
}

/** Counts a delimiter in one line, outside double quotes. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === delimiter) n++;
  }
  return n;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Twitter API v2 (tweets with author_id/edit history, or response pages with data + includes) or v1.1. */
export function twitterJsonVersion(value: unknown): "v1" | "v2" {
  const v = Array.isArray(value) ? value[0] : value;
  if (!isRecord(v)) return "v1";
  if ("data" in v && (Array.isArray(v.data) || isRecord(v.data))) return "v2";
  if ("id_str" in v || isRecord(v.user) || "full_text" in v || "extended_tweet" in v || "retweeted_status" in v) return "v1";
  if ("author_id" in v || "edit_history_tweet_ids" in v || "public_metrics" in v || "note_tweet" in v || isRecord(v.author)) return "v2";
  return "v1";
}

function versionFromText(text: string): "v1" | "v2" {
  if (/"(id_str|full_text|extended_tweet|retweeted_status)"\s*:/.test(text) || /"user"\s*:\s*\{/.test(text)) return "v1";
  if (/"(author_id|edit_history_tweet_ids|public_metrics|note_tweet)"\s*:/.test(text) || /^\s*\{\s*"data"\s*:/.test(text)) return "v2";
  return "v1";
}

/**
 * Detects the format from the first part of the file (decoded text, BOM removed), using the file name's
 * extension only to break ties.
 */
export function detectFormat({ fileName, head }: { fileName: string; head: string }): DetectedFormat {
  const ext = extensionOf(fileName);
  const trimmed = head.replace(/^\s+/, "");
  if (trimmed.length === 0) throw new UserError("The file is empty.", "empty_file");

  if (trimmed[0] === "[" || trimmed[0] === "{") {
    const firstLine = trimmed.split("\n", 1)[0].trim();
    let firstValue: unknown = undefined;
    let lines = false;
    if (trimmed[0] === "{") {
      try {
        firstValue = JSON.parse(firstLine);
        lines = true;
      } catch {
        lines = false;
      }
    }
    const version = firstValue !== undefined ? twitterJsonVersion(firstValue) : versionFromText(trimmed.slice(0, 65536));
    const format = `${lines ? "jsonl" : "json"}-${version}` as JsonFormat["format"];
    const note = ["csv", "tsv", "txt"].includes(ext) ? `named .${ext} but contains JSON; read as JSON` : undefined;
    return { kind: "json", format, layout: lines ? "lines" : "document", ...(note ? { note } : {}) };
  }

  const headerLine = trimmed.split("\n", 1)[0].replace(/\r$/, "");
  const counts = DELIMITERS.map((d) => countOutsideQuotes(headerLine, d));
  const best = Math.max(...counts);
  let delimiter: DelimitedFormat["delimiter"];
  if (best === 0) {
    throw new UserError(
      "Could not find the columns: the first line has no tab, comma or semicolon. Upload a CSV/TSV with a header (e.g. tweet_id, tweet_text, label), JSONL or JSON.",
      "unknown_format",
    );
  }
  const tied = DELIMITERS.filter((_, i) => counts[i] === best);
  if (tied.length > 1 && ext === "tsv" && tied.includes("\t")) delimiter = "\t";
  else if (tied.length > 1 && ext === "csv" && tied.includes(",")) delimiter = ",";
  else delimiter = tied[0];
  const quote = delimiter !== "\t" || headerLine.startsWith('"');
  const header = (
    parseCsvSync(headerLine, delimitedCsvOptions({ delimiter, quote })) as string[][]
  )[0] ?? [];
  const columns = mapColumns(header);
  const headerless = (columns.id === undefined || columns.text === undefined) && /^'?\d{5,}'?$/.test((header[0] ?? "").trim());
  let format: DelimitedFormat["format"] = delimiter === "\t" ? "tsv" : "csv";
  if (delimiter === "\t" && isHumaidHeader(header)) format = "humaid-tsv";
  else if (delimiter === "," && isCrisisLexHeader(header)) format = "crisislex-csv";
  let note: string | undefined;
  if (ext === "json" || ext === "jsonl" || ext === "ndjson") note = `named .${ext} but contains delimited text; read as ${format.toUpperCase()}`;
  else if (ext === "csv" && delimiter === "\t") note = "named .csv but tab-separated; read as TSV";
  else if (ext === "tsv" && delimiter !== "\t") note = "named .tsv but not tab-separated; read as CSV";
  return {
    kind: "delimited",
    format,
    delimiter,
    quote,
    headerless,
    header: headerless ? [] : header.map((h) => h.trim()),
    ...(note ? { note } : {}),
  };
}
