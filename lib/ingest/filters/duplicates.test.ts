import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { adversarialTexts } from "../testing/adversarial";
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

describe("near-duplicate step on adversarial text", () => {
  it("stops each row's search at the cap and says so in the funnel", () => {
    const rows: IngestRow[] = adversarialTexts({ rows: 400 }).map((text, i) => ({ line: i + 2, externalId: `a${i}`, text }));
    const capped = filterNearDuplicates(rows, { threshold: 0.75, maxWorkPerRow: 2_000 });
    expect(capped.step.details?.["rows compared only in part (search cap reached)"]).toBeGreaterThan(300);
    expect(capped.step.note).toMatch(/approximate for [\d,]+ rows: their search stopped at 2,000 steps/);
    const exact = filterNearDuplicates(rows, { threshold: 0.75, maxWorkPerRow: Infinity });
    expect(exact.step.details).toBeUndefined();
    expect(exact.step.note).toBe("cosine > 0.75");
    // The cap only ever misses near-duplicates: whatever it removes, the exact search removes too.
    const exactRemoved = new Set([...exact.duplicateOf.keys()].map((r) => r.externalId));
    for (const r of capped.duplicateOf.keys()) expect(exactRemoved.has(r.externalId)).toBe(true);
  });
});
