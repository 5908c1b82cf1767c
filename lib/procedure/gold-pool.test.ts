import { describe, expect, it } from "vitest";
import { checkGoldPool } from "./gold-pool";

const settings = { goldPerHit: 2, qualification: { questions: 6, passCorrect: 4 } };
const labels = ["a", "b", "c"];

describe("gold pool check", () => {
  it("needs the event's questions + goldPerHit (not a fixed number)", () => {
    expect(checkGoldPool(new Map([["a", 3], ["b", 3], ["c", 1]]), { labels, settings })).toMatchObject({ total: 7, needed: 8, tooSmall: true });
    expect(checkGoldPool(new Map([["a", 3], ["b", 3], ["c", 2]]), { labels, settings })).toMatchObject({ total: 8, needed: 8, tooSmall: false });
    expect(checkGoldPool(new Map([["a", 30]]), { labels, settings: { goldPerHit: 10, qualification: { questions: 25, passCorrect: 15 } } })).toMatchObject({ needed: 35, tooSmall: true });
  });

  it("flags a pool whose smallest class is under a quarter of the largest, or with one class only", () => {
    const balanced = checkGoldPool(new Map([["a", 8], ["b", 2]]), { labels, settings });
    expect(balanced).toMatchObject({ balance: 0.25, unbalanced: false, missing: ["c"] });
    expect(checkGoldPool(new Map([["a", 9], ["b", 2]]), { labels, settings }).unbalanced).toBe(true);
    expect(checkGoldPool(new Map([["a", 20]]), { labels, settings }).unbalanced).toBe(true);
    expect(checkGoldPool(new Map(), { labels, settings })).toMatchObject({ total: 0, tooSmall: true, unbalanced: false, balance: 0 });
  });
});
