import type { CompareData } from "@/lib/analysis/compare";
import { csvRows, type CsvCell } from "./csv";

/**
 * Compare-events CSV: one row per event, Table 3 in the data's scope (agreed or all judged tweets; `items` and
 * `judgments` count that scope) then Table 2 (accepted labels per label).
 */
export function compareCsv(data: CompareData): string {
  const header: CsvCell[] = [
    "event",
    "name",
    "type",
    "scope",
    "items",
    "judgments",
    "fleiss_kappa",
    "krippendorff_alpha",
    "average_observed_agreement",
    "average_majority_agreement",
    "tweets_accepted",
    ...data.labels.map((l) => l.value),
  ];
  const rows: CsvCell[][] = data.rows.map((r) => [
    r.slug,
    r.name,
    r.type,
    data.scope,
    r.items,
    r.judgments,
    r.fleissKappa === null ? null : Number(r.fleissKappa.toFixed(4)),
    r.krippendorffAlpha === null ? null : Number(r.krippendorffAlpha.toFixed(4)),
    r.averageObservedAgreement === null ? null : Number(r.averageObservedAgreement.toFixed(4)),
    r.averageMajorityAgreement === null ? null : Number(r.averageMajorityAgreement.toFixed(4)),
    r.accepted,
    ...data.labels.map((l) => r.labels[l.value] ?? 0),
  ]);
  return csvRows([header, ...rows]);
}
