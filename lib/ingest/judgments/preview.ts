import { formatInt } from "@/lib/text/format";
import { csvParseRecords } from "@/lib/text/csv-records";
import { csvBytes, CsvScanner } from "@/lib/text/csv-scanner";
import { detectMapping, FORMAT_NAMES, type JudgmentFormat, type JudgmentMapping, personalColumns } from "./mapping";
import { CSV_OPTIONS, type LabelLookup } from "./read-judgments";

/** The web preview reads this much of an upload's start (the import job reads and counts the whole file). */
export const PREVIEW_BYTES = 256 * 1024;

/** What the preview step shows before anything is stored. */
export type JudgmentPreview = {
  format: JudgmentFormat | null;
  formatName: string | null;
  header: string[];
  /** The proposed mapping (null: the researcher maps the columns). */
  mapping: JudgmentMapping | null;
  /** Columns with personal data: present in the file, never stored. */
  personalColumns: string[];
  /** Rows read: the whole file's when `complete`, else those of its first PREVIEW_BYTES. */
  rows: number;
  /** Whether the preview read the whole file. */
  complete: boolean;
  /** "37 rows", or "the first 1,204 rows (of the file's first 256 KB)" when the preview read only the start. */
  rowsNote: string;
  /** The first rows, personal columns left out. */
  sample: Array<Record<string, string>>;
  /** Raw labels of the mapped label columns with their counts (in the rows read), and those needing a mapping. */
  labels: Record<string, number>;
  unmappedLabels: string[];
};

/**
 * The records of a file's start: `complete` says the bytes are the whole file. Only whole records are read (a
 * record cut by the end of the bytes is left out); odd quoting goes to csv-parse as the full read does.
 */
export function headRecords(input: string | Buffer, complete: boolean): string[][] {
  const bytes = csvBytes(input);
  const records: string[][] = [];
  const scanner = new CsvScanner((view) => records.push(view.record()), CSV_OPTIONS);
  if (scanner.scan(bytes, bytes.length, complete) >= 0) return records;
  if (complete) return csvParseRecords(bytes, CSV_OPTIONS).records;
  // the records before the odd one are whole; csv-parse reads the odd one's error (if it has one) when none came before
  if (records.length > 1) return records;
  return csvParseRecords(bytes, CSV_OPTIONS).records.slice(0, -1);
}

/** Previews a judgment file's text, or its first bytes (`complete: false`): nothing beyond them is read. */
export function previewJudgments(input: string | Buffer, labels: LabelLookup, { mapping, complete = true }: { mapping?: JudgmentMapping | null; complete?: boolean } = {}): JudgmentPreview {
  const all = headRecords(input, complete);
  const header = (all[0] ?? []).map((h) => h.trim());
  const records = all.slice(1);
  const m = mapping ?? detectMapping(header);
  const personal = personalColumns(header);
  const shown = header.filter((h) => !personal.includes(h));
  const sample = records.slice(0, 5).map((r) => Object.fromEntries(shown.map((h) => [h, (r[header.indexOf(h)] ?? "").slice(0, 200)])));
  const counts: Record<string, number> = {};
  if (m) {
    const cols = m.slots.map((s) => header.indexOf(s.label)).filter((i) => i >= 0);
    for (const r of records) for (const c of cols) {
      const v = (r[c] ?? "").trim();
      if (v) counts[v] = (counts[v] ?? 0) + 1;
    }
  }
  const scheme = new Set(labels.scheme);
  const unmappedLabels = Object.keys(counts).filter((l) => !scheme.has(l) && !Object.hasOwn(labels.map, l));
  const n = formatInt(records.length);
  return {
    format: m?.format ?? null,
    formatName: m ? FORMAT_NAMES[m.format] : null,
    header,
    mapping: m,
    personalColumns: personal,
    rows: records.length,
    complete,
    rowsNote: complete ? `${n} rows` : `the first ${n} rows (of the file's first ${Math.round(PREVIEW_BYTES / 1024)} KB; the import reads them all)`,
    sample,
    labels: counts,
    unmappedLabels,
  };
}

/** The sentence the preview shows about personal columns. */
export function personalColumnsNote(columns: readonly string[]): string {
  if (columns.length === 0) return "The file has no personal columns (IP address, city, region, country).";
  return `Personal columns are never stored: ${columns.join(", ")} ${columns.length === 1 ? "is" : "are"} left out of the import.`;
}
