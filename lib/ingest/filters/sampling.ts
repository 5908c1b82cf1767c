import { createRng, shuffleInPlace } from "@/lib/util/random";
import { type FunnelStep, skippedStep, StepCounter } from "../funnel";
import type { IngestRow } from "../rows";

/**
 * Step 6 (HumAID §3.2): n tweets per class, as evenly as the classes allow, up to an annotation budget;
 * seeded, so the same input and seed give the same sample. The class is the row's label or the
 * classifier's prediction; rows without one form their own class.
 */
export const NO_CLASS = "(no class)";

/**
 * How many to take from each class: min(count, perClass), and when that exceeds the budget, the most
 * even split the budget allows (water-filling: every class gets min(count, level); the few units left
 * over go to classes that still have rows, in a seeded order).
 */
export function evenAllocation(
  counts: ReadonlyMap<string, number>,
  { perClass = null, budget = null, seed = 1 }: { perClass?: number | null; budget?: number | null; seed?: number },
): Map<string, number> {
  const classes = [...counts.keys()].sort();
  const cap = new Map(classes.map((c) => [c, Math.min(counts.get(c) ?? 0, perClass ?? Infinity)]));
  const total = classes.reduce((s, c) => s + (cap.get(c) as number), 0);
  if (budget === null || total <= budget) return cap;
  // Largest level L with Σ min(cap, L) ≤ budget.
  let lo = 0;
  let hi = Math.max(0, ...cap.values());
  const used = (level: number) => classes.reduce((s, c) => s + Math.min(cap.get(c) as number, level), 0);
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (used(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const alloc = new Map(classes.map((c) => [c, Math.min(cap.get(c) as number, lo)]));
  let left = budget - used(lo);
  const open = shuffleInPlace(
    classes.filter((c) => (cap.get(c) as number) > lo),
    createRng(seed),
  );
  for (const c of open) {
    if (left === 0) break;
    alloc.set(c, (alloc.get(c) as number) + 1);
    left--;
  }
  return alloc;
}

/** The sampled items, in their input order. */
export function sampleByClass<T>(
  items: readonly T[],
  classOf: (item: T) => string,
  options: { perClass?: number | null; budget?: number | null; seed?: number },
): { sample: T[]; allocation: Map<string, number>; counts: Map<string, number> } {
  const byClass = new Map<string, number[]>();
  items.forEach((item, i) => {
    const c = classOf(item);
    let list = byClass.get(c);
    if (!list) byClass.set(c, (list = []));
    list.push(i);
  });
  const counts = new Map([...byClass].map(([c, l]) => [c, l.length]));
  const allocation = evenAllocation(counts, options);
  const chosen = new Uint8Array(items.length);
  for (const c of [...byClass.keys()].sort()) {
    const rng = createRng(((options.seed ?? 1) ^ hashClass(c)) >>> 0);
    const picked = shuffleInPlace((byClass.get(c) as number[]).slice(), rng).slice(0, allocation.get(c) ?? 0);
    for (const i of picked) chosen[i] = 1;
  }
  return { sample: items.filter((_, i) => chosen[i] === 1), allocation, counts };
}

function hashClass(c: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < c.length; i++) h = Math.imul(h ^ c.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function sampleRows(
  rows: IngestRow[],
  {
    enabled = false,
    by = "label",
    perClass = null,
    budget = null,
    seed = 1,
  }: { enabled?: boolean; by?: "label" | "prediction"; perClass?: number | null; budget?: number | null; seed?: number },
): { rows: IngestRow[]; step: FunnelStep } {
  if (!enabled) return { rows, step: skippedStep("sampling", rows.length, "switched off") };
  const classOf = (r: IngestRow) => (by === "label" ? r.label : r.predictedLabel) ?? NO_CLASS;
  const { sample, allocation, counts } = sampleByClass(rows, classOf, { perClass, budget, seed });
  const counter = new StepCounter();
  const chosen = new Set(sample);
  for (const row of rows) if (!chosen.has(row)) counter.remove("not sampled", row);
  for (const [c, n] of [...allocation].sort((a, b) => a[0].localeCompare(b[0]))) counter.count(`${c} (of ${counts.get(c)})`, n);
  const parts = [perClass !== null ? `${perClass} per ${by === "label" ? "label" : "predicted class"}` : null, budget !== null ? `budget ${budget}` : null, `seed ${seed}`];
  return { rows: sample, step: counter.step("sampling", rows.length, { note: parts.filter(Boolean).join(", ") }) };
}
