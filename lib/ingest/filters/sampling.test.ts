import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { evenAllocation, NO_CLASS, sampleByClass, sampleRows } from "./sampling";

const counts = (o: Record<string, number>) => new Map(Object.entries(o));

describe("sampling", () => {
  it("takes n per class, fewer where a class has fewer", () => {
    expect(Object.fromEntries(evenAllocation(counts({ a: 100, b: 3, c: 50 }), { perClass: 10 }))).toEqual({ a: 10, b: 3, c: 10 });
  });

  it("splits a budget as evenly as the classes allow", () => {
    // 25 over classes of 100, 3 and 50: b gives all 3, a and c share 22 evenly.
    expect(Object.fromEntries(evenAllocation(counts({ a: 100, b: 3, c: 50 }), { budget: 25 }))).toEqual({ a: 11, b: 3, c: 11 });
    const odd = evenAllocation(counts({ a: 100, b: 3, c: 50 }), { budget: 26, seed: 5 });
    expect([...odd.values()].reduce((s, v) => s + v, 0)).toBe(26);
    expect([odd.get("a"), odd.get("c")].sort()).toEqual([11, 12]);
    expect(Object.fromEntries(evenAllocation(counts({ a: 5, b: 3 }), { budget: 100 }))).toEqual({ a: 5, b: 3 });
    expect(Object.fromEntries(evenAllocation(counts({ a: 100, b: 100 }), { perClass: 30, budget: 40 }))).toEqual({ a: 20, b: 20 });
  });

  it("is seeded: same seed, same sample; another seed, another sample; input order kept", () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ i, c: ["x", "y", "z"][i % 3] }));
    const one = sampleByClass(items, (t) => t.c, { perClass: 20, seed: 11 }).sample.map((t) => t.i);
    const again = sampleByClass(items, (t) => t.c, { perClass: 20, seed: 11 }).sample.map((t) => t.i);
    const other = sampleByClass(items, (t) => t.c, { perClass: 20, seed: 12 }).sample.map((t) => t.i);
    expect(one).toEqual(again);
    expect(one).not.toEqual(other);
    expect(one).toHaveLength(60);
    expect([...one].sort((a, b) => a - b)).toEqual(one);
  });

  it("samples rows by label or by prediction, unlabelled rows forming their own class", () => {
    const rows: IngestRow[] = Array.from({ length: 40 }, (_, i) => ({
      line: i + 2,
      externalId: String(i),
      text: `t${i}`,
      ...(i % 4 === 3 ? {} : { label: i % 2 ? "a" : "b" }),
      predictedLabel: i < 10 ? "p" : "q",
    }));
    const byLabel = sampleRows(rows, { enabled: true, by: "label", perClass: 5, seed: 3 });
    expect(byLabel.rows).toHaveLength(15);
    expect(byLabel.step.details).toEqual({ "a (of 10)": 5, "b (of 20)": 5, [`${NO_CLASS} (of 10)`]: 5 });
    expect(byLabel.step.reasons).toEqual({ "not sampled": 25 });
    const byPrediction = sampleRows(rows, { enabled: true, by: "prediction", budget: 12, seed: 3 });
    expect(byPrediction.rows.filter((r) => r.predictedLabel === "p")).toHaveLength(6);
    expect(sampleRows(rows, {}).step).toMatchObject({ enabled: false, kept: 40 });
  });
});
