import { parse } from "csv-parse/sync";

/** The records of a CSV in one flat array: record r is fields[start[r] … start[r + 1]) and ends on file line lines[r]. */
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
 * (throws its CsvError on invalid CSV). readCodedColumns reads plain texts the same way without csv-parse.
 */
export function parseCsvTable(text: string): CsvTable {
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

/** A text without quotes, carriage returns or form feeds: its records are its lines split at commas. */
export function isPlainCsv(body: string): boolean {
  return !/["\r\f]/.test(body);
}

export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function count(text: string, char: string): number {
  let k = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) k++;
  return k;
}

/** Whether csv-parse's trim could change body[from, to) (a non-empty range). */
export function needsTrim(body: string, from: number, to: number): boolean {
  const first = body.charCodeAt(from);
  const last = body.charCodeAt(to - 1);
  return first === 0x20 || first === 0x09 || last <= 0x20 || last >= 0x7f;
}

/** csv-parse's trim: spaces and tabs before a field, any white space (String#trimEnd) after it. */
export function trimmed(body: string, from: number, to: number): string {
  let start = from;
  while (start < to && (body.charCodeAt(start) === 0x20 || body.charCodeAt(start) === 0x09)) start++;
  return body.slice(start, to).trimEnd();
}
