import { UserError } from "@/lib/errors";
import type { JsonFormat } from "./format";
import { formatBytes, type IngestLimits } from "./limits";
import type { ParseBatch } from "./parse-batch";
import { buildRow, type RowError, truncateRaw } from "./rows";
import type { LineBatch, TextLine } from "./text-lines";
import { parseJsonKeepingIds, tweetsFromJson } from "./twitter-json";

/**
 * JSON Lines (one value per line: a tweet, or an API v2 response page) and JSON documents (an array of
 * tweets, one response page, or several concatenated values, pretty-printed or not). Documents are
 * split into their top-level values by a streaming scanner, so an array of a million tweets never has
 * to be parsed as one string; each value is parsed on its own, and a broken one is a per-row error.
 */
type JsonValueText = { line: number; text: string; encodingError?: string; oversize: boolean };

/** Splits a stream of lines into the top-level values of a JSON document (the elements of a top-level array). */
export class JsonValueSplitter {
  private mode: "start" | "array" | "values" | "done" = "start";
  private depth = 0;
  private inString = false;
  private escape = false;
  private inValue = false;
  private primitive = false;
  private parts: string[] = [];
  private size = 0;
  private startLine = 0;
  private invalid: string | undefined = undefined;
  private oversize = false;
  private trailing = false;

  constructor(private readonly maxValueChars: number) {}

  private base(): number {
    return this.mode === "array" ? 1 : 0;
  }

  private emit(out: JsonValueText[]): void {
    out.push({ line: this.startLine, text: this.parts.join(""), encodingError: this.invalid, oversize: this.oversize });
    this.parts = [];
    this.size = 0;
    this.inValue = false;
    this.primitive = false;
    this.invalid = undefined;
    this.oversize = false;
  }

  private keep(piece: string): void {
    if (this.oversize) return;
    this.size += piece.length;
    if (this.size > this.maxValueChars) {
      this.oversize = true;
      this.parts = [];
      return;
    }
    this.parts.push(piece);
  }

  feed(l: TextLine, out: JsonValueText[]): void {
    const s = l.text;
    let from = 0; // start of the current value's text on this line
    if (this.inValue && l.encodingError) this.invalid ??= l.encodingError;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === 92 /* \ */) this.escape = true;
        else if (c === 34 /* " */) {
          this.inString = false;
          if (this.depth === this.base() && this.inValue) {
            this.keep(s.slice(from, i + 1));
            this.emit(out);
          }
        }
        continue;
      }
      const ws = c === 32 || c === 9 || c === 13 || c === 10;
      if (this.mode === "start") {
        if (ws) continue;
        if (c === 91 /* [ */) {
          this.mode = "array";
          this.depth = 1;
          continue;
        }
        this.mode = "values";
      }
      if (this.mode === "done") {
        if (!ws) this.trailing = true;
        continue;
      }
      if (!this.inValue) {
        if (ws || (this.mode === "array" && c === 44) /* , */) continue;
        if (this.mode === "array" && c === 93 /* ] */) {
          this.mode = "done";
          this.depth = 0;
          continue;
        }
        this.inValue = true;
        this.startLine = l.line;
        this.invalid = l.encodingError;
        from = i;
        if (c !== 123 && c !== 91 && c !== 34) this.primitive = true;
      }
      if (this.primitive) {
        if (ws || c === 44 || (c === 93 && this.mode === "array")) {
          this.keep(s.slice(from, i));
          this.emit(out);
          if (c === 93) {
            this.mode = "done";
            this.depth = 0;
          }
        }
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === this.base()) {
          this.keep(s.slice(from, i + 1));
          this.emit(out);
        }
      }
    }
    if (this.inValue) this.keep(s.slice(from) + "\n");
  }

  /** Call at the end of the input; returns a description of what is left unfinished, if anything. */
  finish(out: JsonValueText[]): string | null {
    if (this.inValue && this.primitive) this.emit(out);
    if (this.inValue || this.inString) return `the JSON document ends inside a value that starts on line ${this.startLine}`;
    if (this.mode === "array") return "the JSON array is never closed (missing ])";
    if (this.trailing) return "there is text after the end of the JSON array";
    return null;
  }
}

function valueToBatch(v: JsonValueText, batch: ParseBatch, limits: IngestLimits): void {
  const fail = (reason: string, column: string | null = null) => {
    batch.records++;
    batch.errors.push({ line: v.line, column, reason, raw: truncateRaw(v.text) });
  };
  if (v.oversize) return fail(`a JSON value longer than the ${formatBytes(limits.maxLineBytes)} limit`);
  if (v.encodingError) return fail(v.encodingError);
  let value: unknown;
  try {
    value = parseJsonKeepingIds(v.text);
  } catch (err) {
    return fail(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const found = tweetsFromJson(value);
  if (found.error !== undefined) return fail(found.error);
  for (const tweet of found.tweets) {
    batch.records++;
    const built = buildRow(v.line, tweet.fields, { columnNames: tweet.columnNames, raw: v.text });
    if (built.error) batch.errors.push(built.error);
    else batch.rows.push(built.row);
  }
}

export async function* parseJson(lines: AsyncIterable<LineBatch>, format: JsonFormat, limits: IngestLimits): AsyncGenerator<ParseBatch> {
  const splitter = format.layout === "document" ? new JsonValueSplitter(limits.maxLineBytes) : null;
  let total = 0;
  let bytesRead = 0;
  for await (const chunk of lines) {
    bytesRead = chunk.bytesRead;
    const batch: ParseBatch = { rows: [], errors: [], records: 0, bytesRead, windows1252Rows: 0 };
    const values: JsonValueText[] = [];
    for (const l of chunk.lines) {
      if (l.windows1252) batch.windows1252Rows = (batch.windows1252Rows ?? 0) + 1;
      if (splitter) splitter.feed(l, values);
      else if (l.text.trim()) values.push({ line: l.line, text: l.text, encodingError: l.encodingError, oversize: false });
    }
    for (const v of values) valueToBatch(v, batch, limits);
    total += batch.records;
    yield batch;
  }
  const batch: ParseBatch = { rows: [], errors: [], records: 0, bytesRead };
  if (splitter) {
    const values: JsonValueText[] = [];
    const problem = splitter.finish(values);
    for (const v of values) valueToBatch(v, batch, limits);
    if (problem) {
      const error: RowError = { line: 0, column: null, reason: problem, raw: null };
      batch.errors.push(error);
      batch.records++;
    }
  }
  total += batch.records;
  if (total === 0) throw new UserError("The file has no tweets.", "empty_file");
  yield batch;
}
