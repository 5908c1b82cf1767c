import { UserError } from "@/lib/errors";
import { createRng, seedFrom, shuffled, shuffleInPlace } from "@/lib/util/random";
import type { ProcedureSettings } from "./settings";

export type HitItem = { tweetId: string; isGold: boolean; /** 0-based display position in the HIT. */ position: number };

export type PackedHit = {
  /** 0-based HIT number within this packing (stable for a given seed and input). */
  index: number;
  /** Items in display order (items[i].position === i). */
  items: HitItem[];
  /** True only for a final HIT built from fewer unknown tweets (includePartial). */
  partial: boolean;
};

export type PackHitsResult = {
  hits: PackedHit[];
  /** Unknown tweets left over (fewer than unknownPerHit) and not packed; null when none. */
  partial: { unknownIds: string[]; missing: number } | null;
  /** How often each gold tweet is used, including priorGoldUsage: persist it for the next packing. */
  goldUsage: Record<string, number>;
  /** With workerHistory: gold items the worker had already seen (0 whenever the pool allows). */
  goldRepeatsForWorker: number;
};

type GoldSlot = { id: string; rank: number; usage: number; seen: number };

const byPreference = (a: GoldSlot, b: GoldSlot) => a.seen - b.seen || a.usage - b.usage || a.rank - b.rank;

/**
 * Packs an event's unknown pool into HITs of hitSize = goldPerHit gold + unknownPerHit unknown tweets (30 = 10 +
 * 20 by default).
 * - Reproducible: the same input and seed give the same HITs (unknown order, gold choice and positions all come
 *   from seeded generators derived from `seed`).
 * - No tweet twice in a HIT; a tweet may not be both gold and unknown.
 * - Gold is reused evenly: each HIT takes the least-used gold tweets (ties in a seeded rotation order), so usage
 *   counts never differ by more than one (starting from priorGoldUsage, which continues an earlier packing) and
 *   consecutive HITs share no gold while the pool allows.
 * - workerHistory (HITs packed for ONE known worker, e.g. the in-house crowd): gold the worker has already seen
 *   is used only when the pool has no unseen gold left.
 * - The last unknown tweets that do not fill a HIT are reported in `partial`, not padded; pass
 *   includePartial: true to pack them into a final smaller HIT (flagged partial: true).
 */
export function packHits({
  unknownIds,
  goldIds,
  seed,
  settings,
  workerHistory,
  priorGoldUsage,
  includePartial = false,
  shuffleUnknown = true,
}: {
  unknownIds: readonly string[];
  goldIds: readonly string[];
  seed: number | string;
  settings: Pick<ProcedureSettings, "goldPerHit" | "unknownPerHit">;
  workerHistory?: { seenGoldIds: Iterable<string> };
  priorGoldUsage?: Readonly<Record<string, number>>;
  includePartial?: boolean;
  shuffleUnknown?: boolean;
}): PackHitsResult {
  checkIds(unknownIds, goldIds, settings.goldPerHit);
  const { goldPerHit, unknownPerHit } = settings;
  const unknown = shuffleUnknown ? shuffled(unknownIds, createRng(seedFrom(seed, "unknown"))) : unknownIds.slice();
  const seen = new Set(workerHistory ? workerHistory.seenGoldIds : []);
  let pool: GoldSlot[] = shuffled(goldIds, createRng(seedFrom(seed, "gold"))).map((id, rank) => ({
    id,
    rank,
    usage: priorGoldUsage?.[id] ?? 0,
    seen: seen.has(id) ? 1 : 0,
  }));
  pool.sort(byPreference);

  const full = Math.floor(unknown.length / unknownPerHit);
  const leftover = unknown.length - full * unknownPerHit;
  const hitCount = full + (includePartial && leftover > 0 ? 1 : 0);
  const hits: PackedHit[] = [];
  let repeats = 0;
  for (let h = 0; h < hitCount; h++) {
    const chunk = unknown.slice(h * unknownPerHit, Math.min(unknown.length, (h + 1) * unknownPerHit));
    const picked = pool.slice(0, goldPerHit);
    const rest = pool.slice(goldPerHit);
    for (const g of picked) {
      if (workerHistory) {
        if (g.seen > 0) repeats++;
        g.seen++;
      }
      g.usage++;
    }
    // picked stays sorted among itself (all keys grew alike): one linear merge keeps the pool ordered.
    pool = mergeSorted(rest, picked, byPreference);
    hits.push({
      index: h,
      items: arrange(chunk, picked.map((g) => g.id), seedFrom(seed, "hit", h)),
      partial: chunk.length < unknownPerHit,
    });
  }

  const goldUsage: Record<string, number> = { ...(priorGoldUsage ?? {}) };
  for (const g of pool) goldUsage[g.id] = g.usage;
  const partial =
    !includePartial && leftover > 0
      ? { unknownIds: unknown.slice(full * unknownPerHit), missing: unknownPerHit - leftover }
      : null;
  return { hits, partial, goldUsage, goldRepeatsForWorker: repeats };
}

function arrange(unknown: readonly string[], gold: readonly string[], seed: number): HitItem[] {
  const items = [
    ...unknown.map((tweetId) => ({ tweetId, isGold: false })),
    ...gold.map((tweetId) => ({ tweetId, isGold: true })),
  ];
  shuffleInPlace(items, createRng(seed));
  return items.map((it, position) => ({ ...it, position }));
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], cmp: (x: T, y: T) => number): T[] {
  const out: T[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = cmp(a[i], b[j]) <= 0 ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

function checkIds(unknownIds: readonly string[], goldIds: readonly string[], goldPerHit: number): void {
  const dupes = (ids: readonly string[]) => {
    const seen = new Set<string>();
    const d: string[] = [];
    for (const id of ids) {
      if (id === "") throw new UserError("A tweet id is empty.", "invalid_pool");
      if (seen.has(id)) d.push(id);
      seen.add(id);
    }
    return { seen, d };
  };
  const u = dupes(unknownIds);
  if (u.d.length) throw new UserError(`Unknown pool lists tweets twice: ${sample(u.d)}.`, "invalid_pool");
  const g = dupes(goldIds);
  if (g.d.length) throw new UserError(`Gold pool lists tweets twice: ${sample(g.d)}.`, "invalid_pool");
  const both = goldIds.filter((id) => u.seen.has(id));
  if (both.length) throw new UserError(`Tweets are both gold and unknown: ${sample(both)}.`, "invalid_pool");
  if (goldIds.length < goldPerHit) {
    throw new UserError(
      `A HIT needs ${goldPerHit} different gold tweets but the gold pool has ${goldIds.length}.`,
      "not_enough_gold",
    );
  }
}

function sample(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(", ") : `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more`;
}

/**
 * Picks `count` gold tweets for one worker: never one the worker has seen while unseen gold remains, then the
 * least used overall (goldUsage), ties in a seeded random order. `repeats` says how many picks the worker had
 * already seen (0 whenever the pool allows).
 */
export function pickGoldForWorker({
  goldIds,
  count,
  seenGoldIds,
  goldUsage,
  seed,
  excludeIds,
}: {
  goldIds: readonly string[];
  count: number;
  seenGoldIds: Iterable<string>;
  goldUsage?: Readonly<Record<string, number>>;
  seed: number | string;
  excludeIds?: Iterable<string>;
}): { goldIds: string[]; repeats: number } {
  const seen = new Set(seenGoldIds);
  const exclude = new Set(excludeIds ?? []);
  const pool = [...new Set(goldIds)].filter((id) => !exclude.has(id));
  if (pool.length < count) {
    throw new UserError(`Need ${count} different gold tweets but only ${pool.length} are available.`, "not_enough_gold");
  }
  const slots = shuffled(pool, createRng(seedFrom(seed, "worker-gold"))).map((id, rank) => ({
    id,
    rank,
    usage: goldUsage?.[id] ?? 0,
    seen: seen.has(id) ? 1 : 0,
  }));
  slots.sort(byPreference);
  const picked = slots.slice(0, count);
  return { goldIds: picked.map((s) => s.id), repeats: picked.filter((s) => s.seen > 0).length };
}

/**
 * Re-golds a packed HIT for the worker about to see it (in-house crowd, or an ExternalQuestion served by
 * Accord): the unknown tweets and every position stay; the gold slots get gold the worker has not seen.
 */
export function assignGoldForWorker({
  hit,
  goldIds,
  seenGoldIds,
  goldUsage,
  seed,
}: {
  hit: PackedHit;
  goldIds: readonly string[];
  seenGoldIds: Iterable<string>;
  goldUsage?: Readonly<Record<string, number>>;
  seed: number | string;
}): { hit: PackedHit; repeats: number } {
  const slots = hit.items.filter((it) => it.isGold);
  const unknown = hit.items.filter((it) => !it.isGold).map((it) => it.tweetId);
  const { goldIds: picks, repeats } = pickGoldForWorker({
    goldIds,
    count: slots.length,
    seenGoldIds,
    goldUsage,
    seed: seedFrom(seed, "hit", hit.index),
    excludeIds: unknown,
  });
  let next = 0;
  const items = hit.items.map((it) => (it.isGold ? { ...it, tweetId: picks[next++] } : it));
  return { hit: { ...hit, items }, repeats };
}
