import "server-only";
import type { CrowdProvider, FeeRules } from "@/lib/crowd/provider";
import type { Db } from "@/lib/db/client";
import { initialAssignments } from "@/lib/procedure/dynamic-overlap";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { crowdOf, feeRulesOf, findCrowd } from "@/lib/crowd/registry";
import { crowdCurrencies } from "@/lib/events/event-currency";
import { readEventSettings } from "@/lib/events/event-settings";
import { DEFAULT_CURRENCY, formatMoney } from "@/lib/text/format";
import { amountIn } from "@/lib/events/money-totals";
import { UserError } from "@/lib/errors";
import { loadEventContext } from "./context";
import { batchCurrency, ledgerByCurrency } from "./ledger-currency";
import { HIT_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { formatInt } from "@/lib/text/format";


export type BatchEstimate = {
  hits: number;
  /** Unknown tweets that can go into HITs now (pending, not duplicates). */
  availableTweets: number;
  /** Unknown tweets left over that do not fill a HIT. */
  leftoverTweets: number;
  goldAvailable: number;
  assignmentsPerHit: number;
  maxAssignmentsPerHit: number;
  rewardCents: number;
  feePerAssignmentCents: number;
  /** Crowds that quote a batch (Prolific): whether its fees come from its cost calculator or, when unreachable, the documented rule (an estimate). */
  feeBasis?: { source: "calculator" | "estimate"; note: string };
  /** Rewards + fees of the first round (every HIT × assignmentsPerHit). */
  baseCents: number;
  /** Rewards + fees of the extra assignments that may be needed (up to maxAssignmentsPerHit). */
  extraReserveCents: number;
  /** baseCents + extraReserveCents: what Accord checks against the budget and the balance. */
  worstCaseCents: number;
  /** The global cap (all events), in budgetCapCurrency: it applies only to batches in that currency. */
  budgetCapCents: number | null;
  budgetCapCurrency: string;
  /** All events, in budgetCapCurrency only: spent so far plus what active HITs may still cost. */
  committedCents: number;
  /** This event's own numbers in `currency` only, as the estimate row shows them: its cap, what it spent, and spent + active HITs' worst case. */
  event: { capCents: number | null; spentCents: number; committedCents: number };
  balanceCents: number | null;
  /** The currency (ISO 4217) every amount here is in minor units of: the provider's (lib/events/event-currency.ts). */
  currency: string;
  problems: string[];
  ok: boolean;
};

/** The fee rates connected providers learned from their crowds, by crowd kind (Prolific's from its cost calculator). */
export type LearnedFees = Partial<Record<string, FeeRules>>;

/**
 * Sum of the ledger (rewards, fees, bonuses) plus the worst-case remaining cost of every active HIT, in one currency
 * (a batch's amounts are in its own: money in other currencies is not added). Each HIT is priced by its crowd's fee
 * rule (lib/crowd/registry.ts), with the rate a connected provider learned (`learned`) where there is one.
 */
export async function committedSpendCents(db: Db, currency: string, { eventId, learned = {} }: { eventId?: string; learned?: LearnedFees } = {}): Promise<number> {
  const { spentCents, outstandingCents } = await spendAndOutstanding(db, currency, eventId, learned);
  return spentCents + outstandingCents;
}

/** The ledger's sum (spent) and the worst-case remaining cost of active HITs (outstanding) in `currency`, of one event or all. */
async function spendAndOutstanding(db: Db, currency: string, eventId: string | undefined, learned: LearnedFees): Promise<{ spentCents: number; outstandingCents: number }> {
  const where = eventId ? { eventId } : {};
  const [spent, active, currencyOf] = await Promise.all([
    ledgerByCurrency(db, where),
    db.hit.findMany({
      where: { ...where, status: { in: [HIT_STATUS.draft, HIT_STATUS.published, HIT_STATUS.extended] } },
      select: { id: true, provider: true, rewardCents: true, maxAssignments: true, approvedCount: true, rejectedCount: true, event: { select: { name: true, settings: true } }, batch: { select: { currency: true } } },
    }),
    crowdCurrencies(db),
  ]);
  let outstanding = 0;
  for (const h of active) {
    if (batchCurrency(h.batch, h.provider, currencyOf) !== currency) continue;
    const fees = findCrowd(h.provider)?.fees(learned[h.provider]) ?? feeRulesOf();
    const cap = Math.max(h.maxAssignments, readEventSettings(h.event).maxJudgmentsPerTweet);
    const unpaid = Math.max(0, cap - h.approvedCount - h.rejectedCount);
    const fee = fees.assignmentFeeCents({ rewardCents: h.rewardCents, maxAssignments: cap });
    outstanding += unpaid * (h.rewardCents + fee);
  }
  return { spentCents: amountIn(spent, currency), outstandingCents: outstanding };
}

/**
 * The exact cost of publishing `hitCount` HITs (or "all" remaining unknown tweets) before anything is sent:
 * rewards + the provider's fees (MTurk: 20%, 40% from 10 assignments, ≥ 1 cent; Prolific: its cost calculator, else its
 * documented rule labelled an estimate) for the first round, plus the extra assignments
 * the procedure may add, against the budget cap (global and per event) and the provider's balance.
 */
export async function estimateBatch({
  db,
  provider,
  eventId,
  hitCount,
  rewardCents,
  assignmentDurationSeconds,
}: {
  db: Db;
  provider: CrowdProvider;
  eventId: string;
  hitCount: number | "all";
  rewardCents: number;
  /** With it, the reward is checked against the provider's pay floor (Prolific's minimum per hour) as publishing will. */
  assignmentDurationSeconds?: number;
}): Promise<BatchEstimate> {
  const { event, settings } = await loadEventContext(db, eventId);
  const problems: string[] = [];
  const [availableTweets, goldAvailable] = await Promise.all([
    db.tweet.count({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending, duplicateOfId: null } }),
    db.tweet.count({ where: { eventId, role: TWEET_ROLE.gold, retiredAt: null } }),
  ]);
  const possible = Math.floor(availableTweets / settings.unknownPerHit);
  const hits = hitCount === "all" ? possible : Math.min(hitCount, possible);
  if (hitCount !== "all" && hitCount > possible) {
    problems.push(`Only ${formatInt(possible)} HIT${possible === 1 ? "" : "s"} can be filled: ${formatInt(availableTweets)} unknown tweets are waiting, ${settings.unknownPerHit} per HIT.`);
  }
  if (hits === 0) problems.push(`No HIT can be filled: ${formatInt(availableTweets)} unknown tweets are waiting and a HIT needs ${settings.unknownPerHit}.`);
  if (goldAvailable < settings.goldPerHit) problems.push(`A HIT needs ${settings.goldPerHit} gold tweets; this event has ${formatInt(goldAvailable)}.`);

  const assignmentsPerHit = initialAssignments(settings);
  const maxAssignmentsPerHit = settings.maxJudgmentsPerTweet;
  const crowd = crowdOf(provider.kind);
  const quoteInput = { hits, rewardCents, initial: assignmentsPerHit, max: maxAssignmentsPerHit };
  const { feePerAssignmentCents, baseCents, extraReserveCents, feeBasis } = crowd.quoteBatch ? await crowd.quoteBatch(provider, quoteInput) : byFeeRules(feeRulesOf(provider), quoteInput);
  const worstCaseCents = baseCents + extraReserveCents;

  const settingsOfCrowd = await getCrowdSettings(db);
  const currency = await crowd.currency(db);
  const money = (minor: number) => formatMoney(minor, currency);
  const learned: LearnedFees = { [provider.kind]: provider.fees };
  // The global cap is in Accord's currency (USD) and counts only spend in it; an event's cap is in its crowd's currency.
  const budgetCapCurrency = DEFAULT_CURRENCY;
  const committedCents = await committedSpendCents(db, budgetCapCurrency, { learned });
  const ofEvent = await spendAndOutstanding(db, currency, eventId, learned);
  const eventCommittedCents = ofEvent.spentCents + ofEvent.outstandingCents;
  const caps: Array<[number | null, number, string]> = [
    [currency === budgetCapCurrency ? settingsOfCrowd.budgetCapCents : null, committedCents, "the all-events budget cap"],
    [event.budgetCapCents, eventCommittedCents, "this event's budget cap"],
  ];
  for (const [cap, used, what] of caps) {
    if (cap !== null && used + worstCaseCents > cap) {
      problems.push(
        `This batch may cost up to ${money(worstCaseCents)}; with ${money(used)} already spent or committed that exceeds ${what} of ${money(cap)} (${money(Math.max(0, cap - used))} left).`,
      );
    }
  }
  if (assignmentDurationSeconds !== undefined) {
    const refusal = await rewardRefusal(provider, { rewardCents, assignmentDurationSeconds });
    if (refusal) problems.push(refusal);
  }
  let balanceCents: number | null = null;
  const balance = await provider.getBalance();
  if (!balance.unlimited) {
    balanceCents = balance.availableCents;
    if (worstCaseCents > balanceCents) problems.push(`The account balance (${money(balanceCents)}) does not cover the worst case of ${money(worstCaseCents)}.`);
  }
  return {
    hits,
    availableTweets,
    leftoverTweets: availableTweets - hits * settings.unknownPerHit,
    goldAvailable,
    assignmentsPerHit,
    maxAssignmentsPerHit,
    rewardCents,
    feePerAssignmentCents,
    ...(feeBasis ? { feeBasis } : {}),
    baseCents,
    extraReserveCents,
    worstCaseCents,
    budgetCapCents: settingsOfCrowd.budgetCapCents,
    budgetCapCurrency,
    committedCents,
    event: { capCents: event.budgetCapCents, spentCents: ofEvent.spentCents, committedCents: eventCommittedCents },
    balanceCents,
    currency,
    problems,
    ok: problems.length === 0 && hits > 0,
  };
}

/** What the provider's pay floor says of the reward (the message publishing would refuse it with), or null when it passes. */
async function rewardRefusal(provider: CrowdProvider, input: { rewardCents: number; assignmentDurationSeconds: number }): Promise<string | null> {
  if (!provider.checkReward) return null;
  try {
    await provider.checkReward(input);
    return null;
  } catch (err) {
    if (err instanceof UserError) return err.message;
    return `The reward could not be checked against the provider's minimum pay (${err instanceof Error ? err.message : String(err)}); publishing checks it again.`;
  }
}

/** A batch priced by its crowd's fee rule (MTurk's: 20%, 40% from 10 assignments, ≥ 1 cent). */
function byFeeRules(fees: FeeRules, { hits, rewardCents, initial, max }: { hits: number; rewardCents: number; initial: number; max: number }) {
  const feePerAssignmentCents = fees.assignmentFeeCents({ rewardCents, maxAssignments: initial });
  const maxFee = fees.assignmentFeeCents({ rewardCents, maxAssignments: max });
  return { feePerAssignmentCents, baseCents: hits * initial * (rewardCents + feePerAssignmentCents), extraReserveCents: hits * (max - initial) * (rewardCents + maxFee), feeBasis: undefined };
}

