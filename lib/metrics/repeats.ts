import { UserError } from "@/lib/errors";

/**
 * Repeat judgments: the same annotator on the same item more than once (real exports hold a few, minutes apart).
 * A stated policy decides which one counts: "first" keeps a worker's earliest judgment of an item (by its time,
 * then file order), "last" the latest, "refuse" stops. The same policy and wording serve `accord agreement` and
 * the judgment import.
 */
export type RepeatPolicy = "first" | "last" | "refuse";

export const REPEAT_POLICIES: readonly RepeatPolicy[] = ["first", "last", "refuse"];

/** One item × annotator pair judged more than once; rows are input row indexes in input order. */
export type Repeat = { item: string; annotator: string; rows: number[] };

export type RepeatResolution = {
  /** Input row indexes kept, ascending. */
  keep: number[];
  /** Rows set aside (0 when there were no repeats). */
  setAside: number;
  repeats: Repeat[];
};

export type RepeatInput = {
  count: number;
  item: (row: number) => string;
  annotator: (row: number) => string;
  /** A scope the item belongs to (e.g. its event): the same item in two scopes is no repeat. */
  scope?: (row: number) => string;
  /** The judgment's time (e.g. epoch ms); undefined or NaN sorts after every timed row. */
  order?: (row: number) => number | undefined;
};

/** Thrown by the "refuse" policy; the message names the option that resolves it. */
export class RepeatJudgmentsError extends UserError {
  constructor(
    readonly repeats: Repeat[],
    message: string,
  ) {
    super(message, "repeat_judgments");
    this.name = "RepeatJudgmentsError";
  }
}

/**
 * "N repeat judgments (the same annotator on the same item more than once): item "x" by annotator "w" on
 * <where> …; choose <option> first or last to keep one of each". `where` names a repeat's rows (lines, records).
 */
export function repeatsMessage(repeats: readonly Repeat[], where: (rows: number[]) => string, option: string): string {
  const setAside = repeats.reduce((s, r) => s + r.rows.length - 1, 0);
  const shown = repeats
    .slice(0, 5)
    .map((r) => `item "${r.item}" by annotator "${r.annotator}" on ${where(r.rows)}`)
    .join("; ");
  const more = repeats.length > 5 ? ` (and ${repeats.length - 5} more)` : "";
  return (
    `${setAside} repeat judgment${setAside === 1 ? "" : "s"} (the same annotator on the same item more than once): ` +
    `${shown}${more}; choose ${option} first (keep each annotator's earliest) or ${option} last (keep the latest)`
  );
}

/** Applies the policy; "refuse" with repeats throws RepeatJudgmentsError whose message names `option`. */
export function resolveRepeats(
  input: RepeatInput,
  policy: RepeatPolicy,
  { where = (rows: number[]) => `rows ${rows.map((r) => r + 1).join(", ")}`, option = "--repeats" }: { where?: (rows: number[]) => string; option?: string } = {},
): RepeatResolution {
  const groups = new Map<string, number[]>();
  const { count, item, annotator } = input;
  for (let r = 0; r < count; r++) {
    const key = `${input.scope?.(r) ?? ""}\u0000${item(r)}\u0000${annotator(r)}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const repeats: Repeat[] = [];
  const drop = new Uint8Array(count);
  const time = (r: number) => {
    const t = input.order?.(r);
    return t === undefined || Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
  };
  for (const rows of groups.values()) {
    if (rows.length < 2) continue;
    repeats.push({ item: item(rows[0]), annotator: annotator(rows[0]), rows });
    // rows are ascending, so ties in time fall back to file order
    let chosen = rows[0];
    for (const r of rows) {
      const better = policy === "last" ? time(r) >= time(chosen) : time(r) < time(chosen);
      if (better) chosen = r;
    }
    for (const r of rows) if (r !== chosen) drop[r] = 1;
  }
  if (repeats.length > 0 && policy === "refuse") throw new RepeatJudgmentsError(repeats, repeatsMessage(repeats, where, option));
  const keep: number[] = [];
  for (let r = 0; r < count; r++) if (!drop[r]) keep.push(r);
  return { keep, setAside: count - keep.length, repeats };
}

/** The policy's one-line note for stderr or a report: "3 repeat judgments set aside (--repeats first)". */
export function repeatsNote(setAside: number, policy: RepeatPolicy, option = "--repeats"): string {
  return `${setAside} repeat judgment${setAside === 1 ? "" : "s"} set aside (${option} ${policy})`;
}
