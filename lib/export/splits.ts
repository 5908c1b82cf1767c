import { z } from "zod";
import { UserError } from "@/lib/errors";
import { createRng, seedFrom, shuffleInPlace } from "@/lib/util/random";

/**
 * HumAID-style train/dev/test splits (paper §5): labels with fewer than `minPerLabel` items are
 * dropped ("low prevalent classes", < 15 tweets), then every remaining label is split on its own
 * in the given ratios (70/10/20 by default), so each split keeps the label distribution.
 *
 * Reproducible: the result depends only on the set of (id, label) rows and the seed — not on the
 * order of the input. Within each split, rows keep their input order.
 */

export type SplitRow = { id: string; label: string };

export type HumaidSplit<T extends SplitRow> = {
  train: T[];
  dev: T[];
  test: T[];
  dropped: {
    /** label → count for the labels with fewer than minPerLabel rows. */
    labels: Record<string, number>;
    rows: T[];
  };
  /** label → { train, dev, test } counts (kept labels only), the paper's Table 6. */
  counts: Record<string, { train: number; dev: number; test: number }>;
};

const optionsSchema = z.object({
  seed: z.union([z.number().int(), z.string()]),
  ratios: z
    .tuple([z.number().min(0), z.number().min(0), z.number().min(0)])
    .refine(([a, b, c]) => Math.abs(a + b + c - 1) < 1e-9, { message: "ratios must add up to 1" }),
  minPerLabel: z.number().int().min(1),
});

/** Split sizes for n items: dev and test rounded from their ratios, train takes the rest. */
export function splitSizes(n: number, ratios: readonly [number, number, number]): { train: number; dev: number; test: number } {
  const test = Math.min(n, Math.round(n * ratios[2]));
  const dev = Math.min(n - test, Math.round(n * ratios[1]));
  return { train: n - dev - test, dev, test };
}

export function splitHumaid<T extends SplitRow>({
  rows,
  seed,
  ratios = [0.7, 0.1, 0.2],
  minPerLabel = 15,
}: {
  rows: readonly T[];
  seed: number | string;
  ratios?: [number, number, number];
  minPerLabel?: number;
}): HumaidSplit<T> {
  const parsed = optionsSchema.safeParse({ seed, ratios, minPerLabel });
  if (!parsed.success) {
    throw new UserError(`invalid split options: ${parsed.error.issues.map((i) => i.message).join("; ")}`, "invalid_split");
  }
  const byLabel = new Map<string, number[]>();
  const ids = new Set<string>();
  rows.forEach((row, i) => {
    if (ids.has(row.id)) throw new UserError(`duplicate id "${row.id}" in the rows to split`, "invalid_split");
    ids.add(row.id);
    const list = byLabel.get(row.label);
    if (list) list.push(i);
    else byLabel.set(row.label, [i]);
  });

  const assignment = new Array<"train" | "dev" | "test" | "dropped">(rows.length);
  const dropped: Record<string, number> = {};
  const counts: HumaidSplit<T>["counts"] = {};
  for (const label of [...byLabel.keys()].sort()) {
    const members = byLabel.get(label) as number[];
    if (members.length < minPerLabel) {
      dropped[label] = members.length;
      for (const i of members) assignment[i] = "dropped";
      continue;
    }
    // Canonical order first (by id), then a shuffle seeded by (seed, label): input order is irrelevant.
    members.sort((a, b) => (rows[a].id < rows[b].id ? -1 : rows[a].id > rows[b].id ? 1 : 0));
    shuffleInPlace(members, createRng(seedFrom("humaid-split", seed, label)));
    const size = splitSizes(members.length, ratios);
    counts[label] = size;
    members.forEach((i, rank) => {
      assignment[i] = rank < size.test ? "test" : rank < size.test + size.dev ? "dev" : "train";
    });
  }

  const out: HumaidSplit<T> = { train: [], dev: [], test: [], dropped: { labels: dropped, rows: [] }, counts };
  rows.forEach((row, i) => {
    const part = assignment[i];
    if (part === "dropped") out.dropped.rows.push(row);
    else out[part].push(row);
  });
  return out;
}
