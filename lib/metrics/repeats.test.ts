import { describe, expect, it } from "vitest";
import { RepeatJudgmentsError, repeatsNote, resolveRepeats } from "./repeats";

// rows: item, annotator, time (undefined = no time)
const rows: Array<[string, string, number | undefined]> = [
  ["t1", "a", 30],
  ["t1", "b", 10],
  ["t1", "a", 20], // a's earlier judgment of t1, later in the file
  ["t2", "a", undefined],
  ["t2", "a", undefined],
  ["t1", "a", 20], // same time as row 2: file order breaks the tie
];
const input = {
  count: rows.length,
  item: (r: number) => rows[r][0],
  annotator: (r: number) => rows[r][1],
  order: (r: number) => rows[r][2],
};

describe("resolveRepeats", () => {
  it("first keeps each worker's earliest judgment by time, then file order", () => {
    const res = resolveRepeats(input, "first");
    expect(res.keep).toEqual([1, 2, 3]);
    expect(res.setAside).toBe(3);
    expect(res.repeats).toEqual([
      { item: "t1", annotator: "a", rows: [0, 2, 5] },
      { item: "t2", annotator: "a", rows: [3, 4] },
    ]);
  });

  it("last keeps the latest by time, then the later row", () => {
    expect(resolveRepeats(input, "last").keep).toEqual([0, 1, 4]);
  });

  it("without times, first and last are file order", () => {
    const plain = { ...input, order: undefined };
    expect(resolveRepeats(plain, "first").keep).toEqual([0, 1, 3]);
    expect(resolveRepeats(plain, "last").keep).toEqual([1, 4, 5]);
  });

  it("refuse throws naming the option and the rows", () => {
    expect(() => resolveRepeats(input, "refuse")).toThrow(RepeatJudgmentsError);
    expect(() => resolveRepeats(input, "refuse", { option: "--repeats" })).toThrow(
      /^3 repeat judgments .*item "t1" by annotator "a" on rows 1, 3, 6; item "t2" .*choose --repeats first .* or --repeats last/,
    );
  });

  it("refuse passes data without repeats; a scope separates the same item in two events", () => {
    const two = { count: 2, item: () => "t1", annotator: () => "a", scope: (r: number) => ["e1", "e2"][r] };
    expect(resolveRepeats(two, "refuse")).toEqual({ keep: [0, 1], setAside: 0, repeats: [] });
    expect(resolveRepeats({ ...two, scope: undefined }, "first").setAside).toBe(1);
  });

  it("says what it set aside", () => {
    expect(repeatsNote(1, "first")).toBe("1 repeat judgment set aside (--repeats first)");
    expect(repeatsNote(8, "last", "repeats:")).toBe("8 repeat judgments set aside (repeats: last)");
  });
});
