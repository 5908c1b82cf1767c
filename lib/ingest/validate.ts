import { normalizeHeader } from "./columns";
import type { IngestRow, RowError } from "./rows";
import { truncateRaw } from "./rows";
import { IMPORT_KIND, type ImportKind } from "@/lib/db/enums";

/**
 * Checks that need the event: ids unique within the file and new for the event, labels in the event's
 * scheme (matched by value or display name, case- and punctuation-insensitively: "Caution and advice"
 * → caution_and_advice), after the event's label map (mapped, kept as a new label, or dropped). Gold rows need a
 * label; a gold row whose id is a stored unknown tweet not yet in a HIT passes (the import promotes that tweet to
 * gold). Rows that fail become per-row errors.
 */
export type SchemeLabels = { slug?: string; values: readonly string[]; names?: readonly string[] };

export function createLabelMatcher(scheme: SchemeLabels): (label: string) => string | null {
  const byKey = new Map<string, string>();
  scheme.values.forEach((value, i) => {
    byKey.set(normalizeHeader(value), value);
    const name = scheme.names?.[i];
    if (name) byKey.set(normalizeHeader(name), value);
  });
  return (label) => byKey.get(normalizeHeader(label)) ?? null;
}

/** A label map (settings.labels.map) as a look-up by the file's label, compared as labels are (case, punctuation). */
export function createLabelMapper(map: Readonly<Record<string, string | null>>): (label: string) => string | null | undefined {
  const byKey = new Map<string, string | null>();
  for (const [from, to] of Object.entries(map)) byKey.set(normalizeHeader(from), to);
  return (label) => byKey.get(normalizeHeader(label));
}

export type LabelMapDrop = { line: number; externalId: string; label: string };

export function validateRows(
  rows: readonly IngestRow[],
  {
    kind,
    scheme,
    storedIds,
    outsideScheme = "error",
    columnNames = {},
    goldPromotion,
    labelMap = {},
    storedOrigin = () => null,
  }: {
    kind: ImportKind;
    scheme: SchemeLabels;
    storedIds: ReadonlySet<string>;
    /** Where a stored id came from, for the message ("row 12 of floods.csv"); null when unknown. */
    storedOrigin?: (externalId: string) => string | null;
    outsideScheme?: "error" | "keep" | "ignore";
    /** The file's names for the id and label columns, for the report. */
    columnNames?: { id?: string; label?: string };
    /**
     * Gold files only: stored unknown tweets not yet in any HIT (`promotable`: the row promotes them to gold with
     * its label) and those already packed as unknown (`inHit`: refused, they cannot become gold).
     */
    goldPromotion?: { promotable: ReadonlySet<string>; inHit: ReadonlySet<string> };
    /** The event's label map: file label → scheme label, new label, or null (drop the row). */
    labelMap?: Readonly<Record<string, string | null>>;
  },
): {
  rows: IngestRow[];
  errors: RowError[];
  /** Rows the label map dropped (a funnel step, not errors). */
  dropped: LabelMapDrop[];
  /** The file's labels outside the scheme (as written, mapped or not) with their row counts. */
  outsideLabels: Record<string, number>;
  /** Those of them the label map does not cover. */
  unmapped: string[];
} {
  const match = createLabelMatcher(scheme);
  const mapLabel = createLabelMapper(labelMap);
  const dropped: LabelMapDrop[] = [];
  const outsideLabels: Record<string, number> = {};
  const unmapped = new Set<string>();
  const firstLine = new Map<string, number>();
  const ok: IngestRow[] = [];
  const errors: RowError[] = [];
  const schemeName = scheme.slug ? `the event's scheme (${scheme.slug})` : "the event's scheme";
  for (const row of rows) {
    const fail = (column: "id" | "label", reason: string) =>
      errors.push({
        line: row.line,
        column: columnNames[column] ?? column,
        reason,
        raw: truncateRaw(`${row.externalId}\t${row.text}${row.label !== undefined ? `\t${row.label}` : ""}`),
      });
    const earlier = firstLine.get(row.externalId);
    if (earlier !== undefined) {
      fail("id", `duplicate id ${row.externalId} (first on line ${earlier})`);
      continue;
    }
    firstLine.set(row.externalId, row.line);
    if (goldPromotion?.inHit.has(row.externalId)) {
      fail("id", `id ${row.externalId} is already in a HIT as an unknown tweet: it cannot become gold`);
      continue;
    }
    if (storedIds.has(row.externalId) && !goldPromotion?.promotable.has(row.externalId)) {
      const origin = storedOrigin(row.externalId);
      fail("id", `id ${row.externalId} is already imported ${origin ? `(${origin})` : "for this event"}`);
      continue;
    }
    if (row.label !== undefined) {
      let value = match(row.label);
      if (value === null) {
        outsideLabels[row.label] = (outsideLabels[row.label] ?? 0) + 1;
        const mapped = mapLabel(row.label);
        if (mapped === null) {
          dropped.push({ line: row.line, externalId: row.externalId, label: row.label });
          continue;
        }
        if (mapped !== undefined) {
          value = match(mapped);
          // Mapped to a label of its own: kept as that label (tweet imports; gold needs a scheme label).
          if (value === null && kind === IMPORT_KIND.tweets) {
            row.label = mapped;
            ok.push(row);
            continue;
          }
        } else unmapped.add(row.label);
      }
      if (value !== null) row.label = value;
      else if (kind === IMPORT_KIND.gold || outsideScheme === "error") {
        fail("label", `label "${row.label}" is not in ${schemeName}`);
        continue;
      } else if (outsideScheme === "ignore") delete row.label;
    } else if (kind === IMPORT_KIND.gold) {
      fail("label", "gold rows need a label");
      continue;
    }
    ok.push(row);
  }
  return { rows: ok, errors, dropped, outsideLabels, unmapped: [...unmapped] };
}
