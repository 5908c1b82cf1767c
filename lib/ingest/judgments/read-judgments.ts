import { createHash } from "node:crypto";
import { CsvError } from "csv-parse/sync";
import { type CsvRecords, readCsvRecords as readSharedCsvRecords } from "@/lib/text/csv-records";
import { type RepeatPolicy, resolveRepeats, RepeatJudgmentsError } from "@/lib/metrics/repeats";
import { type JudgmentMapping, mappedColumns, personalColumns } from "./mapping";
import { parseSourceTime } from "./times";

/** One judgment read from a source file, its label mapped to the scheme. */
export type SourceJudgment = {
  line: number;
  item: string;
  text: string | null;
  annotator: string;
  label: string;
  /** Epoch ms, or null when the file has no time for it. */
  at: number | null;
  gold: boolean;
  /** The platform's gold answer(s) of the unit, mapped (first = the gold label). */
  goldLabels: string[];
  hitKey: string;
  assignmentKey: string;
  rejected: boolean;
};

export type SourceRowError = { line: number; column: string | null; reason: string; raw: string };

export type ReadJudgmentsResult = {
  judgments: SourceJudgment[];
  errors: SourceRowError[];
  rowsRead: number;
  /** Labels outside the scheme that the label map does not cover, with their counts. */
  unmapped: Record<string, number>;
  /** Judgments dropped by the label map (mapped to nothing). */
  dropped: number;
  repeatsSetAside: number;
  /** True when assignments had to be made per worker and day (the file names no HIT or assignment). */
  assignmentsPerWorkerDay: boolean;
};

export type LabelLookup = { scheme: readonly string[]; map: Readonly<Record<string, string | null>> };

/**
 * Records of a CSV text with the file line each starts on, read by the shared scanner (lib/text/csv-records.ts:
 * BOM, CRLF and quoted multi-line fields as csv-parse reads them, without trimming; csv-parse for odd quoting,
 * throwing its CsvError where the CSV is invalid). The header's names are trimmed.
 */
export function readCsvRecords(input: string | Buffer): { header: string[]; records: Array<{ line: number; fields: string[] }> } {
  return linedRecords(readSharedCsvRecords(input, CSV_OPTIONS));
}

/** csv-parse's defaults as the judgment readers have always used them: fields are not trimmed. */
export const CSV_OPTIONS = { trim: false } as const;

/** Header and records, each record with the line it starts on (the line after the previous record's end). */
function linedRecords({ records, lines }: CsvRecords): { header: string[]; records: Array<{ line: number; fields: string[] }> } {
  if (records.length === 0) return { header: [], records: [] };
  const out = [];
  for (let i = 1; i < records.length; i++) out.push({ line: lines[i - 1] + 1, fields: records[i] });
  return { header: records[0].map((h) => h.trim()), records: out };
}

export { CsvError };

const truthy = (v: string) => /^(true|1|yes)$/i.test(v.trim());

/**
 * Reads judgments under a mapping. Every problem is a row error naming the line, column and value; the caller
 * stores nothing when there is one. Repeat judgments follow `repeats` ("refuse" throws RepeatJudgmentsError).
 */
export function readJudgments(
  text: string,
  mapping: JudgmentMapping,
  labels: LabelLookup,
  { option = "--repeats" }: { option?: string } = {},
): ReadJudgmentsResult {
  const { header, records } = readCsvRecords(text);
  const index = new Map(header.map((h, i) => [h, i]));
  const missing = mappedColumns(mapping).filter((c) => !index.has(c));
  if (missing.length > 0) {
    return empty(records.length, [{ line: 1, column: missing[0], reason: `the file has no column "${missing.join('", "')}"`, raw: header.join(",").slice(0, 500) }]);
  }
  const personal = new Set(personalColumns(header));
  const readsPersonal = mappedColumns(mapping).filter((c) => personal.has(c));
  if (readsPersonal.length > 0) {
    return empty(records.length, [{ line: 1, column: readsPersonal[0], reason: `column "${readsPersonal[0]}" holds personal data and is never read`, raw: "" }]);
  }
  const scheme = new Set(labels.scheme);
  const mapLabel = (raw: string): { label: string | null; known: boolean } => {
    if (scheme.has(raw)) return { label: raw, known: true };
    if (Object.hasOwn(labels.map, raw)) return { label: labels.map[raw], known: true };
    return { label: null, known: false };
  };
  const judgments: SourceJudgment[] = [];
  const errors: SourceRowError[] = [];
  const unmapped: Record<string, number> = {};
  let dropped = 0;
  const perDay = !mapping.assignment;
  for (const { line, fields } of records) {
    const cell = (c: string | undefined) => (c ? (fields[index.get(c) as number] ?? "").trim() : "");
    const raw = fields.join(",").slice(0, 500);
    const fail = (column: string | null, reason: string) => errors.push({ line, column, reason, raw });
    const annotator = cell(mapping.annotator);
    if (!annotator) {
      fail(mapping.annotator, `empty worker id in column "${mapping.annotator}"`);
      continue;
    }
    let at: number | null = null;
    if (mapping.time) {
      const t = cell(mapping.time);
      at = t ? parseSourceTime(t) : null;
      if (t && at === null) {
        fail(mapping.time, `time "${t}" in column "${mapping.time}" is not a time Accord reads (ISO 8601, 10/30/2012 14:22:11, or MTurk's SubmitTime)`);
        continue;
      }
    }
    const day = at === null ? "undated" : new Date(at).toISOString().slice(0, 10);
    const assignmentKey = perDay ? `${annotator}|${day}` : cell(mapping.assignment);
    const hitKey = mapping.hit ? cell(mapping.hit) : assignmentKey;
    if (!assignmentKey || !hitKey) {
      fail(mapping.assignment ?? mapping.hit ?? null, "empty HIT or assignment id");
      continue;
    }
    const rejected = mapping.status ? /^rejected$/i.test(cell(mapping.status)) : false;
    const gold = mapping.golden ? truthy(cell(mapping.golden)) : false;
    for (const slot of mapping.slots) {
      const text = slot.text ? cell(slot.text) || null : null;
      let item = slot.item ? cell(slot.item) : "";
      if (!item && !slot.item && text) item = `text:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
      if (!item) {
        fail(slot.item ?? slot.text ?? null, slot.item ? `empty tweet id in column "${slot.item}"` : "no tweet id and no text");
        continue;
      }
      if (slot.item && !/^[\w:.-]{1,64}$/.test(item)) {
        fail(slot.item, `tweet id "${item.slice(0, 80)}" in column "${slot.item}" is not an id (letters, digits, ._:- up to 64)`);
        continue;
      }
      const rawLabel = cell(slot.label);
      if (!rawLabel) {
        fail(slot.label, `empty label in column "${slot.label}"`);
        continue;
      }
      const mapped = mapLabel(rawLabel);
      if (!mapped.known) {
        unmapped[rawLabel] = (unmapped[rawLabel] ?? 0) + 1;
        continue;
      }
      if (mapped.label === null) {
        dropped++;
        continue;
      }
      const goldLabels: string[] = [];
      if (gold && slot.goldLabel) {
        for (const g of cell(slot.goldLabel).split(/\r?\n/).map((x) => x.trim()).filter(Boolean)) {
          const m = mapLabel(g);
          if (!m.known) unmapped[g] = (unmapped[g] ?? 0) + 1;
          else if (m.label) goldLabels.push(m.label);
        }
      }
      judgments.push({ line, item, text, annotator, label: mapped.label, at, gold: gold && goldLabels.length > 0, goldLabels, hitKey, assignmentKey, rejected });
    }
  }
  let repeatsSetAside = 0;
  let kept = judgments;
  if (errors.length === 0) {
    const resolution = resolveRepeats(
      { count: judgments.length, item: (r) => judgments[r].item, annotator: (r) => judgments[r].annotator, order: (r) => judgments[r].at ?? undefined },
      mapping.repeats as RepeatPolicy,
      { where: (rows) => `lines ${rows.map((r) => judgments[r].line).join(", ")}`, option },
    );
    kept = resolution.keep.map((r) => judgments[r]);
    repeatsSetAside = resolution.setAside;
  }
  return { judgments: kept, errors, rowsRead: records.length, unmapped, dropped, repeatsSetAside, assignmentsPerWorkerDay: perDay };
}

function empty(rowsRead: number, errors: SourceRowError[]): ReadJudgmentsResult {
  return { judgments: [], errors, rowsRead, unmapped: {}, dropped: 0, repeatsSetAside: 0, assignmentsPerWorkerDay: false };
}

export { RepeatJudgmentsError };
