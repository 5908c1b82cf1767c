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
  constructor(public bytes: Buffer) {}

  /** Field k as csv-parse gives it ("" beyond the record's end is the caller's choice: this throws nothing, returns ""). */
  text(k: number): string {
    if (k >= this.count) return "";
    const s = this.bytes.utf8Slice(this.start[k], this.end[k]);
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
  /** csv-parse's `trim` (true by default): white space around fields is dropped, quoted fields may be padded. */
  trim?: boolean;
  /** csv-parse's `relax_quotes` (false by default): a quote inside an unquoted field is a character. */
  relaxQuotes?: boolean;
  /** false: no quoting at all (csv-parse's `quote: false`), a quote is a character. */
  quote?: boolean;
  /** csv-parse's `bom` (true by default): a UTF-8 BOM at the start is dropped. */
  bom?: boolean;
  /** A record longer than this many bytes is handed back (csv-parse's max_record_size counts characters). */
  maxRecordBytes?: number;
};

/**
 * Bytes of a text or buffer for scanCsv. A buffer is scanned as it is: delimiters, quotes and line ends are ASCII, so
 * decoding each field on its own gives what decoding the whole text would (invalid UTF-8 becomes U+FFFD either way).
 */
export function csvBytes(input: string | Buffer): Buffer {
  return typeof input === "string" ? Buffer.from(input, "utf8") : input;
}

/**
 * Scans `bytes` (csvBytes), calling onRecord for each record (the view is reused: copy what you keep).
 * Returns false, having stopped, when the text needs csv-parse (see the file comment); true when all is read.
 */
export function scanCsv(bytes: Buffer, onRecord: (record: CsvRecordView) => void, options: CsvScanOptions = {}): boolean {
  return new CsvScanner(onRecord, options).scan(bytes, bytes.length, true) >= 0;
}

/**
 * The scanner over a text given in chunks (a file read piece by piece into one reused buffer, so no buffer the size
 * of the file is made). scan(bytes, n, final) reads the complete records of bytes[0, n) and returns how many bytes
 * they take (the caller keeps the rest and appends the next piece to it), or -1 when the text needs csv-parse.
 */
export class CsvScanner {
  private readonly delim: number;
  private readonly trim: boolean;
  private readonly relaxQuotes: boolean;
  private readonly quote: number;
  private readonly maxRecordBytes: number;
  private readonly bom: boolean;
  /** After scan returned -1: where the record it stopped in starts, and its first line. */
  stoppedAt = 0;
  private readonly view = new CsvRecordView(Buffer.alloc(0));
  /** The record delimiter: 0 not yet seen, LF, CR, or CR + LF as -1. */
  private rd = 0;
  private line = 1;
  private started = false;

  constructor(
    private readonly onRecord: (record: CsvRecordView) => void,
    options: CsvScanOptions = {},
  ) {
    this.delim = (options.delimiter ?? ",").charCodeAt(0);
    this.trim = options.trim ?? true;
    this.relaxQuotes = options.relaxQuotes ?? false;
    this.quote = options.quote === false ? -1 : QUOTE;
    this.maxRecordBytes = options.maxRecordBytes ?? Infinity;
    this.bom = options.bom ?? true;
  }

  /** The line the next record starts on (after scan returned -1: the line of the record handed back). */
  get nextLine(): number {
    return this.line;
  }

  scan(bytes: Buffer, n: number, final: boolean): number {
    const { delim, view, onRecord, trim, relaxQuotes, quote, maxRecordBytes } = this;
    view.bytes = bytes;
    view.count = 0;
    let rd = this.rd;
    let line = this.line;
    let pos = 0;
    if (!this.started) {
      if (n < 3 && !final) return 0;
      this.started = true;
      if (this.bom && n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) pos = 3;
    }
    let recordStart = pos;
    let recordLine = line;
    /** Length of the record delimiter at p (bytes[p] is CR or LF), discovering it at the first line end; -1: the next piece decides. */
    const delimiterAt = (p: number): number => {
      const c = bytes[p];
      if (c === CR && p + 1 >= n && !final && rd !== LF && rd !== CR) return -1;
      if (rd === 0) rd = c === CR ? (p + 1 < n && bytes[p + 1] === LF ? -1 : CR) : LF;
      if (rd === LF) return c === LF ? 1 : 0;
      if (rd === CR) return c === CR ? 1 : 0;
      return c === CR && p + 1 < n && bytes[p + 1] === LF ? 2 : 0;
    };
    /** At the end of the text, a CR or LF just before it is not counted yet (csv-parse counts a line break at the next byte). */
    const emit = (atEnd: boolean) => {
      view.line = atEnd && (bytes[n - 1] === LF || bytes[n - 1] === CR) ? line - 1 : line;
      onRecord(view);
      view.count = 0;
    };
    /** The piece ends inside the record at recordStart: keep it for the next piece. */
    const more = () => {
      this.rd = rd;
      this.line = recordLine;
      view.count = 0;
      return recordStart;
    };
    const handBack = () => {
      this.rd = rd;
      this.line = recordLine;
      this.stoppedAt = recordStart;
      view.count = 0;
      return -1;
    };
    const done = () => {
      this.rd = rd;
      this.line = line;
      return n;
    };

    for (;;) {
      // field start: skip what csv-parse's trim skips (space, tab, FF, and CR/LF that end no record)
      let c = 0;
      let d = 0;
      for (; pos < n; pos++) {
        c = bytes[pos];
        if (c === delim) break;
        if (c === LF || c === CR) {
          if ((d = delimiterAt(pos)) !== 0 || !trim) break;
          line++;
          continue;
        }
        if (trim && (c === SP || c === TAB || c === FF)) continue;
        break;
      }
      if (d < 0) return more();
      if (pos - recordStart > maxRecordBytes) return handBack();
      if (pos >= n) {
        if (!final) return view.count > 0 ? more() : ((recordLine = line), (recordStart = n), done());
        if (view.count > 0) {
          view.push(pos, pos, 0);
          emit(true);
        }
        return done();
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
          emit(false);
        }
        line++;
        pos += d;
        recordStart = pos;
        recordLine = line;
        continue;
      }
      if (c === quote) {
        const from = pos + 1;
        let flags = 0;
        let p = from;
        for (;;) {
          for (; p < n; p++) {
            c = bytes[p];
            if (c === QUOTE) break;
            if (c <= CR && (c === LF || c === CR)) line++; // each CR and each LF counts, as csv-parse counts them
          }
          if (p >= n) return final ? handBack() : more(); // never closed (in this piece)
          if (p + 1 < n && bytes[p + 1] === QUOTE) {
            flags = FIELD_ESCAPED;
            p += 2;
            continue;
          }
          if (p + 1 >= n && !final) return more();
          break;
        }
        if (p - recordStart > maxRecordBytes) return handBack();
        view.push(from, p, flags);
        pos = p + 1;
        // after the closing quote: trimmable bytes, then a delimiter, a record end or the end of the text
        for (; pos < n; pos++) {
          c = bytes[pos];
          if (c === delim) break;
          if (c === LF || c === CR) {
            if ((d = delimiterAt(pos)) !== 0) break;
            if (!trim) return handBack();
            line++;
            continue;
          }
          if (trim && (c === SP || c === TAB || c === FF)) continue;
          return handBack(); // text after a closing quote (or a second quote)
        }
        if (d < 0) return more();
        if (pos >= n) {
          if (!final) return more();
          emit(true);
          return done();
        }
        if (d !== 0) {
          emit(false);
          line++;
          pos += d;
          recordStart = pos;
          recordLine = line;
        } else pos++;
        continue;
      }
      // unquoted field
      const from = pos;
      const stopAtQuote = relaxQuotes ? -1 : quote;
      for (; pos < n; pos++) {
        c = bytes[pos];
        if (c === delim || c === stopAtQuote) break;
        if (c <= CR && (c === LF || c === CR)) {
          if ((d = delimiterAt(pos)) !== 0) break;
          line++;
        }
      }
      if (pos < n && c === stopAtQuote) return handBack(); // a quote inside an unquoted field
      if (d < 0 || (pos >= n && !final)) return more();
      if (pos - recordStart > maxRecordBytes) return handBack();
      const last = bytes[pos - 1];
      view.push(from, pos, trim && (last <= SP || last >= 0x7f) ? FIELD_TRIM_END : 0);
      if (pos >= n) {
        emit(true);
        return done();
      }
      if (d !== 0) {
        emit(false);
        line++;
        pos += d;
        recordStart = pos;
        recordLine = line;
      } else pos++;
    }
  }
}
