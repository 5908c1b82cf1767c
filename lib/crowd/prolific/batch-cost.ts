import "server-only";
import type { BatchQuote, BatchQuoteInput } from "../descriptor";
import type { CrowdProvider, FeeRules } from "../provider";
import type { ProlificClient } from "./api-client";
import { COST_SOURCE_NOTES, documentedFeeCents, studyCost, type CostSource } from "./cost-estimate";

/** The Prolific client of a provider, when it is Prolific's (tests may hand in wrappers: read by shape). */
function prolificClientOf(provider: CrowdProvider): ProlificClient | null {
  const client = (provider as { client?: ProlificClient }).client;
  return client && typeof client.calculateCost === "function" ? client : null;
}

/**
 * A batch on Prolific (one study, `initial` places per HIT): the first round is the study's places, the reserve the
 * places the procedure may add later, each priced by Prolific's cost calculator, or by the documented rule when it
 * is unreachable (then labelled an estimate).
 */
export async function prolificBatchCost(provider: CrowdProvider, input: BatchQuoteInput): Promise<BatchQuote> {
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

/** Prolific's fee rule: the rate its cost calculator quoted the connected provider (`learned`), else the documented rule. */
export function prolificFees(learned?: FeeRules): FeeRules {
  return learned ?? DOCUMENTED_FEES;
}

/** Fee + VAT by Prolific's documented rule, on a place's reward and on a bonus alike (no provider is called). */
const DOCUMENTED_FEES: FeeRules = {
  assignmentFeeCents: ({ rewardCents }) => documentedFeeCents(rewardCents),
  bonusFeeCents: ({ bonusCents }) => documentedFeeCents(bonusCents),
};
