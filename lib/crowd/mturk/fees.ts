/**
 * MTurk fees in integer cents (pricing since July 2015, docs/mturk-protocol.md §4):
 * - 20% commission on each assignment's reward and on each bonus;
 * - HITs with MaxAssignments ≥ 10 pay an extra 20% on the reward (40% in total); bonuses stay at 20%;
 * - a Masters requirement adds 5% on the reward;
 * - minimum $0.01 fee per assignment and per bonus (when the amount is not zero);
 * - rounded half-up to the cent. Charged on approval (rejected work costs nothing).
 * Pure functions, no I/O.
 */

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative integer number of cents`);
}

/** round(amountCents × percent / 100) half-up, in integer arithmetic. */
function percentHalfUp(amountCents: number, percent: number): number {
  return Math.floor((amountCents * percent * 2 + 100) / 200);
}

export function commissionPercent({ maxAssignments, masters = false }: { maxAssignments: number; masters?: boolean }): number {
  return (maxAssignments >= 10 ? 40 : 20) + (masters ? 5 : 0);
}

/** Fee charged for one approved assignment. */
export function assignmentFeeCents({
  rewardCents,
  maxAssignments,
  masters = false,
}: {
  rewardCents: number;
  maxAssignments: number;
  masters?: boolean;
}): number {
  assertCents(rewardCents, "rewardCents");
  if (rewardCents === 0) return 0;
  return Math.max(1, percentHalfUp(rewardCents, commissionPercent({ maxAssignments, masters })));
}

/** Fee charged for one bonus (always 20%, minimum 1 cent). */
export function bonusFeeCents({ bonusCents }: { bonusCents: number }): number {
  assertCents(bonusCents, "bonusCents");
  if (bonusCents === 0) return 0;
  return Math.max(1, percentHalfUp(bonusCents, 20));
}

/** What approving one assignment costs in total (reward + fee). */
export function assignmentCostCents(input: { rewardCents: number; maxAssignments: number; masters?: boolean }): number {
  return input.rewardCents + assignmentFeeCents(input);
}

/** Worst-case cost of a HIT if every assignment is approved. */
export function hitCostCents(input: { rewardCents: number; maxAssignments: number; masters?: boolean }): number {
  return assignmentCostCents(input) * input.maxAssignments;
}

/** "0.50" → 50. Validates MTurk's CurrencyAmount pattern ^[0-9]+(\.)?[0-9]{0,2}$. */
export function parseDollarsToCents(amount: string): number {
  const m = /^([0-9]+)(?:\.([0-9]{0,2}))?$/.exec(amount);
  if (!m) throw new RangeError(`"${amount}" is not a valid amount of dollars (e.g. "0.50")`);
  const cents = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) throw new RangeError(`"${amount}" is too large`);
  return cents;
}

/** 50 → "0.50". */
export function formatCentsAsDollars(cents: number): string {
  assertCents(Math.abs(cents), "cents");
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** MTurk's fee rules for the ledger (lib/campaign/ledger.ts). */
export const MTURK_FEES = {
  assignmentFeeCents: ({ rewardCents, maxAssignments }: { rewardCents: number; maxAssignments: number }) => assignmentFeeCents({ rewardCents, maxAssignments }),
  bonusFeeCents,
};
