import { describe, expect, it } from "vitest";
import { createRng, seedFrom, shuffled } from "./random";

describe("seeded random", () => {
  it("is reproducible for a seed and differs across seeds", () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
  it("shuffles into a permutation", () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const s = shuffled(items, createRng(seedFrom("event", 7)));
    expect(s).not.toEqual(items);
    expect([...s].sort((x, y) => x - y)).toEqual(items);
  });
});
