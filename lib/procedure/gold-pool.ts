import type { ProcedureSettings } from "./settings";

/**
 * Is the event's active gold pool big and balanced enough? The qualification test takes `questions` gold tweets and
 * every HIT `goldPerHit` more; a pool smaller than questions + goldPerHit cannot give a test and a HIT distinct gold.
 * Balance is the smallest class's share of the largest (among the labels that have gold): below
 * GOLD_BALANCE_MIN_RATIO, or gold in fewer than two labels, the test and the HITs lean on one answer.
 */
export const GOLD_BALANCE_MIN_RATIO = 0.25;

export type GoldPoolCheck = {
  total: number;
  /** questions + goldPerHit, from the event's settings. */
  needed: number;
  tooSmall: boolean;
  /** Smallest / largest class count among labels with gold (1 when balanced, 0 when there is no gold). */
  balance: number;
  unbalanced: boolean;
  /** Scheme labels without any gold tweet. */
  missing: string[];
  byLabel: Array<{ label: string; count: number }>;
};

export function checkGoldPool(
  counts: ReadonlyMap<string, number>,
  { labels, settings }: { labels: readonly string[]; settings: Pick<ProcedureSettings, "goldPerHit" | "qualification"> },
): GoldPoolCheck {
  const byLabel = labels.map((label) => ({ label, count: counts.get(label) ?? 0 }));
  for (const [label, count] of counts) if (!labels.includes(label)) byLabel.push({ label, count });
  const present = byLabel.filter((l) => l.count > 0).map((l) => l.count);
  const total = present.reduce((s, n) => s + n, 0);
  const needed = settings.qualification.questions + settings.goldPerHit;
  const balance = present.length ? Math.min(...present) / Math.max(...present) : 0;
  return {
    total,
    needed,
    tooSmall: total < needed,
    balance,
    unbalanced: total > 0 && (present.length < 2 || balance < GOLD_BALANCE_MIN_RATIO),
    missing: byLabel.filter((l) => l.count === 0).map((l) => l.label),
    byLabel,
  };
}
