import type { ProlificClient } from "./api-client";

/**
 * Prolific's documented fee rule, used only when its cost calculator cannot be reached: "~33.33% service charge +
 * VAT where applicable" ([?] the old help centre; the current rate varies by account). Accord assumes UK VAT (20%)
 * on the fee, the higher of the cases, so a budget check on this estimate errs on the safe side.
 */
export const DOCUMENTED_FEE_BASIS_POINTS = 3333;
export const DOCUMENTED_VAT_BASIS_POINTS = 2000;

/** round(amount × basisPoints / 10,000) half-up, in integers. */
function share(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints * 2 + 10_000) / 20_000);
}

/** Fee + VAT of one place (or one bonus) by the documented rule. */
export function documentedFeeCents(rewardCents: number): number {
  const fee = share(rewardCents, DOCUMENTED_FEE_BASIS_POINTS);
  return fee + share(fee, DOCUMENTED_VAT_BASIS_POINTS);
}

/** calculator: Prolific's own quote (fees and VAT at the account's rates); estimate: the documented rule. */
export type CostSource = "calculator" | "estimate";
export type StudyCost = { totalCents: number; source: CostSource };

/** What a study of `places` places at `rewardCents` costs: Prolific's cost calculator, else the documented rule. */
export async function studyCost(client: ProlificClient | null, rewardCents: number, places: number): Promise<StudyCost> {
  if (places <= 0) return { totalCents: 0, source: "calculator" };
  if (client) {
    try {
      return { totalCents: await client.calculateCost(rewardCents, places), source: "calculator" };
    } catch {
      // Unreachable or refused: fall through to the documented rule, labelled as an estimate.
    }
  }
  return { totalCents: places * (rewardCents + documentedFeeCents(rewardCents)), source: "estimate" };
}

export const COST_SOURCE_NOTES: Record<CostSource, string> = {
  calculator: "Prolific's fees and VAT as its cost calculator quotes them for this workspace.",
  estimate: "Estimate: Prolific's cost calculator could not be reached, so fees follow its documented rule (33.33% service fee plus 20% VAT on the fee); the real charge may differ.",
};
