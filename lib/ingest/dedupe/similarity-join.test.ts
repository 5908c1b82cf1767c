import { describe, expect, it } from "vitest";
import { createRng, randomInt } from "@/lib/util/random";
import { adversarialTexts } from "../testing/adversarial";
import { perturb } from "../testing/perturb";
import { QUEENSLAND_FLOODS_2013, syntheticCrisisLexT6 } from "../testing/synthetic-datasets";
import { syntheticTweetStream } from "../testing/synthetic-tweets";
import { bruteForceNearDuplicates, bruteForceNearDuplicatesIndexed } from "./brute-force";
import { cosineFromCounts, dedupeTokens, featureCounts, normalizeForDedupe } from "./normalize";
import { findNearDuplicates } from "./similarity-join";
import type { NearDuplicateResult } from "./types";

function pairsOf(r: NearDuplicateResult): Array<[number, number, number]> {
  const p = r.pairs;
  if (!p) return [];
  return Array.from({ length: p.count }, (_, k) => [p.a[k], p.b[k], p.similarity[k]] as [number, number, number]);
}

function expectSame(fast: NearDuplicateResult, reference: NearDuplicateResult) {
  expect(fast.rows).toBe(reference.rows);
  expect(fast.tokenless).toBe(reference.tokenless);
  expect(fast.duplicates).toBe(reference.duplicates);
  expect(Array.from(fast.duplicateOf)).toEqual(Array.from(reference.duplicateOf));
  expect(pairsOf(fast)).toEqual(pairsOf(reference));
}

function sim(a: string, b: string): number {
  const va = featureCounts(dedupeTokens(a));
  const vb = featureCounts(dedupeTokens(b));
  let dot = 0;
  for (const [f, c] of va) dot += c * (vb.get(f) ?? 0);
  const norm = (v: Map<string, number>) => [...v.values()].reduce((s, c) => s + c * c, 0);
  return cosineFromCounts(dot, norm(va), norm(vb));
}

describe("near-duplicate definition", () => {
  it("normalises as specified: lowercase, no URLs, no mentions, no non-ASCII", () => {
    expect(normalizeForDedupe("RT @Red_Cross: Donate NOW https://t.co/Ab12 www.redcross.org/x — café")).toBe("rt : donate now    caf");
    expect(dedupeTokens("Hurricane-Harvey: 2 dead, 10pm #Houston @KHOU")).toEqual(["hurricane", "harvey", "2", "dead", "10pm", "houston"]);
    // Dropping non-ASCII joins what it separated, as the definition says.
    expect(dedupeTokens("naïve hello—world")).toEqual(["nave", "helloworld"]);
    expect(Object.fromEntries(featureCounts(["a", "b", "a", "b"]))).toEqual({ a: 2, b: 2, "a b": 2, "b a": 1 });
  });

  it("marks a row duplicate of the earliest earlier near-duplicate; tokenless rows take no part", () => {
    const texts = [
      "Flood waters rising in Houston stay safe", // 0
      "😀😀", // 1: no tokens
      "flood waters rising in houston, stay safe! http://t.co/abc", // 2: identical vector to 0
      "@abc Flood waters rising in Houston stay safe everyone", // 3: near 0 and 2
      "Donate to the Red Cross for Harvey victims", // 4
      "😀😀", // 5
    ];
    for (const mode of ["first", "all"] as const) {
      const r = findNearDuplicates(texts, { mode });
      expect(Array.from(r.duplicateOf)).toEqual([-1, -1, 0, 0, -1, -1]);
      expect(r.duplicates).toBe(2);
      expect(r.tokenless).toBe(2);
      expectSame(r, bruteForceNearDuplicates(texts, { mode }));
    }
    expect(pairsOf(findNearDuplicates(texts, { mode: "all" })).map(([a, b]) => [a, b])).toEqual([
      [0, 2],
      [0, 3],
      [2, 3],
    ]);
  });

  it("uses a strict threshold: a pair exactly at the threshold is not a near-duplicate", () => {
    const a = "the levee broke near the river tonight";
    const b = "the levee broke near the river this morning";
    const s = sim(a, b);
    expect(s).toBeGreaterThan(0.5);
    expect(s).toBeLessThan(1);
    expect(findNearDuplicates([a, b], { threshold: s }).duplicates).toBe(0);
    expect(findNearDuplicates([a, b], { threshold: s - 1e-12 }).duplicates).toBe(1);
    expect(bruteForceNearDuplicates([a, b], { threshold: s }).duplicates).toBe(0);
    expect(() => findNearDuplicates([a], { threshold: 1 })).toThrow(RangeError);
  });

  it("follows chains by the definition: any earlier row counts, duplicates included", () => {
    // Each text differs a little more from the first; later rows may only be near their neighbour.
    const base = "power lines down across the county roads closed avoid travel tonight please";
    const words = base.split(" ");
    const texts = words.map((_, k) => words.slice(0, words.length - k).concat(Array.from({ length: k }, (_, j) => `new${j}`)).join(" "));
    for (const threshold of [0.5, 0.75, 0.9]) {
      for (const mode of ["first", "all"] as const) {
        expectSame(findNearDuplicates(texts, { threshold, mode }), bruteForceNearDuplicates(texts, { threshold, mode }));
      }
    }
  });
});

describe("the per-row work cap (adversarial text)", () => {
  const texts = adversarialTexts({ rows: 600 });

  it("bounds each row's work; whatever a capped search finds is a true pair", () => {
    const exact = findNearDuplicates(texts, { mode: "all", maxWorkPerRow: Infinity });
    expectSame(exact, bruteForceNearDuplicatesIndexed(texts, { mode: "all" }));
    expect(exact.capped).toBe(0);
    const cap = 3_000;
    const capped = findNearDuplicates(texts, { mode: "all", maxWorkPerRow: cap });
    expect(capped.capped).toBeGreaterThan(500);
    expect(capped.maxWorkPerRow).toBe(cap);
    // One merge may run past the cap by at most both rows' feature lists.
    expect(capped.stats.maxRowWork).toBeLessThan(cap + 2_000);
    expect(capped.stats.probes).toBeLessThanOrEqual(texts.length * (cap / 2));
    const truePairs = new Set(pairsOf(exact).map(([a, b]) => `${a}:${b}`));
    for (const [a, b] of pairsOf(capped)) expect(truePairs.has(`${a}:${b}`)).toBe(true);
    expect(Array.from(capped.duplicateOf).every((d, i) => d < 0 || exact.duplicateOf[i] >= 0)).toBe(true);
  });

  it("the default cap leaves ordinary text exact", () => {
    const rng = createRng(3);
    const base = ["flooding closes the main bridge downtown", "shelters open at the high school gym tonight", "power is out across the east side"];
    const rows = Array.from({ length: 300 }, (_, k) => perturb(base[k % 3] + ` update ${k}`, rng));
    const r = findNearDuplicates(rows, { mode: "all" });
    expect(r.capped).toBe(0);
    expectSame(r, bruteForceNearDuplicatesIndexed(rows, { mode: "all" }));
    expect(() => findNearDuplicates(rows, { maxWorkPerRow: 0 })).toThrow(RangeError);
  });
});

describe("exactness on synthetic tweet streams (retweets, link variants, edits), against brute force", () => {
  // A CrisisLexT6-sized collection (60,082 tweets, many copies); the tests below take windows and samples of it.
  const t6 = syntheticCrisisLexT6().flatMap((e) => e.tweets);
  const other = syntheticTweetStream({ count: 20_000, seed: 26, event: QUEENSLAND_FLOODS_2013 });

  it("the indexed brute force equals the plain one", () => {
    const texts = t6.slice(0, 700).map((t) => t.text);
    expectSame(bruteForceNearDuplicatesIndexed(texts, { mode: "all" }), bruteForceNearDuplicates(texts, { mode: "all" }));
  });

  it("consecutive tweets of two events (retweet clusters), several thresholds, both modes", () => {
    const texts = t6.slice(9_300, 10_800).map((t) => t.text);
    for (const threshold of [0.5, 0.75, 0.9]) {
      const all = findNearDuplicates(texts, { threshold, mode: "all" });
      expectSame(all, bruteForceNearDuplicatesIndexed(texts, { threshold, mode: "all" }));
      const first = findNearDuplicates(texts, { threshold, mode: "first" });
      expect(Array.from(first.duplicateOf)).toEqual(Array.from(all.duplicateOf));
    }
    expect(findNearDuplicates(texts, { mode: "all" }).pairs?.count).toBeGreaterThan(20);
  });

  it("3,000 tweets sampled from both collections with perturbed copies", () => {
    const rng = createRng(42);
    const pool = [...t6.filter((_, i) => i % 37 === 0), ...other.filter((_, i) => i % 23 === 0)];
    const texts: string[] = [];
    while (texts.length < 3_000) {
      const t = pool[randomInt(rng, pool.length)].text;
      texts.push(rng() < 0.3 ? perturb(t, rng) : t);
    }
    for (const threshold of [0.6, 0.75, 0.85]) {
      const reference = bruteForceNearDuplicatesIndexed(texts, { threshold, mode: "all" });
      expectSame(findNearDuplicates(texts, { threshold, mode: "all" }), reference);
      expect(Array.from(findNearDuplicates(texts, { threshold, mode: "first" }).duplicateOf)).toEqual(Array.from(reference.duplicateOf));
      expect(reference.pairs?.count).toBeGreaterThan(300);
    }
  });

  it("short tweets, where prefixes are long and bounds are tight", () => {
    const short = [...new Set(t6.concat(other).map((t) => t.text))].filter((t) => dedupeTokens(t).length <= 6).slice(0, 3_000);
    expect(short.length).toBe(3_000);
    const rng = createRng(7);
    const texts = short.concat(short.slice(0, 600).map((t) => perturb(t, rng)));
    for (const threshold of [0.55, 0.75]) {
      expectSame(findNearDuplicates(texts, { threshold, mode: "all" }), bruteForceNearDuplicatesIndexed(texts, { threshold, mode: "all" }));
    }
  });
});
