import { describe, expect, it } from "vitest";
import { leafChanges, settingValueText } from "./leaf-changes";

describe("leafChanges", () => {
  it("lists each changed leaf by dot path, in key order; arrays are whole values", () => {
    const before = { tweetAcceptance: { num: 2, den: 3 }, qualification: { questions: 10, passCorrect: 6 }, release: { dropLabels: ["a"], minTweetsPerLabel: 15 }, hitSize: 30 };
    const after = { tweetAcceptance: { num: 3, den: 4 }, qualification: { questions: 10, passCorrect: 7 }, release: { dropLabels: [], minTweetsPerLabel: 15 }, hitSize: 30, extra: true };
    expect(leafChanges(before, after)).toEqual([
      { key: "extra", oldValue: null, newValue: true },
      { key: "qualification.passCorrect", oldValue: 6, newValue: 7 },
      { key: "release.dropLabels", oldValue: ["a"], newValue: [] },
      { key: "tweetAcceptance.den", oldValue: 3, newValue: 4 },
      { key: "tweetAcceptance.num", oldValue: 2, newValue: 3 },
    ]);
    const ratio = (v: unknown) => typeof v === "object" && v !== null && "num" in v && "den" in v;
    expect(leafChanges(before, after, { isLeaf: ratio }).map((c) => c.key)).toEqual(["extra", "qualification.passCorrect", "release.dropLabels", "tweetAcceptance"]);
    expect(leafChanges(before, after, { isLeaf: ratio }).at(-1)).toEqual({ key: "tweetAcceptance", oldValue: { num: 2, den: 3 }, newValue: { num: 3, den: 4 } });
  });

  it("finds nothing when the values are equal, and names a changed top-level value", () => {
    expect(leafChanges({ a: { b: [1, 2] } }, { a: { b: [1, 2] } })).toEqual([]);
    expect(leafChanges(1, 2)).toEqual([{ key: "(settings)", oldValue: 1, newValue: 2 }]);
  });
});

describe("settingValueText", () => {
  it("writes ratios, lists and missing values for people", () => {
    expect(settingValueText({ num: 3, den: 4 })).toBe("3/4");
    expect(settingValueText(["dont_know_cant_judge", "x"])).toBe("dont_know_cant_judge, x");
    expect(settingValueText([])).toBe("(none)");
    expect(settingValueText(null)).toBe("–");
    expect(settingValueText(false)).toBe("false");
    expect(settingValueText({ a: 1 })).toBe('{"a":1}');
  });
});
