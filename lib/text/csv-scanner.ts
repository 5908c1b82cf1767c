/**
 * One RFC 4180 CSV scanner over bytes, reading exactly as csv-parse does with { bom, trim, skip_empty_lines,
 * relax_column_count } (the options of every judgment and tweet file read here): quoted fields with delimiters,
 * doubled quotes and CR/LF/CRLF inside, LF, CRLF or CR record ends (the first line end outside quotes decides, as
 * csv-parse's auto-discovery), a UTF-8 BOM, a last record with or without its line end, blank lines skipped.
 * It makes no string per field: each record is handed over as byte ranges (CsvRecordView) and the caller decodes
 * or interns only the fields it uses. Input csv-parse would reject, or read in one of its odd ways (a quote inside
 * an unquoted field, text after a closing quote, an unclosed quote), makes scanCsv return false: the caller then
 * reads the text with csv-parse itself, so errors and odd cases stay exactly csv-parse's.
 */

import { isAscii, isUtf8 } from "node:buffer";

const LF = 10;
const CR = 13;
const FF = 12;
const SP = 32;
const TAB = 9;
const QUOTE = 34;

/** Field flag: a quoted field with doubled quotes inside (decode turns `""` into `"`). */
export const FIELD_ESCAPED = 1;
/** Field flag: an unquoted field whose last byte may be white space for String#trimEnd (decode trims it). */
export const FIELD_TRIM_END = 2;

/** One record: field k is bytes[start[k], end[k]) with flags[k]; `line` is the file line it ends on (csv-parse's info.lines). */
export class CsvRecordView {
  count = 0;
  line = 0;
  start = new Int32Array(16);
  end = new Int32Array(16);
  flags = new Uint8Array(16);
  /** Whether the buffer is all ASCII (fields decode as latin1, a plain copy). */
  ascii = false;
  constructor(readonly bytes: Buffer) {}

  /** Field k as csv-parse gives it ("" beyond the record's end is the caller's choice: this throws nothing, returns ""). */
  text(k: number): string {
    if (k >= this.count) return "";
    const s = this.ascii ? this.bytes.latin1Slice(this.start[k], this.end[k]) : this.bytes.utf8Slice(this.start[k], this.end[k]);
    const f = this.flags[k];
    if (f === 0) return s;
    return f & FIELD_ESCAPED ? s.replaceAll('""', '"') : s.trimEnd();
  }

  record(): string[] {
    const out = new Array<string>(this.count);
    for (let k = 0; k < this.count; k++) out[k] = this.text(k);
    return out;
  }

  push(from: number, to: number, flags: number): void {
    if (this.count === this.start.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, b: T) => (b.set(a), b);
      this.start = grow(this.start, new Int32Array(this.count * 2));
      this.end = grow(this.end, new Int32Array(this.count * 2));
      this.flags = grow(this.flags, new Uint8Array(this.count * 2));
    }
    this.start[this.count] = from;
    this.end[this.count] = to;
    this.flags[this.count++] = flags;
  }
}

export type CsvScanOptions = {
  /** One ASCII character; "," by default. */
  delimiter?: string;
};

/** Bytes of a text or buffer for scanCsv; a buffer that is not valid UTF-8 is decoded and re-encoded as csv-parse sees it. */
export function csvBytes(input: string | Buffer): Buffer {
  if (typeof input === "string") return Buffer.from(input, "utf8");
  return isUtf8(input) ? input : Buffer.from(input.toString("utf8"), "utf8");
}

/**
 * Scans `bytes` (valid UTF-8: csvBytes), calling onRecord for each record (the view is reused: copy what you keep).
 * Returns false, having stopped, when the text needs csv-parse (see the file comment); true when all is read.
 */
export function scanCsv(bytes: Buffer, onRecord: (record: CsvRecordView) => void, options: CsvScanOptions = {}): boolean {
  const delim = (options.delimiter ?? ",").charCodeAt(0);
  const n = bytes.length;
  const view = new CsvRecordView(bytes);
  view.ascii = isAscii(bytes);
  let pos = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  /** The record delimiter: 0 not yet seen, LF, CR, or CR + LF as -1. */
  let rd = 0;
  let line = 1;

  /** Length of the record delimiter at p (p < n, bytes[p] is CR or LF), discovering it at the first line end. */
  const delimiterAt = (p: number): number => {
    const c = bytes[p];
    if (rd === 0) rd = c === CR ? (p + 1 < n && bytes[p + 1] === LF ? -1 : CR) : LF;
    if (rd === LF) return c === LF ? 1 : 0;
    if (rd === CR) return c === CR ? 1 : 0;
    return c === CR && p + 1 < n && bytes[p + 1] === LF ? 2 : 0;
  };
  /** At the end of the text, a CR or LF just before it is not counted yet (csv-parse counts a line break at the next byte). */
  const emit = (atEnd = false) => {
    view.line = atEnd && (bytes[n - 1] === LF || bytes[n - 1] === CR) ? line - 1 : line;
    onRecord(view);
    view.count = 0;
  };

  for (;;) {
    // field start: skip what csv-parse's trim skips (space, tab, FF, and CR/LF that end no record)
    let c = 0;
    let d = 0;
    for (; pos < n; pos++) {
      c = bytes[pos];
      if (c === delim) break;
      if (c === SP || c === TAB || c === FF) continue;
      if (c === LF || c === CR) {
        if ((d = delimiterAt(pos)) !== 0) break;
        line++;
        continue;
      }
      break;
    }
    if (pos >= n) {
      if (view.count > 0) {
        view.push(pos, pos, 0);
        emit(true);
      }
      return true;
    }
    if (c === delim) {
      view.push(pos, pos, 0);
      pos++;
      continue;
    }
    if (d !== 0) {
      // an empty last field, or a blank line (skipped)
      if (view.count > 0) {
        view.push(pos, pos, 0);
        emit();
      }
      line++;
      pos += d;
      d = 0;
      continue;
    }
    if (c === QUOTE) {
      const from = pos + 1;
      let flags = 0;
      let p = from;
      for (;;) {
        if (p >= n) return false; // never closed
        c = bytes[p];
        if (c === QUOTE) {
          if (p + 1 < n && bytes[p + 1] === QUOTE) {
            flags = FIELD_ESCAPED;
            p += 2;
            continue;
          }
          break;
        }
        if (c === LF || c === CR) line++;
        p++;
      }
      view.push(from, p, flags);
      pos = p + 1;
      // after the closing quote: trimmable bytes, then a delimiter, a record end or the end of the text
      for (; pos < n; pos++) {
        c = bytes[pos];
        if (c === delim) break;
        if (c === SP || c === TAB || c === FF) continue;
        if (c === LF || c === CR) {
          if ((d = delimiterAt(pos)) !== 0) break;
          line++;
          continue;
        }
        return false; // text after a closing quote (or a second quote)
      }
      if (pos >= n) {
        emit(true);
        return true;
      }
      if (d !== 0) {
        emit();
        line++;
        pos += d;
        d = 0;
      } else pos++;
      continue;
    }
    // unquoted field
    const from = pos;
    for (; pos < n; pos++) {
      c = bytes[pos];
      if (c === delim) break;
      if (c === LF || c === CR) {
        if ((d = delimiterAt(pos)) !== 0) break;
        line++;
      } else if (c === QUOTE) return false; // a quote inside an unquoted field
    }
    const last = bytes[pos - 1];
    view.push(from, pos, last <= SP || last >= 0x7f ? FIELD_TRIM_END : 0);
    if (pos >= n) {
      emit(true);
      return true;
    }
    if (d !== 0) {
      emit();
      line++;
      pos += d;
      d = 0;
    } else pos++;
  }
}
