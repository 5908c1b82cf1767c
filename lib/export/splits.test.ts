import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { createRng, shuffled } from "@/lib/util/random";
import { splitHumaid, splitSizes } from "./splits";

function rowsOf(counts: Record<string, number>) {
  return Object.entries(counts).flatMap(([label, n]) =>
    Array.from({ length: n }, (_, i) => ({ id: `${label}-${i}`, label, extra: i })),
  );
}

describe("splitHumaid", () => {
  const rows = rowsOf({ a: 100, b: 37, c: 15, d: 14, e: 3 });

  it("drops labels under minPerLabel and splits the rest 70/10/20 per label", () => {
    const s = splitHumaid({ rows, seed: 7 });
    expect(s.dropped.labels).toEqual({ d: 14, e: 3 });
    expect(s.dropped.rows).toHaveLength(17);
    expect(s.counts).toEqual({
      a: { train: 70, dev: 10, test: 20 },
      b: { train: 26, dev: 4, test: 7 },
      c: { train: 10, dev: 2, test: 3 },
    });
    for (const part of ["train", "dev", "test"] as const) {
      for (const label of ["a", "b", "c"]) {
        expect(s[part].filter((r) => r.label === label)).toHaveLength(s.counts[label][part]);
      }
    }
    // a partition: every kept row exactly once
    const all = [...s.train, ...s.dev, ...s.test, ...s.dropped.rows].map((r) => r.id).sort();
    expect(all).toEqual(rows.map((r) => r.id).sort());
    // rows are passed through untouched
    expect(s.train[0]).toHaveProperty("extra");
  });

  it("is reproducible, independent of input order, and changes with the seed", () => {
    const ids = (s: ReturnType<typeof splitHumaid>) => ({
      train: s.train.map((r) => r.id).sort(),
      dev: s.dev.map((r) => r.id).sort(),
      test: s.test.map((r) => r.id).sort(),
    });
    const first = ids(splitHumaid({ rows, seed: 7 }));
    expect(ids(splitHumaid({ rows, seed: 7 }))).toEqual(first);
    expect(ids(splitHumaid({ rows: shuffled(rows, createRng(1)), seed: 7 }))).toEqual(first);
    expect(ids(splitHumaid({ rows, seed: 8 })).test).not.toEqual(first.test);
    expect(ids(splitHumaid({ rows, seed: "event-1" }))).toEqual(ids(splitHumaid({ rows, seed: "event-1" })));
  });

  it("keeps the input order inside each split", () => {
    const s = splitHumaid({ rows, seed: 3 });
    const position = new Map(rows.map((r, i) => [r.id, i]));
    for (const part of [s.train, s.dev, s.test]) {
      const pos = part.map((r) => position.get(r.id) as number);
      expect(pos).toEqual([...pos].sort((x, y) => x - y));
    }
  });

  it("accepts other ratios and thresholds", () => {
    const s = splitHumaid({ rows, seed: 1, ratios: [0.8, 0, 0.2], minPerLabel: 1 });
    expect(s.dropped.rows).toHaveLength(0);
    expect(s.dev).toHaveLength(0);
    expect(s.counts.e).toEqual({ train: 2, dev: 0, test: 1 });
  });

  it("sizes splits by rounding dev and test, train taking the rest", () => {
    expect(splitSizes(15, [0.7, 0.1, 0.2])).toEqual({ train: 10, dev: 2, test: 3 });
    expect(splitSizes(1, [0.7, 0.1, 0.2])).toEqual({ train: 1, dev: 0, test: 0 });
    expect(splitSizes(10, [0, 0, 1])).toEqual({ train: 0, dev: 0, test: 10 });
  });

  it("rejects duplicate ids and bad ratios", () => {
    expect(() => splitHumaid({ rows: [...rows, rows[0]], seed: 1 })).toThrow(/duplicate id/);
    expect(() => splitHumaid({ rows, seed: 1, ratios: [0.5, 0.1, 0.2] })).toThrow(UserError);
    expect(() => splitHumaid({ rows, seed: 1, minPerLabel: 0 })).toThrow(UserError);
  });
});
