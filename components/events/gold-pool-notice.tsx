import type { GoldPoolCheck } from "@/lib/procedure/gold-pool";
import { GOLD_BALANCE_MIN_RATIO } from "@/lib/procedure/gold-pool";

/** Says when the active gold pool is too small for the qualification test plus a HIT, or too unbalanced. */
export function GoldPoolNotice({ pool, questions, goldPerHit, nameOf }: { pool: GoldPoolCheck; questions: number; goldPerHit: number; nameOf: (label: string) => string }) {
  const counts = pool.byLabel.filter((l) => l.count > 0).map((l) => `${nameOf(l.label)} ${l.count}`).join(", ");
  return (
    <div className="mb-3 space-y-1 text-sm" data-testid="gold-pool">
      <p className="text-slate-600">
        Active gold: {pool.total}
        {counts ? ` (${counts})` : ""}.
      </p>
      {pool.tooSmall ? (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900" data-testid="gold-pool-small">
          Too few gold tweets: the qualification test takes {questions} and every HIT {goldPerHit} more, so at least {pool.needed} are needed; there are {pool.total}.
        </p>
      ) : null}
      {pool.unbalanced ? (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900" data-testid="gold-pool-unbalanced">
          Gold is unbalanced across classes: the smallest class has {Math.round(pool.balance * 100)}% of the largest (at least {Math.round(GOLD_BALANCE_MIN_RATIO * 100)}% wanted, in two classes or more), so the test and HITs lean on a few answers.
        </p>
      ) : null}
    </div>
  );
}
