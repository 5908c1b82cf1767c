import { CsvTable, count, isPlainCsv, needsTrim, parseCsvTable, trimmed, withoutBom } from "./csv-records";
import { hashOf, InternTable } from "./intern-table";

/** Some columns of a CSV, each value a code into its column's distinct values (first-seen order). */
export type CodedColumns = {
  header: string[];
  /** Per picked column, the code of its value in each record after the header; -1 when empty or missing. */
  codes: Int32Array[];
  values: string[][];
  /** File line of each record after the header. */
  lines: Int32Array;
  count: number;
};

/**
 * The picked columns of a CSV, read as parseCsvTable reads it (same records, trimming and line numbers).
 * `pick` receives the header record and returns the (distinct) column indexes to keep, or throws. A plain text (no quotes,
 * CR or FF) is scanned once with no string per field: at hundreds of thousands of rows the per-field strings,
 * and the objects built from them, cost more than the scan.
 */
export function readCodedColumns(text: string, pick: (header: string[]) => number[]): CodedColumns {
  const body = withoutBom(text);
  return isPlainCsv(body) ? scanPlain(body, pick) : fromTable(parseCsvTable(text), pick);
}

function scanPlain(body: string, pick: (header: string[]) => number[]): CodedColumns {
  const n = body.length;
  let i = 0;
  let line = 0;
  let header: string[] = [];
  while (i < n) {
    const end = lineEnd(body, i);
    line++;
    const text = body.slice(i, end);
    i = end + 1;
    if (!/^[ \t]*$/.test(text)) {
      header = text.split(",").map((f) => (f === "" || !needsTrim(f, 0, f.length) ? f : trimmed(f, 0, f.length)));
      break;
    }
  }
  const columns = pick(header);
  const slotOf = new Int32Array(Math.max(0, ...columns) + 1).fill(-1);
  columns.forEach((c, slot) => c >= 0 && (slotOf[c] = slot));
  const maxRecords = count(body, "\n") + 1;
  const codes = columns.map(() => new Int32Array(maxRecords));
  const tables = columns.map(() => new InternTable());
  const lines = new Int32Array(maxRecords);
  let rec = 0;
  while (i < n) {
    line++;
    for (const c of codes) c[rec] = -1;
    let col = 0;
    let from = i;
    let hash = 0;
    let blank = true;
    for (;; i++) {
      const c = i < n ? body.charCodeAt(i) : 10;
      if (c === 44 || c === 10) {
        const slot = col < slotOf.length ? slotOf[col] : -1;
        if (slot >= 0 && from < i) codes[slot][rec] = codeOf(body, from, i, hash, tables[slot]);
        if (c === 10) break;
        col++;
        from = i + 1;
        hash = 0;
        blank = false;
      } else {
        hash = (Math.imul(hash, 31) + c) | 0;
        if (c !== 0x20 && c !== 0x09) blank = false;
      }
    }
    i++;
    // as parseCsvTable: a line of nothing but spaces and tabs is no record
    if (!blank) lines[rec++] = line;
  }
  return { header, codes: codes.map((c) => c.subarray(0, rec)), values: tables.map((t) => t.values), lines: lines.subarray(0, rec), count: rec };
}

function lineEnd(body: string, from: number): number {
  const end = body.indexOf("\n", from);
  return end < 0 ? body.length : end;
}

function codeOf(body: string, from: number, to: number, hash: number, table: InternTable): number {
  if (!needsTrim(body, from, to)) return table.code(body, from, to, hash);
  const t = trimmed(body, from, to);
  return t === "" ? -1 : table.code(t, 0, t.length, hashOf(t));
}

/** The same from csv-parse's records (quoted fields and the like). */
function fromTable(table: CsvTable, pick: (header: string[]) => number[]): CodedColumns {
  const header = table.count > 0 ? table.record(0) : [];
  const columns = pick(header);
  const count = Math.max(0, table.count - 1);
  const codes = columns.map(() => new Int32Array(count));
  const values = columns.map((column, slot) => {
    const seen = new Map<string, number>();
    for (let r = 0; r < count; r++) {
      const v = column >= 0 ? (table.field(r + 1, column) ?? "") : "";
      let code = v === "" ? -1 : seen.get(v);
      if (code === undefined) seen.set(v, (code = seen.size));
      codes[slot][r] = code;
    }
    return [...seen.keys()];
  });
  return { header, codes, values, lines: Int32Array.from({ length: count }, (_, r) => table.lines[r + 1]), count };
}
