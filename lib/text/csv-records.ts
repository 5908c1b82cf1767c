import { parse } from "csv-parse/sync";
import { csvBytes, type CsvScanOptions, scanCsv } from "./csv-scanner";

/** The records of a CSV and the file line each ends on (csv-parse's info.lines). */
export type CsvRecords = { records: string[][]; lines: number[] };

/** The scanner's options as csv-parse takes them (skip_empty_lines and relax_column_count always). */
export function csvParseOptions(options: CsvScanOptions = {}) {
  return {
    bom: options.bom ?? true,
    trim: options.trim ?? true,
    relax_quotes: options.relaxQuotes ?? false,
    quote: options.quote === false ? false : '"',
    skip_empty_lines: true,
    relax_column_count: true,
    delimiter: options.delimiter ?? ",",
  };
}

/** The records as csv-parse reads them with csvParseOptions (throws its CsvError on invalid CSV). */
export function csvParseRecords(input: string | Buffer, options: CsvScanOptions = {}): CsvRecords {
  const parsed = parse(input, { ...csvParseOptions(options), info: true }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  return { records: parsed.map((r) => r.record), lines: parsed.map((r) => r.info.lines) };
}

/**
 * The records of a CSV text or file contents, read by the scanner (csv-scanner.ts); a text it hands back (invalid
 * or odd quoting) is read by csv-parse, which throws its CsvError where the CSV is invalid.
 */
export function readCsvRecords(input: string | Buffer, options: CsvScanOptions = {}): CsvRecords {
  const records: string[][] = [];
  const lines: number[] = [];
  const done = scanCsv(
    csvBytes(input),
    (view) => {
      records.push(view.record());
      lines.push(view.line);
    },
    options,
  );
  return done ? { records, lines } : csvParseRecords(input, options);
}
