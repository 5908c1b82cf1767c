import "server-only";
import type { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { COST_SOURCE_NOTES, documentedFeeCents, studyCost, type CostSource } from "@/lib/crowd/prolific/cost-estimate";
import type { CrowdProvider, FeeRules } from "@/lib/crowd/provider";
import { PROVIDER_KIND } from "@/lib/db/enums";

export type ProlificBatchCost = {
  feePerAssignmentCents: number;
  baseCents: number;
  extraReserveCents: number;
  feeBasis: { source: CostSource; note: string };
};

/** The Prolific client of a provider, when it is Prolific's (tests may hand in wrappers: read by shape). */
function prolificClientOf(provider: CrowdProvider): ProlificClient | null {
  if (provider.kind !== PROVIDER_KIND.prolific) return null;
  const client = (provider as { client?: ProlificClient }).client;
  return client && typeof client.calculateCost === "function" ? client : null;
}

/**
 * A batch on Prolific (one study, `initial` places per HIT): the first round is the study's places, the reserve the
 * places the procedure may add later, each priced by Prolific's cost calculator, or by the documented rule when it
 * is unreachable (then labelled an estimate). null: the provider is not Prolific.
 */
export async function prolificBatchCost(provider: CrowdProvider, input: { hits: number; rewardCents: number; initial: number; max: number }): Promise<ProlificBatchCost | null> {
  if (provider.kind !== PROVIDER_KIND.prolific) return null;
  const client = prolificClientOf(provider);
  const one = await studyCost(client, input.rewardCents, 1);
  const base = await studyCost(one.source === "calculator" ? client : null, input.rewardCents, input.hits * input.initial);
  const extra = await studyCost(base.source === "calculator" ? client : null, input.rewardCents, input.hits * Math.max(0, input.max - input.initial));
  const source: CostSource = [one, base, extra].some((c) => c.source === "estimate") ? "estimate" : "calculator";
  return {
    feePerAssignmentCents: one.totalCents - input.rewardCents,
    baseCents: base.totalCents,
    extraReserveCents: extra.totalCents,
    feeBasis: { source, note: COST_SOURCE_NOTES[source] },
  };
}

/** The fee of one Prolific place for committed-cost sums: the provider's learned rate when at hand, else the documented rule. */
export function prolificPlaceFeeCents(rewardCents: number, fees?: FeeRules): number {
  return fees ? fees.assignmentFeeCents({ rewardCents, maxAssignments: 1 }) : documentedFeeCents(rewardCents);
}
