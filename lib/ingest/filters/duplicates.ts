import { findNearDuplicates } from "../dedupe/similarity-join";
import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";

export type StoredTweetText = { externalId: string; text: string };

/**
 * Step 5: exact near-duplicate removal (cosine of uni+bigram counts above the threshold), within the
 * file and against the tweets already stored for the event. The stored tweets come first in the scan,
 * so a row is removed when any stored tweet or any earlier row of the file is a near-duplicate of it.
 * Rows whose search reached the per-row work cap are counted in the step's details and named in its note.
 */
export function filterNearDuplicates(
  rows: IngestRow[],
  { threshold, stored = [], enabled = true, maxWorkPerRow }: { threshold: number; stored?: readonly StoredTweetText[]; enabled?: boolean; maxWorkPerRow?: number },
): { rows: IngestRow[]; step: FunnelStep; duplicateOf: Map<IngestRow, string> } {
  const duplicateOf = new Map<IngestRow, string>();
  if (!enabled) return { rows, step: skippedStep("duplicates", rows.length, "switched off"), duplicateOf };
  const texts = stored.map((s) => s.text).concat(rows.map((r) => r.text));
  const result = findNearDuplicates(texts, { threshold, mode: "first", maxWorkPerRow });
  const counter = new StepCounter();
  const kept: IngestRow[] = [];
  const base = stored.length;
  rows.forEach((row, k) => {
    const d = result.duplicateOf[base + k];
    if (d < 0) {
      kept.push(row);
      return;
    }
    const other = d < base ? stored[d].externalId : rows[d - base].externalId;
    duplicateOf.set(row, other);
    if (d < base) counter.remove("near-duplicate of a stored tweet", row, `near-duplicate of stored tweet ${other}`);
    else counter.remove("near-duplicate of an earlier row", row, `near-duplicate of ${other} (line ${rows[d - base].line})`);
  });
  if (result.capped > 0) counter.count("rows compared only in part (search cap reached)", result.capped);
  const approximate =
    result.capped > 0
      ? `; approximate for ${result.capped.toLocaleString("en-US")} rows: their search stopped at ${result.maxWorkPerRow.toLocaleString("en-US")} steps and may have missed a near-duplicate`
      : "";
  const note = `cosine > ${threshold}${base > 0 ? `; compared with ${base.toLocaleString("en-US")} stored tweets` : ""}${approximate}`;
  return { rows: kept, step: counter.step("duplicates", rows.length, { note }), duplicateOf };
}
