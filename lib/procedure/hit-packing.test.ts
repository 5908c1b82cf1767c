import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { assignGoldForWorker, packHits, pickGoldForWorker } from "./hit-packing";
import { DEFAULT_PROCEDURE_SETTINGS as S } from "./settings";

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("packHits", () => {
  const unknown = ids("u", 205);
  const gold = ids("g", 37);
  const packed = packHits({ unknownIds: unknown, goldIds: gold, seed: 42, settings: S });

  it("builds 30-item HITs of 10 gold + 20 unknown and reports the partial rest", () => {
    expect(packed.hits).toHaveLength(10);
    for (const hit of packed.hits) {
      expect(hit.items).toHaveLength(30);
      expect(hit.items.filter((i) => i.isGold)).toHaveLength(10);
      expect(hit.partial).toBe(false);
      expect(new Set(hit.items.map((i) => i.tweetId)).size).toBe(30);
      expect(hit.items.map((i) => i.position)).toEqual([...Array(30).keys()]);
      for (const it of hit.items) expect(it.isGold).toBe(it.tweetId.startsWith("g"));
    }
    expect(packed.partial?.unknownIds).toHaveLength(5);
    expect(packed.partial?.missing).toBe(15);
    const used = new Set([...packed.hits.flatMap((h) => h.items.map((i) => i.tweetId)), ...(packed.partial?.unknownIds ?? [])]);
    for (const u of unknown) expect(used.has(u)).toBe(true);
    const unknownCount = packed.hits.flatMap((h) => h.items.filter((i) => !i.isGold)).length;
    expect(unknownCount).toBe(200);
  });

  it("is reproducible for a seed and differs for another seed", () => {
    expect(packHits({ unknownIds: unknown, goldIds: gold, seed: 42, settings: S })).toEqual(packed);
    const other = packHits({ unknownIds: unknown, goldIds: gold, seed: 43, settings: S });
    expect(other.hits[0].items).not.toEqual(packed.hits[0].items);
  });

  it("shuffles gold positions per HIT", () => {
    const patterns = new Set(packed.hits.map((h) => h.items.map((i) => (i.isGold ? 1 : 0)).join("")));
    expect(patterns.size).toBeGreaterThan(5);
  });

  it("reuses gold evenly (usage counts differ by at most one) and rotates it", () => {
    const counts = Object.values(packed.goldUsage);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(100);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    // consecutive HITs share no gold while 37 ≥ 2·10
    for (let h = 1; h < packed.hits.length; h++) {
      const prev = new Set(packed.hits[h - 1].items.filter((i) => i.isGold).map((i) => i.tweetId));
      expect(packed.hits[h].items.filter((i) => i.isGold && prev.has(i.tweetId))).toHaveLength(0);
    }
  });

  it("continues balanced usage from priorGoldUsage", () => {
    const prior: Record<string, number> = Object.fromEntries(gold.map((g, i) => [g, i < 10 ? 5 : 0]));
    const next = packHits({ unknownIds: ids("v", 60), goldIds: gold, seed: 1, settings: S, priorGoldUsage: prior });
    const firstThree = next.hits.flatMap((h) => h.items.filter((i) => i.isGold).map((i) => i.tweetId));
    for (const g of firstThree) expect(Number(g.slice(1))).toBeGreaterThanOrEqual(10);
    expect(next.goldUsage.g0).toBe(5);
  });

  it("packs the partial HIT only when asked", () => {
    const p = packHits({ unknownIds: unknown, goldIds: gold, seed: 42, settings: S, includePartial: true });
    expect(p.partial).toBeNull();
    expect(p.hits).toHaveLength(11);
    expect(p.hits[10]).toMatchObject({ partial: true });
    expect(p.hits[10].items).toHaveLength(15);
    const small = packHits({ unknownIds: ids("u", 7), goldIds: gold, seed: 1, settings: S });
    expect(small.hits).toHaveLength(0);
    expect(small.partial?.unknownIds.sort()).toEqual(ids("u", 7).sort());
  });

  it("never repeats gold for a known worker while the pool allows", () => {
    const seen = ids("g", 17); // 20 unseen left: two HITs without repeats
    const p = packHits({
      unknownIds: ids("u", 60),
      goldIds: gold,
      seed: 9,
      settings: S,
      workerHistory: { seenGoldIds: seen },
    });
    const shown = p.hits.slice(0, 2).flatMap((h) => h.items.filter((i) => i.isGold).map((i) => i.tweetId));
    expect(new Set(shown).size).toBe(20);
    for (const g of shown) expect(seen.includes(g)).toBe(false);
    expect(p.goldRepeatsForWorker).toBe(10); // only the third HIT had to repeat
  });

  it("refuses bad pools with clear errors", () => {
    expect(() => packHits({ unknownIds: ["a", "a"], goldIds: gold, seed: 1, settings: S })).toThrow(/twice: a/);
    expect(() => packHits({ unknownIds: ["a"], goldIds: ["g0", "g0", ...gold], seed: 1, settings: S })).toThrow(UserError);
    expect(() => packHits({ unknownIds: ["g1"], goldIds: gold, seed: 1, settings: S })).toThrow(/both gold and unknown/);
    expect(() => packHits({ unknownIds: ids("u", 20), goldIds: ids("g", 9), seed: 1, settings: S })).toThrow(
      /needs 10 different gold tweets but the gold pool has 9/,
    );
  });

  it("packs a HumAID-sized event quickly enough to run in a request-free job (smoke)", () => {
    const p = packHits({ unknownIds: ids("u", 30000), goldIds: ids("g", 400), seed: 3, settings: S });
    expect(p.hits).toHaveLength(1500);
    const counts = Object.values(p.goldUsage);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });
});

describe("gold for a worker", () => {
  const gold = ids("g", 25);

  it("picks unseen gold first, then the least used", () => {
    const r = pickGoldForWorker({ goldIds: gold, count: 10, seenGoldIds: ids("g", 12), seed: 1 });
    expect(r.repeats).toBe(0);
    for (const g of r.goldIds) expect(Number(g.slice(1))).toBeGreaterThanOrEqual(12);
    const r2 = pickGoldForWorker({ goldIds: gold, count: 10, seenGoldIds: ids("g", 20), seed: 1 });
    expect(r2.repeats).toBe(5);
    const usage = Object.fromEntries(gold.map((g, i) => [g, i]));
    const r3 = pickGoldForWorker({ goldIds: gold, count: 3, seenGoldIds: [], goldUsage: usage, seed: 1 });
    expect(r3.goldIds.sort()).toEqual(["g0", "g1", "g2"]);
    expect(() => pickGoldForWorker({ goldIds: gold, count: 26, seenGoldIds: [], seed: 1 })).toThrow(UserError);
  });

  it("re-golds a packed HIT keeping unknown tweets and positions", () => {
    const { hits } = packHits({ unknownIds: ids("u", 20), goldIds: gold, seed: 5, settings: S });
    const seen = hits[0].items.filter((i) => i.isGold).map((i) => i.tweetId);
    const { hit, repeats } = assignGoldForWorker({ hit: hits[0], goldIds: gold, seenGoldIds: seen, seed: 5 });
    expect(repeats).toBe(0);
    hit.items.forEach((it, i) => {
      expect(it.isGold).toBe(hits[0].items[i].isGold);
      expect(it.position).toBe(i);
      if (!it.isGold) expect(it.tweetId).toBe(hits[0].items[i].tweetId);
      else expect(seen.includes(it.tweetId)).toBe(false);
    });
  });
});
