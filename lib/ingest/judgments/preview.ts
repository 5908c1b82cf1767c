import { detectMapping, FORMAT_NAMES, type JudgmentFormat, type JudgmentMapping, personalColumns } from "./mapping";
import { type LabelLookup, readCsvRecords } from "./read-judgments";

/** What the preview step shows before anything is stored. */
export type JudgmentPreview = {
  format: JudgmentFormat | null;
  formatName: string | null;
  header: string[];
  /** The proposed mapping (null: the researcher maps the columns). */
  mapping: JudgmentMapping | null;
  /** Columns with personal data: present in the file, never stored. */
  personalColumns: string[];
  rows: number;
  /** The first rows, personal columns left out. */
  sample: Array<Record<string, string>>;
  /** Raw labels of the mapped label columns with their counts, and those needing a mapping. */
  labels: Record<string, number>;
  unmappedLabels: string[];
};

export function previewJudgments(text: string, labels: LabelLookup, mapping?: JudgmentMapping | null): JudgmentPreview {
  const { header, records } = readCsvRecords(text);
  const m = mapping ?? detectMapping(header);
  const personal = personalColumns(header);
  const shown = header.filter((h) => !personal.includes(h));
  const sample = records.slice(0, 5).map((r) => Object.fromEntries(shown.map((h) => [h, (r.fields[header.indexOf(h)] ?? "").slice(0, 200)])));
  const counts: Record<string, number> = {};
  if (m) {
    const cols = m.slots.map((s) => header.indexOf(s.label)).filter((i) => i >= 0);
    for (const r of records) for (const c of cols) {
      const v = (r.fields[c] ?? "").trim();
      if (v) counts[v] = (counts[v] ?? 0) + 1;
    }
  }
  const scheme = new Set(labels.scheme);
  const unmappedLabels = Object.keys(counts).filter((l) => !scheme.has(l) && !Object.hasOwn(labels.map, l));
  return {
    format: m?.format ?? null,
    formatName: m ? FORMAT_NAMES[m.format] : null,
    header,
    mapping: m,
    personalColumns: personal,
    rows: records.length,
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
