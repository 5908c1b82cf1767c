import type { FeeRules } from "../../provider";
import { formatMoney } from "@/lib/text/format";
import type { ProlificClient } from "../api-client";

/** The fee share (basis points) Prolific's cost calculator quotes for one place: fee + VAT over the reward. */
export async function learnFeeBasisPoints(client: ProlificClient): Promise<number> {
  const reward = 10_000;
  return (await client.calculateCost(reward, 1)) - reward;
}

/** round(amount × basisPoints / 10,000) half-up, in integers. */
function share(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints * 2 + 10_000) / 20_000);
}

/** The ledger's fee of an approval or a bonus: the same share of either. */
export function feeRules(basisPoints: number): FeeRules {
  return { assignmentFeeCents: ({ rewardCents }) => share(rewardCents, basisPoints), bonusFeeCents: ({ bonusCents }) => share(bonusCents, basisPoints) };
}

/** Minor units as "£3.00" / "$3.00" / "€3.00" (Intl's formatting of the ISO 4217 code). */
export function money(minor: number, currency: string): string {
  return formatMoney(minor, currency);
}
