import { once } from "node:events";
import { type CsvError, type Info, parse } from "csv-parse";
import { UserError } from "@/lib/errors";
import { type CsvRecordView, CsvScanner } from "@/lib/text/csv-scanner";
import { type ColumnMap, COLUMN_ALIASES, missingColumns, resolveColumns, ROW_FIELDS, type RowField, type UploadColumns } from "./columns";
import { type DelimitedFormat, delimitedCsvOptions } from "./format";
import type { IngestLimits } from "./limits";
import type { ParseBatch } from "./parse-batch";
import { buildRow, type RawFields, type RowError, truncateRaw } from "./rows";
import type { LineBatch } from "./text-lines";

/**
 * CSV/TSV read by the CSV scanner (lib/text/csv-scanner.ts) with csv-parse's options below, never split by hand;
 * from the first record the scanner hands back (a quote csv-parse reads in its relaxed way, an unclosed quote, a
 * record over the size limit), csv-parse reads the rest of the file, so every record is csv-parse's. The scanner
 * because it is faster: CrisisLexT6 (60,082 tweets, 2026-12-05) read in 1.1–1.9 s of CPU through csv-parse
 * (record and info objects, streaming) against the figures in README's table. Fields are mapped by header name
 * (columns.ts), or by the event's column mapping when the header has its columns; a record with the wrong number of fields, or spanning a line in no known encoding,
 * is a per-row error; quoting errors that csv-parse skips are per-row errors too.
 */
type CsvRecord = { record: string[]; info: Info };

function csvReason(err: CsvError): string {
  switch (err.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted field is never closed (the rest of the file was read as part of it)";
    case "CSV_INVALID_CLOSING_QUOTE":
      return "a closing quote is followed by other characters";
    case "CSV_MAX_RECORD_SIZE":
      return "the row is longer than the line limit";
    default:
      return `unreadable row (${err.message})`;
  }
}

function describeMissing(field: RowField, header: readonly string[], saved: UploadColumns | null): string {
  const unfit = saved ? missingColumns(header, saved) : [];
  return (
    `No ${field === "id" ? "tweet id" : "tweet text"} column: expected one of ${COLUMN_ALIASES[field].join(", ")}; ` +
    `found ${header.map((h) => `"${h}"`).join(", ") || "no header"}` +
    (unfit.length ? ` (the event's column mapping names ${unfit.map((m) => `"${m}"`).join(", ")}, which this file does not have)` : "") +
    `. Choose the columns in the upload's column preview, or with accord import --columns id=COLUMN,text=COLUMN.`
  );
}

export async function* parseDelimited(
  lines: AsyncIterable<LineBatch>,
  format: DelimitedFormat,
  limits: IngestLimits,
  /** The event's column mapping (columns.ts), used when the header has the columns it names. */
  saved: UploadColumns | null = null,
): AsyncGenerator<ParseBatch> {
  const skipped: RowError[] = [];
  const pending: CsvRecord[] = [];
  /** csv-parse, once the scanner has handed the text back; its lines count from `lineOffset` + 1. */
  let parser: ReturnType<typeof parse> | null = null;
  let lineOffset = 0;
  let failure: Error | null = null;
  let ended: Promise<unknown> | null = null;
  const startParser = () => {
    const p = parse({
      ...delimitedCsvOptions(format),
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
      max_record_size: limits.maxLineBytes,
      on_skip: (err: CsvError | undefined) => {
        if (err) skipped.push({ line: Number(err.lines) + lineOffset || 0, column: null, reason: csvReason(err), raw: null });
        return undefined;
      },
    });
    p.on("data", (r: CsvRecord) => pending.push(lineOffset === 0 ? r : { record: r.record, info: { ...r.info, lines: Number(r.info.lines) + lineOffset } }));
    p.on("error", (err: Error) => {
      failure = err;
    });
    ended = once(p, "end");
    ended.catch(() => undefined);
    return p;
  };
  const scanner = new CsvScanner(
    (view: CsvRecordView) => pending.push({ record: view.record(), info: { lines: view.line } as Info }),
    { delimiter: format.delimiter, quote: format.quote, trim: false, relaxQuotes: true, bom: false, maxRecordBytes: limits.maxLineBytes },
  );
  /** Bytes the scanner has not read yet (the start of a record continued in the next batch). */
  let carry: Buffer = Buffer.alloc(0);
  const feed = async (text: string, final: boolean) => {
    if (parser === null) {
      const piece = Buffer.from(text, "utf8");
      const bytes = carry.length === 0 ? piece : Buffer.concat([carry, piece]);
      const used = scanner.scan(bytes, bytes.length, final);
      if (used >= 0) {
        carry = used === bytes.length ? Buffer.alloc(0) : Buffer.from(bytes.subarray(used));
        return;
      }
      // handed back: csv-parse reads from the record the scanner stopped in
      lineOffset = scanner.nextLine - 1;
      parser = startParser();
      text = bytes.toString("utf8", scanner.stoppedAt);
      carry = Buffer.alloc(0);
    }
    if (text !== "" && !parser.write(text)) await once(parser, "drain");
    if (final) {
      parser.end();
      await ended;
    }
  };

  /** Lines in neither encoding (with why), and lines decoded as Windows-1252 (text-lines.ts). */
  const invalidLines = new Map<number, string>();
  const cp1252Lines = new Set<number>();
  let dataRecords = 0;
  let columns: ColumnMap = {};
  let columnNames: Partial<Record<RowField, string>> = {};
  let expected = -1;
  let seenHeader = format.headerless;

  const setColumns = (names: string[]) => {
    expected = names.length;
    columns = resolveColumns(names, saved).map;
    if (columns.id === undefined) throw new UserError(describeMissing("id", names, saved), "missing_column");
    if (columns.text === undefined) throw new UserError(describeMissing("text", names, saved), "missing_column");
    columnNames = {};
    for (const f of ROW_FIELDS) if (columns[f] !== undefined) columnNames[f] = names[columns[f] as number].trim();
  };

  const take = (bytesRead: number): ParseBatch => {
    const batch: ParseBatch = { rows: [], errors: skipped.splice(0), records: 0, bytesRead, windows1252Rows: 0 };
    batch.records += batch.errors.length;
    dataRecords += batch.errors.length;
    for (const { record, info } of pending.splice(0)) {
      const endLine = Number(info.lines);
      let newlines = 0;
      for (const f of record) for (let i = f.indexOf("\n"); i >= 0; i = f.indexOf("\n", i + 1)) newlines++;
      const line = endLine - newlines;
      if (!seenHeader) {
        seenHeader = true;
        setColumns(record);
        continue;
      }
      if (expected < 0) {
        // Headerless: id, text[, label] by position.
        expected = record.length;
        columns = { id: 0, text: 1, ...(record.length >= 3 ? { label: 2 } : {}) };
        columnNames = { id: "column 1", text: "column 2", label: "column 3" };
      }
      batch.records++;
      dataRecords++;
      const raw = record.join(format.delimiter);
      let invalid: string | undefined;
      if (invalidLines.size > 0) for (let l = line; l <= endLine && !invalid; l++) invalid = invalidLines.get(l);
      if (invalid) {
        batch.errors.push({ line, column: null, reason: invalid, raw: truncateRaw(raw) });
        continue;
      }
      if (cp1252Lines.size > 0) {
        let cp1252 = false;
        for (let l = line; l <= endLine && !cp1252; l++) cp1252 = cp1252Lines.has(l);
        if (cp1252) batch.windows1252Rows = (batch.windows1252Rows ?? 0) + 1;
      }
      if (record.length !== expected) {
        batch.errors.push({ line, column: null, reason: `expected ${expected} fields, found ${record.length}`, raw: truncateRaw(raw) });
        continue;
      }
      const fields: RawFields = {};
      for (const f of ROW_FIELDS) {
        const index = columns[f];
        if (index !== undefined) fields[f] = record[index];
      }
      const built = buildRow(line, fields, { columnNames, raw });
      if (built.error) batch.errors.push(built.error);
      else batch.rows.push(built.row);
    }
    return batch;
  };

  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  let bytesRead = 0;
  try {
    for await (const batch of lines) {
      bytesRead = batch.bytesRead;
      if (batch.lines.length === 0) continue;
      let text = "";
      for (const l of batch.lines) {
        if (l.encodingError) invalidLines.set(l.line, l.encodingError);
        else if (l.windows1252) cp1252Lines.add(l.line);
        text += l.text + "\n";
      }
      await feed(text, false);
      await tick();
      if (failure) throw failure;
      yield take(bytesRead);
    }
    await feed("", true);
    if (failure) throw failure;
    const last = take(bytesRead);
    if (dataRecords === 0) throw new UserError("The file has no rows (only a header, or nothing).", "empty_file");
    yield last;
  } finally {
    (parser as ReturnType<typeof parse> | null)?.destroy();
  }
}
