import { parse } from "csv-parse/sync";

/** A CSV record with the file line it ends on (csv-parse's `info.lines`). */
export type CsvRecord = { record: string[]; info: { lines: number } };

/**
 * The records of a CSV text as csv-parse reads it with `bom`, `trim`, `skip_empty_lines`, `relax_column_count`
 * and `info` (throws its CsvError on invalid CSV). Texts without quotes, carriage returns or form feeds, by far the
 * common case for machine-written files, take a plain split that gives the same records several times faster
 * (csv-parse builds an info object per record and walks the text byte by byte); anything else goes to csv-parse.
 */
export function parseCsvRecords(text: string): CsvRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/["\r\f]/.test(body)) {
    return parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as CsvRecord[];
  }
  const records: CsvRecord[] = [];
  let line = 0;
  let start = 0;
  while (start < body.length) {
    let end = body.indexOf("\n", start);
    if (end < 0) end = body.length;
    line++;
    const record = splitLine(body.slice(start, end));
    if (record) records.push({ record, info: { lines: line } });
    start = end + 1;
  }
  return records;
}

/** csv-parse's trim: spaces and tabs before a field, any white space after it; a line of blanks is empty (null). */
function splitLine(line: string): string[] | null {
  const fields = line.split(",");
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k];
    let from = 0;
    while (from < f.length && (f.charCodeAt(from) === 0x20 || f.charCodeAt(from) === 0x09)) from++;
    fields[k] = (from > 0 ? f.slice(from) : f).trimEnd();
    if (k === 0 && fields.length === 1 && from === f.length) return null;
  }
  return fields;
}
