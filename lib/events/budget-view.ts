import { DEFAULT_CURRENCY, formatMoney, formatShare } from "@/lib/text/format";
import { amountIn, formatMoneyTotals, type Money } from "./money-totals";

/**
 * The budget cap an event's spend is shown against (pure). A cap counts spend in its own currency only: the event's
 * cap is in its crowd's currency, the global cap in USD (so it does not apply to a Prolific event paid in pounds).
 */
export type BudgetView = {
  /** The cap drawn on the spend chart (in the event's currency), null when none applies. */
  chartCapCents: number | null;
  /** Under the "Spent" figure. */
  hint: string;
  /** The spend card's description. */
  description: string;
};

export function budgetView({ eventCapCents, globalCapCents, currency, totals }: { eventCapCents: number | null; globalCapCents: number | null; currency: string; totals: readonly Money[] }): BudgetView {
  const money = (minor: number) => formatMoney(minor, currency);
  const others = totals.filter((m) => m.currency !== currency && m.minor !== 0);
  const elsewhere = others.length ? `; ${formatMoneyTotals(others)} in other currencies does not count` : "";
  const global = globalCapCents !== null ? formatMoney(globalCapCents, DEFAULT_CURRENCY) : null;
  const cap = eventCapCents ?? (currency === DEFAULT_CURRENCY ? globalCapCents : null);
  if (cap === null) {
    return {
      chartCapCents: null,
      hint: global ? `no ${currency} budget cap (the global ${global} cap counts ${DEFAULT_CURRENCY} only)` : "no budget cap",
      description: global
        ? `Rewards, fees and bonuses so far in ${currency}; the global ${global} cap counts ${DEFAULT_CURRENCY} spend only, so it does not apply to this event.`
        : `Rewards, fees and bonuses so far in ${currency} (no budget cap set).`,
    };
  }
  const spent = amountIn(totals, currency);
  const scope = eventCapCents !== null ? "of this event" : `(global, ${DEFAULT_CURRENCY} spend only)`;
  return {
    chartCapCents: cap,
    hint: `of ${money(cap)} budget (${formatShare(spent, cap)})${elsewhere}`,
    description: `Rewards, fees and bonuses so far in ${currency} against the ${money(cap)} cap ${scope}${elsewhere}.`,
  };
}
