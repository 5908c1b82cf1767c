import { describe, expect, it } from "vitest";
import { createRng, randomInt, type Rng } from "@/lib/util/random";
import { csvParseRecords, type CsvRecords, readCsvRecords } from "./csv-records";
import { scanCsvPieces } from "./csv-file";
import { csvBytes, type CsvScanOptions, scanCsv } from "./csv-scanner";

/** The scanner's records, or null when it hands the text back to csv-parse. */
function scanned(input: string | Buffer, options: CsvScanOptions): CsvRecords | null {
  const records: string[][] = [];
  const lines: number[] = [];
  const done = scanCsv(csvBytes(input), (v) => (records.push(v.record()), lines.push(v.line)), options);
  return done ? { records, lines } : null;
}

/** The same read in pieces of random sizes (1–8 bytes at first, as a file read cuts it anywhere). */
function scannedInPieces(input: string, options: CsvScanOptions, rng: Rng): CsvRecords | null {
  const bytes = Buffer.from(input, "utf8");
  let at = 0;
  const records: string[][] = [];
  const lines: number[] = [];
  const read = (buf: Buffer, offset: number, length: number) => {
    const k = Math.min(length, 1 + randomInt(rng, 8), bytes.length - at);
    bytes.copy(buf, offset, at, at + k);
    at += k;
    return k;
  };
  const done = scanCsvPieces(read, (v) => (records.push(v.record()), lines.push(v.line)), options, 4);
  return done ? { records, lines } : null;
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[randomInt(rng, xs.length)];
const LINE_ENDS = ["\n", "\r\n", "\r"];
/** The judgment files' options (trim), the tweet import's (no trim, relaxed quotes, no BOM handling; TSV maybe unquoted). */
const OPTION_SETS: Array<CsvScanOptions & { buffer: boolean }> = [
  { delimiter: ",", buffer: false },
  { delimiter: ",", buffer: true },
  { delimiter: "\t", buffer: false },
  { delimiter: ";", buffer: true },
  { delimiter: ",", buffer: true, trim: false, relaxQuotes: true, bom: false },
  { delimiter: "\t", buffer: false, trim: false, relaxQuotes: true, bom: false, quote: false },
];

/** A field's text: pieces that need quoting, white space where trim matters, non-ASCII. */
function fieldText(rng: Rng, delimiter: string): string {
  const pieces = ["a", "bc", "1", " ", "\t", '"', '""', delimiter, ",", "\n", "\r\n", "\r", "\f", "é", "\u00a0", "🙂", "x y"];
  let s = "";
  for (let k = randomInt(rng, 5); k > 0; k--) s += pick(rng, pieces);
  return s;
}

/** A CSV as a writer following RFC 4180 makes it (Python's csv, Excel), with the awkward parts varied. */
function writtenFile(rng: Rng, delimiter: string, trim: boolean, bom: boolean): string {
  const eol = pick(rng, LINE_ENDS);
  let text = bom && randomInt(rng, 5) === 0 ? "\uFEFF" : "";
  const records = randomInt(rng, 8);
  for (let r = 0; r < records; r++) {
    if (randomInt(rng, 8) === 0) text += (trim ? pick(rng, ["", "  ", "\t"]) : "") + eol; // a blank line
    const fields = 1 + randomInt(rng, 4);
    const cells: string[] = [];
    for (let k = 0; k < fields; k++) {
      const v = fieldText(rng, delimiter);
      // quoted when it must be (delimiter, quote, CR, LF, or white space at its start), sometimes when it need not
      const must = /["\r\n\f]/.test(v) || v.includes(delimiter) || /^[ \t]/.test(v);
      const pad = trim && randomInt(rng, 6) === 0 ? " " : "";
      cells.push(must || randomInt(rng, 4) === 0 ? `${pad}"${v.replaceAll('"', '""')}"${pad}` : v);
    }
    text += cells.join(delimiter);
    if (r < records - 1 || randomInt(rng, 2) === 0) text += eol;
  }
  return text;
}

/** Any concatenation of CSV pieces: much of it invalid, or valid in csv-parse's odd ways. */
function awkwardFile(rng: Rng, delimiter: string): string {
  const pieces = ['"', '""', delimiter, delimiter, "\n", "\r\n", "\r", " ", "\t", "\f", "a", "b c", "é", "\u00a0", "\uFEFF", '"q"', '"x,y"', '"l\nm"'];
  let text = randomInt(rng, 5) === 0 ? "\uFEFF" : "";
  for (let k = randomInt(rng, 25); k > 0; k--) text += pick(rng, pieces);
  return text;
}

function reference(text: string, options: CsvScanOptions): CsvRecords | "error" {
  try {
    return csvParseRecords(text, options);
  } catch {
    return "error";
  }
}

describe("scanCsv", () => {
  it("reads 2,000 written files exactly as csv-parse, under each option set, without handing any back", () => {
    const rng = createRng(34);
    for (let f = 0; f < 2_000; f++) {
      const { buffer, ...options } = OPTION_SETS[f % OPTION_SETS.length];
      const text = writtenFile(rng, options.delimiter ?? ",", options.trim ?? true, options.bom ?? true);
      const ours = scanned(buffer ? Buffer.from(text) : text, options);
      expect(ours, JSON.stringify(text)).toEqual(reference(text, options));
      expect(scannedInPieces(text, options, rng), JSON.stringify(text)).toEqual(ours);
    }
  });

  it("on 2,000 awkward files, reads what it reads as csv-parse does and hands back only what csv-parse rejects or reads oddly", () => {
    const rng = createRng(4180);
    let handedBack = 0;
    for (let f = 0; f < 2_000; f++) {
      const { buffer, ...options } = OPTION_SETS[f % OPTION_SETS.length];
      const text = awkwardFile(rng, options.delimiter ?? ",");
      const ours = scanned(buffer ? Buffer.from(text) : text, options);
      const theirs = reference(text, options);
      if (ours === null) {
        handedBack++;
        // what the scanner hands back has a quote where RFC 4180 has none
        expect(text, JSON.stringify(text)).toMatch(/"/);
      } else expect(ours, JSON.stringify(text)).toEqual(theirs);
      expect(scannedInPieces(text, options, rng), JSON.stringify(text)).toEqual(ours);
      // and readCsvRecords gives csv-parse's answer either way
      if (theirs === "error") expect(() => readCsvRecords(text, options)).toThrow();
      else expect(readCsvRecords(text, options)).toEqual(theirs);
    }
    // the property is not empty: most awkward files are read by the scanner itself
    expect(handedBack).toBeGreaterThan(100);
    expect(handedBack).toBeLessThan(1_600);
  });

  it("reads the cases by name", () => {
    const cases: Array<[string, string[][], number[]]> = [
      ["a,b\nc,d", [["a", "b"], ["c", "d"]], [1, 2]],
      ["a,b\r\nc,d\r\n", [["a", "b"], ["c", "d"]], [1, 2]],
      ['\uFEFFh,t\r\n1,"x, ""y""\r\nz"\r\n\r\n2,\r\n', [["h", "t"], ["1", 'x, "y"\r\nz'], ["2", ""]], [1, 4, 6]], // csv-parse counts a CRLF inside quotes as two lines
      [" a , b \n,\n", [["a", "b"], ["", ""]], [1, 2]],
      ["", [], []],
    ];
    for (const [text, records, lines] of cases) expect(scanned(text, {})).toEqual({ records, lines });
  });
});
