import { ByteInternTable, hashBytes } from "./byte-intern-table";
import { csvParseRecords } from "./csv-records";
import { csvBytes, type CsvRecordView, type CsvScanOptions, scanCsv } from "./csv-scanner";

/** Some columns of a CSV, each value a code into its column's distinct values (first-seen order). */
export type CodedColumns = {
  header: string[];
  /** Per picked column, the code of its value in each record after the header; -1 when empty or missing. */
  codes: Int32Array[];
  values: string[][];
  /** File line of each record after the header (csv-parse's info.lines: the line the record ends on). */
  lines: Int32Array;
  count: number;
};

/**
 * The picked columns of a CSV text or file contents, read as csv-parse reads it with csvParseOptions (same records,
 * trimming and line numbers). `pick` receives the header record and returns the (distinct) column indexes to keep
 * (-1 for none), or throws. The scanner hands over byte ranges and only the picked fields are interned, each
 * distinct value decoded once: at hundreds of thousands of rows a string per field costs more than the scan.
 */
export function readCodedColumns(input: string | Buffer, pick: (header: string[]) => number[], options: CsvScanOptions = {}): CodedColumns {
  const bytes = csvBytes(input);
  let header: string[] | null = null;
  let columns: number[] = [];
  let tables: ByteInternTable[] = [];
  let codes: Int32Array[] = [];
  let lines = new Int32Array(1024);
  let count = 0;
  let picked = false;

  const start = (h: string[]) => {
    picked = true;
    header = h;
    columns = pick(h);
    tables = columns.map(() => new ByteInternTable());
    codes = columns.map(() => new Int32Array(lines.length));
  };
  const room = () => {
    if (count < lines.length) return;
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    lines = grow(lines);
    codes = codes.map(grow);
  };

  const done = scanCsv(
    bytes,
    (view: CsvRecordView) => {
      if (header === null) return start(view.record());
      room();
      for (let slot = 0; slot < columns.length; slot++) {
        const k = columns[slot];
        let code = -1;
        if (k >= 0 && k < view.count) {
          const from = view.start[k];
          const to = view.end[k];
          if (view.flags[k] === 0) {
            if (from < to) code = tables[slot].code(bytes, from, to, hashBytes(bytes, from, to), view.ascii);
          } else {
            const s = view.text(k);
            if (s !== "") code = tables[slot].codeOfString(s);
          }
        }
        codes[slot][count] = code;
      }
      lines[count++] = view.line;
    },
    options,
  );
  if (!done) {
    // odd or invalid quoting: csv-parse reads it (and throws its CsvError when it is invalid)
    const parsed = csvParseRecords(input, options);
    header = null;
    count = 0;
    for (let r = 0; r < parsed.records.length; r++) {
      const record = parsed.records[r];
      if (header === null) {
        if (!picked) start(record);
        else {
          header = record;
          tables = columns.map(() => new ByteInternTable());
        }
        continue;
      }
      room();
      columns.forEach((k, slot) => {
        const s = k >= 0 ? (record[k] ?? "") : "";
        codes[slot][count] = s === "" ? -1 : tables[slot].codeOfString(s);
      });
      lines[count++] = parsed.lines[r];
    }
  }
  if (!picked) start([]);
  return {
    header: header ?? [],
    codes: codes.map((c) => c.subarray(0, count)),
    values: tables.map((t) => t.values),
    lines: lines.subarray(0, count),
    count,
  };
}
