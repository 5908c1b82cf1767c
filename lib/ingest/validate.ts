import { normalizeHeader } from "./columns";
import type { IngestRow, RowError } from "./rows";
import { truncateRaw } from "./rows";
import { IMPORT_KIND, type ImportKind } from "@/lib/db/enums";

/**
 * Checks that need the event: ids unique within the file and new for the event, labels in the event's
 * scheme (matched by value or display name, case- and punctuation-insensitively: "Caution and advice"
 * → caution_and_advice). Gold rows need a label; a gold row whose id is a stored unknown tweet not yet in a HIT
 * passes (the import promotes that tweet to gold). Rows that fail become per-row errors.
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

export function validateRows(
  rows: readonly IngestRow[],
  {
    kind,
    scheme,
    storedIds,
    outsideScheme = "error",
    columnNames = {},
    goldPromotion,
  }: {
    kind: ImportKind;
    scheme: SchemeLabels;
    storedIds: ReadonlySet<string>;
    outsideScheme?: "error" | "keep" | "ignore";
    /** The file's names for the id and label columns, for the report. */
    columnNames?: { id?: string; label?: string };
    /**
     * Gold files only: stored unknown tweets not yet in any HIT (`promotable`: the row promotes them to gold with
     * its label) and those already packed as unknown (`inHit`: refused, they cannot become gold).
     */
    goldPromotion?: { promotable: ReadonlySet<string>; inHit: ReadonlySet<string> };
  },
): { rows: IngestRow[]; errors: RowError[] } {
  const match = createLabelMatcher(scheme);
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
      fail("id", `id ${row.externalId} is already imported for this event`);
      continue;
    }
    if (row.label !== undefined) {
      const value = match(row.label);
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
  return { rows: ok, errors };
}
