import "server-only";
import type { FeeRules } from "@/lib/crowd/provider";
import { feeRulesOf } from "@/lib/crowd/registry";
import { type BulkRow, type BulkWriter, insertMany } from "@/lib/db/bulk";
import { COST_KIND } from "@/lib/db/enums";

/**
 * The cost ledger: the only writer of reward, fee and bonus rows (CostEntry). Each entry has a unique reference
 * (`<kind>:<assignment or bonus token>`), so writing the same payment twice records it once.
 */
/** The fee rule of a provider: its crowd's (lib/crowd/registry.ts), with the rate the provider learned where it has one. */
export function feesOf(provider?: { kind?: string; fees?: FeeRules }): FeeRules {
  return feeRulesOf(provider);
}

export type Payment = { eventId: string; hitId: string; assignmentId: string; workerId: string; rewardCents: number; maxAssignments: number; at?: Date };

/** The reward and the provider's fee of approved assignments (zero amounts are not entries). */
export function paymentEntries(payments: readonly Payment[], fees: FeeRules = feeRulesOf(), at: Date = new Date()): Array<BulkRow<"CostEntry">> {
  return payments.flatMap((p) => {
    const fee = fees.assignmentFeeCents({ rewardCents: p.rewardCents, maxAssignments: p.maxAssignments });
    return [
      { kind: COST_KIND.reward, amountCents: p.rewardCents },
      { kind: COST_KIND.fee, amountCents: fee },
    ]
      .filter((e) => e.amountCents !== 0)
      .map((e) => ({ eventId: p.eventId, hitId: p.hitId, assignmentId: p.assignmentId, workerId: p.workerId, ...e, reference: `${e.kind}:${p.assignmentId}`, at: p.at ?? at }));
  });
}

/** Records payments once each, with the fees of the provider that paid them (call it in the approving transaction). */
export async function recordPayments(db: BulkWriter, payments: readonly Payment[], fees?: FeeRules, at?: Date): Promise<number> {
  return payments.length ? insertMany(db, "CostEntry", paymentEntries(payments, fees, at), { onConflict: "ignore" }) : 0;
}

/** `feeCents`: what the provider charged for the bonus (its report, else its fee rules: see bonusFeeOf). */
export type Bonus = { eventId: string; hitId: string; assignmentId: string; workerId: string; amountCents: number; token: string; feeCents: number };

/** The fee of a bonus: as the provider reported charging it, else by its fee rules. */
export function bonusFeeOf(provider: { kind?: string; fees?: FeeRules }, amountCents: number, reported?: number): number {
  return reported ?? feesOf(provider).bonusFeeCents({ bonusCents: amountCents });
}

/** A bonus and, when the provider charges one, its fee. */
export function bonusEntries(b: Bonus, at: Date = new Date()): Array<BulkRow<"CostEntry">> {
  const fee = b.feeCents;
  return [
    { kind: COST_KIND.bonus, amountCents: b.amountCents },
    { kind: COST_KIND.bonus_fee, amountCents: fee },
  ]
    .filter((e) => e.kind === COST_KIND.bonus || e.amountCents > 0)
    .map((e) => ({ eventId: b.eventId, hitId: b.hitId, assignmentId: b.assignmentId, workerId: b.workerId, ...e, reference: `${e.kind}:${b.token}`, at }));
}

/** Records a bonus once (its token is the provider's idempotency token); returns the fee charged. */
export async function recordBonus(db: BulkWriter, bonus: Bonus): Promise<{ feeCents: number }> {
  const entries = bonusEntries(bonus);
  await insertMany(db, "CostEntry", entries, { onConflict: "ignore" });
  return { feeCents: entries.find((e) => e.kind === COST_KIND.bonus_fee)?.amountCents ?? 0 };
}
