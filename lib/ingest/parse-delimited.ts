import { once } from "node:events";
import { type CsvError, type Info, parse } from "csv-parse";
import { UserError } from "@/lib/errors";
import { type ColumnMap, COLUMN_ALIASES, mapColumns, ROW_FIELDS, type RowField } from "./columns";
import type { DelimitedFormat } from "./format";
import type { IngestLimits } from "./limits";
import type { ParseBatch } from "./parse-batch";
import { buildRow, type RawFields, type RowError, truncateRaw } from "./rows";
import type { LineBatch } from "./text-lines";

/**
 * CSV/TSV through csv-parse (streaming), never split by hand. Fields are mapped by header name
 * (columns.ts); a record with the wrong number of fields, or spanning a line in no known encoding,
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

function describeMissing(field: RowField, header: readonly string[]): string {
  return (
    `No ${field === "id" ? "tweet id" : "tweet text"} column: expected one of ${COLUMN_ALIASES[field].join(", ")}; ` +
    `found ${header.map((h) => `"${h}"`).join(", ") || "no header"}.`
  );
}

export async function* parseDelimited(
  lines: AsyncIterable<LineBatch>,
  format: DelimitedFormat,
  limits: IngestLimits,
): AsyncGenerator<ParseBatch> {
  const skipped: RowError[] = [];
  const parser = parse({
    delimiter: format.delimiter,
    quote: format.quote ? '"' : false,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    max_record_size: limits.maxLineBytes,
    on_skip: (err: CsvError | undefined) => {
      if (err) skipped.push({ line: Number(err.lines) || 0, column: null, reason: csvReason(err), raw: null });
      return undefined;
    },
  });
  const pending: CsvRecord[] = [];
  parser.on("data", (r: CsvRecord) => pending.push(r));
  let failure: Error | null = null;
  parser.on("error", (err: Error) => {
    failure = err;
  });
  const ended = once(parser, "end");
  ended.catch(() => undefined);

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
    columns = mapColumns(names);
    if (columns.id === undefined) throw new UserError(describeMissing("id", names), "missing_column");
    if (columns.text === undefined) throw new UserError(describeMissing("text", names), "missing_column");
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
      if (!parser.write(text)) await once(parser, "drain");
      await tick();
      if (failure) throw failure;
      yield take(bytesRead);
    }
    parser.end();
    await ended;
    if (failure) throw failure;
    const last = take(bytesRead);
    if (dataRecords === 0) throw new UserError("The file has no rows (only a header, or nothing).", "empty_file");
    yield last;
  } finally {
    parser.destroy();
  }
}
