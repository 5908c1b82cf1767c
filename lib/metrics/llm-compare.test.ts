import { describe, expect, it } from "vitest";
import { createRng, seedFrom } from "@/lib/util/random";
import { resampleWeights } from "./bootstrap";
import { cohensKappa } from "./cohen";
import { llmCompare, llmRunCost, majorityOverPasses, type CompareTweet } from "./llm-compare";

describe("llmCompare on a hand-built event", () => {
  // accepted → LLM: a→a ×4, a→b ×2, b→b ×3, b→a ×1, c→c ×2, c→b ×1 (no answer on one more c); gold 3 of 4 right.
  const rows: Array<[string, string | null]> = [
    ["a", "a"], ["a", "a"], ["a", "a"], ["a", "a"], ["a", "b"], ["a", "b"],
    ["b", "b"], ["b", "b"], ["b", "b"], ["b", "a"],
    ["c", "c"], ["c", "c"], ["c", "b"], ["c", null],
  ];
  const tweets: CompareTweet[] = rows.map(([accepted, llm], i) => ({ tweet: `t${i}`, accepted, llm }));
  tweets.push({ tweet: "g1", gold: "a", llm: "a" }, { tweet: "g2", gold: "b", llm: "b" }, { tweet: "g3", gold: "c", llm: "c" }, { tweet: "g4", gold: "c", llm: "a" });
  const r = llmCompare(tweets, ["a", "b", "c"], { resamples: 400 });

  it("counts the confusion table, no answers and gold accuracy", () => {
    expect(r.confusion).toEqual([[4, 2, 0], [1, 3, 0], [0, 1, 2]]);
    expect(r.noAnswer).toEqual([0, 0, 1]);
    expect(r.compared).toBe(13);
    expect(r.gold).toEqual({ correct: 3, total: 4, accuracy: 0.75 });
  });
  it("gives Cohen's κ of the accepted and LLM labels (the same as cohensKappa) and a bootstrap interval around it", () => {
    const both = rows.filter(([, l]) => l !== null);
    const direct = cohensKappa(both.map(([a]) => a), both.map(([, l]) => l));
    expect(r.kappa).toBeCloseTo(direct.kappa, 12);
    expect(r.agreement).toBeCloseTo(9 / 13, 12);
    const [lo, hi] = r.kappaInterval!;
    expect(lo).toBeLessThan(r.kappa!);
    expect(hi).toBeGreaterThan(r.kappa!);
    expect(llmCompare(tweets, ["a", "b", "c"], { resamples: 400 }).kappaInterval).toEqual(r.kappaInterval);
    // The resamples are resampleWeights' draws (the Table 3 bootstrap's): recomputed that way, the same interval.
    const rng = createRng(seedFrom("llm-compare", both.length));
    const ks: number[] = [];
    for (let b = 0; b < 400; b++) {
      const w = resampleWeights(both.length, rng);
      const a: string[] = [];
      const l: string[] = [];
      both.forEach(([x, y], i) => {
        for (let c = 0; c < w[i]; c++) {
          a.push(x);
          l.push(y as string);
        }
      });
      const k = cohensKappa(a, l).kappa;
      if (Number.isFinite(k)) ks.push(k);
    }
    ks.sort((x, y) => x - y);
    const at = (p: number) => ks[Math.min(ks.length - 1, Math.floor(p * ks.length))];
    expect(r.kappaInterval![0]).toBeCloseTo(at(0.025), 12);
    expect(r.kappaInterval![1]).toBeCloseTo(at(0.975), 12);
  });
  it("lists the class pairs where they disagree most, with example tweets", () => {
    expect(r.pairs).toEqual([
      { accepted: "a", llm: "b", count: 2, examples: ["t4", "t5"] },
      { accepted: "b", llm: "a", count: 1, examples: ["t9"] },
      { accepted: "c", llm: "b", count: 1, examples: ["t12"] },
    ]);
  });
  it("has no κ and no interval without a compared tweet", () => {
    const none = llmCompare([{ tweet: "x", accepted: "a", llm: null }], ["a", "b"]);
    expect([none.compared, none.kappa, none.kappaInterval, none.agreement, none.gold.accuracy]).toEqual([0, null, null, null, null]);
  });
});

describe("the LLM's label over passes and a run's cost", () => {
  it("takes the most frequent answer; a tie or no answer gives no label", () => {
    expect(majorityOverPasses(["a"])).toBe("a");
    expect(majorityOverPasses(["a", "b", "a"])).toBe("a");
    expect(majorityOverPasses(["a", null, null])).toBe("a");
    expect(majorityOverPasses(["a", "b"])).toBeNull();
    expect(majorityOverPasses([null, null])).toBeNull();
  });
  it("prices prompt and completion tokens per million", () => {
    expect(llmRunCost({ promptTokens: 2_000_000, completionTokens: 500_000, inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 })).toBeCloseTo(0.6, 12);
  });
});
