import { parse } from "csv-parse/sync";

/**
 * The records of a CSV in one flat array: record r is fields[start[r] … start[r + 1]) and ends on file line
 * lines[r] (csv-parse's `info.lines`). No object per record: at hundreds of thousands of rows the per-record
 * arrays and info objects of csv-parse cost more (allocation and garbage collection) than the parsing itself.
 */
export class CsvTable {
  readonly count: number;
  constructor(
    private readonly fields: string[],
    private readonly start: ArrayLike<number>,
    readonly lines: ArrayLike<number>,
  ) {
    this.count = lines.length;
  }

  /** Field k of record r, or undefined when the record is shorter. */
  field(r: number, k: number): string | undefined {
    const at = this.start[r] + k;
    return at < this.start[r + 1] ? this.fields[at] : undefined;
  }

  record(r: number): string[] {
    return this.fields.slice(this.start[r], this.start[r + 1]);
  }
}

/**
 * The records of a CSV text as csv-parse reads it with `bom`, `trim`, `skip_empty_lines` and `relax_column_count`
 * (throws its CsvError on invalid CSV). Texts without quotes, carriage returns or form feeds, by far the common
 * case for machine-written files, take a one-pass split that gives the same records several times faster;
 * anything else goes to csv-parse.
 */
export function parseCsvTable(text: string): CsvTable {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/["\r\f]/.test(body)) return splitPlain(body);
  const records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as Array<{
    record: string[];
    info: { lines: number };
  }>;
  const start = [0];
  for (const { record } of records) start.push(start[start.length - 1] + record.length);
  return new CsvTable(
    records.flatMap((r) => r.record),
    start,
    records.map((r) => r.info.lines),
  );
}

/**
 * One pass over the text: fields between commas, lines between line feeds. A field without white space at
 * either end comes from an intern table keyed by a hash of its characters, so the ids and labels that repeat on
 * every line are one string each (fewer allocations, and later Map lookups find their hash cached).
 */
function splitPlain(body: string): CsvTable {
  // Sized up front (two fast scans) so that no array is copied as it grows.
  const maxLines = count(body, "\n") + 1;
  const fields: string[] = new Array(maxLines + count(body, ","));
  const start = new Int32Array(maxLines + 1);
  const lines = new Int32Array(maxLines);
  const table = new InternTable();
  const n = body.length;
  let nFields = 0;
  let nRecords = 0;
  let line = 0;
  let i = 0;
  while (i < n) {
    line++;
    const first = nFields;
    let from = i;
    let hash = 0;
    let blank = true;
    for (;; i++) {
      const c = i < n ? body.charCodeAt(i) : 10;
      if (c === 44 || c === 10) {
        fields[nFields++] = field(body, from, i, hash, table);
        if (c === 10) break;
        from = i + 1;
        hash = 0;
        blank = false;
      } else {
        hash = (Math.imul(hash, 31) + c) | 0;
        if (c !== 0x20 && c !== 0x09) blank = false;
      }
    }
    i++;
    // csv-parse's skip_empty_lines with trim: a line of nothing but spaces and tabs is no record.
    if (blank) {
      nFields = first;
    } else {
      lines[nRecords++] = line;
      start[nRecords] = nFields;
    }
  }
  fields.length = nFields;
  return new CsvTable(fields, start.subarray(0, nRecords + 1), lines.subarray(0, nRecords));
}

function count(text: string, char: string): number {
  let k = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) k++;
  return k;
}

/** csv-parse's trim: spaces and tabs before a field, any white space (String#trimEnd) after it. */
function field(body: string, from: number, to: number, hash: number, table: InternTable): string {
  if (from === to) return "";
  const first = body.charCodeAt(from);
  const last = body.charCodeAt(to - 1);
  if (first === 0x20 || first === 0x09 || last <= 0x20 || last >= 0x7f) {
    let start = from;
    while (start < to && (body.charCodeAt(start) === 0x20 || body.charCodeAt(start) === 0x09)) start++;
    return body.slice(start, to).trimEnd();
  }
  return table.get(body, from, to, hash);
}

function same(s: string, body: string, from: number): boolean {
  for (let j = 0; j < s.length; j++) if (s.charCodeAt(j) !== body.charCodeAt(from + j)) return false;
  return true;
}

/** Open addressing over (hash, string); grows at half full. */
class InternTable {
  private strings: Array<string | undefined> = new Array(1024);
  private hashes = new Int32Array(1024);
  private size = 0;

  get(body: string, from: number, to: number, hash: number): string {
    const len = to - from;
    let mask = this.strings.length - 1;
    let k = hash & mask;
    for (let s = this.strings[k]; s !== undefined; s = this.strings[(k = (k + 1) & mask)]) {
      if (this.hashes[k] === hash && s.length === len && same(s, body, from)) return s;
    }
    const str = body.slice(from, to);
    if (++this.size * 2 > this.strings.length) {
      this.grow();
      mask = this.strings.length - 1;
      for (k = hash & mask; this.strings[k] !== undefined; k = (k + 1) & mask);
    }
    this.strings[k] = str;
    this.hashes[k] = hash;
    return str;
  }

  private grow(): void {
    const strings = this.strings;
    const hashes = this.hashes;
    this.strings = new Array(strings.length * 2);
    this.hashes = new Int32Array(strings.length * 2);
    const mask = this.strings.length - 1;
    for (let j = 0; j < strings.length; j++) {
      const s = strings[j];
      if (s === undefined) continue;
      let k = hashes[j] & mask;
      while (this.strings[k] !== undefined) k = (k + 1) & mask;
      this.strings[k] = s;
      this.hashes[k] = hashes[j];
    }
  }
}
