import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { filterNearDuplicates } from "./duplicates";

describe("near-duplicate step", () => {
  it("removes rows near an earlier row or a stored tweet, naming which", () => {
    const rows: IngestRow[] = [
      "Shelter at the convention center is full tonight",
      "RT @news: Shelter at the convention center is full tonight http://t.co/1",
      "Volunteers needed to sort donations downtown",
      "Bridge on highway 6 is closed both ways",
    ].map((text, i) => ({ line: i + 2, externalId: `n${i}`, text }));
    const stored = [{ externalId: "s1", text: "bridge on highway 6 is closed both ways!" }];
    const r = filterNearDuplicates(rows, { threshold: 0.75, stored });
    expect(r.rows.map((x) => x.externalId)).toEqual(["n0", "n2"]);
    expect(r.step.reasons).toEqual({ "near-duplicate of an earlier row": 1, "near-duplicate of a stored tweet": 1 });
    expect(r.step.examples?.map((e) => e.reason)).toEqual(["near-duplicate of n0 (line 2)", "near-duplicate of stored tweet s1"]);
    expect([...r.duplicateOf.values()]).toEqual(["n0", "s1"]);
    expect(filterNearDuplicates(rows, { threshold: 0.75 }).rows).toHaveLength(3);
  });
});
