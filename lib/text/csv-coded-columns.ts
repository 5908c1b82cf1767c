import { readFileSync, statSync } from "node:fs";
import { ByteInternTable, hashBytes } from "./byte-intern-table";
import { scanCsvFile } from "./csv-file";
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

type Pick = (header: string[]) => number[];

/**
 * The picked columns of a CSV text or file contents, read as csv-parse reads it with csvParseOptions (same records,
 * trimming and line numbers). `pick` receives the header record ([] when the text has no record) and returns the
 * (distinct) column indexes to keep (-1 for none), or throws. The scanner hands over byte ranges and only the
 * picked fields are interned, each distinct value decoded once: at hundreds of thousands of rows a string per
 * field costs more than the scan. Invalid CSV throws csv-parse's CsvError.
 */
export function readCodedColumns(input: string | Buffer, pick: Pick, options: CsvScanOptions = {}): CodedColumns {
  const bytes = csvBytes(input);
  const coder = new ColumnCoder(pick, lineEnds(bytes) + 2);
  return scanCsv(bytes, coder.onRecord, options) ? coder.result() : coder.fromRecords(csvParseRecords(input, options));
}

/** The same from a file, read in pieces (csv-file.ts); throws the file system's error when it cannot be read. */
export function readCodedColumnsOfFile(file: string, pick: Pick, options: CsvScanOptions = {}): CodedColumns {
  // a first guess of the records (about 32 bytes each), grown if need be
  const coder = new ColumnCoder(pick, Math.min(1 << 22, Math.ceil(statSync(file).size / 32) + 16));
  return scanCsvFile(file, coder.onRecord, options) ? coder.result() : coder.fromRecords(csvParseRecords(readFileSync(file), options));
}

/** Codes the picked columns of records handed over one by one (the header first). */
class ColumnCoder {
  private header: string[] | null = null;
  private picked = false;
  private columns: number[] = [];
  private tables: ByteInternTable[] = [];
  private codes: Int32Array[] = [];
  private lines: Int32Array;
  private count = 0;
  /** Per picked column, the previous record's code (-1: none): neighbouring rows often repeat a value (an item's judgments). */
  private lastCode = new Int32Array(0);

  constructor(
    private readonly pick: Pick,
    capacity: number,
  ) {
    this.lines = new Int32Array(Math.max(16, capacity));
  }

  private start(header: string[]): void {
    this.picked = true;
    this.header = header;
    this.columns = this.pick(header);
    this.tables = this.columns.map(() => new ByteInternTable());
    this.codes = this.columns.map(() => new Int32Array(this.lines.length));
    this.lastCode = new Int32Array(this.columns.length).fill(-1);
  }

  private room(): void {
    if (this.count < this.lines.length) return;
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.lines = grow(this.lines);
    this.codes = this.codes.map(grow);
  }

  readonly onRecord = (view: CsvRecordView): void => {
    if (this.header === null) return this.start(view.record());
    this.room();
    const { columns, tables, codes, count, lastCode } = this;
    const bytes = view.bytes;
    for (let slot = 0; slot < columns.length; slot++) {
      const k = columns[slot];
      let code = -1;
      if (k >= 0 && k < view.count) {
        const from = view.start[k];
        const to = view.end[k];
        if (view.flags[k] === 0) {
          const len = to - from;
          if (len > 0) {
            const previous = lastCode[slot];
            if (previous >= 0 && tables[slot].is(previous, bytes, from, len)) code = previous;
            else code = lastCode[slot] = tables[slot].code(bytes, from, to, hashBytes(bytes, from, to));
          }
        } else {
          const s = view.text(k);
          if (s !== "") code = tables[slot].codeOfString(s);
        }
      }
      codes[slot][count] = code;
    }
    this.lines[this.count++] = view.line;
  };

  /** Codes csv-parse's records instead (the scanner handed the text back); the header is picked once. */
  fromRecords(parsed: { records: string[][]; lines: number[] }): CodedColumns {
    this.header = null;
    this.count = 0;
    for (let r = 0; r < parsed.records.length; r++) {
      const record = parsed.records[r];
      if (this.header === null) {
        if (!this.picked) this.start(record);
        else {
          this.header = record;
          this.tables = this.columns.map(() => new ByteInternTable());
        }
        continue;
      }
      this.room();
      this.columns.forEach((k, slot) => {
        const s = k >= 0 ? (record[k] ?? "") : "";
        this.codes[slot][this.count] = s === "" ? -1 : this.tables[slot].codeOfString(s);
      });
      this.lines[this.count++] = parsed.lines[r];
    }
    return this.result();
  }

  result(): CodedColumns {
    if (!this.picked) this.start([]);
    return {
      header: this.header ?? [],
      codes: this.codes.map((c) => c.subarray(0, this.count)),
      values: this.tables.map((t) => t.values),
      lines: this.lines.subarray(0, this.count),
      count: this.count,
    };
  }
}

/** The number of LF bytes (or CR bytes when there is no LF): a bound on the records of a text, to size the arrays once. */
function lineEnds(bytes: Buffer): number {
  let count = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++;
  if (count === 0) for (let i = bytes.indexOf(13); i >= 0; i = bytes.indexOf(13, i + 1)) count++;
  return count;
}
