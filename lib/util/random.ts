/**
 * Seeded pseudo-random numbers (mulberry32): reproducible HIT packing, sampling, splits and
 * simulated workers. Not for secrets (use node:crypto for those).
 */
export type Rng = () => number;

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from any string (FNV-1a), e.g. to derive a per-HIT seed from an event seed and a HIT number. */
export function seedFrom(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join("\u0000")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Integer in [0, n). */
export function randomInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** Fisher–Yates shuffle in place; returns the same array. */
export function shuffleInPlace<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}

export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  return shuffleInPlace(items.slice(), rng);
}

/** Picks one element uniformly. */
export function pick<T>(items: readonly T[], rng: Rng): T {
  if (items.length === 0) throw new Error("pick from an empty list");
  return items[randomInt(rng, items.length)];
}
