import { describe, expect, it } from "vitest";
import { amountIn, compareCurrencies, compareMoneyTotals, formatMoneyTotals, type Money, sumByCurrency } from "./money-totals";

describe("money across currencies", () => {
  it("sums per currency, never across, USD first then by code", () => {
    const totals = sumByCurrency([
      { currency: "GBP", minor: 200 },
      { currency: "USD", minor: 1000 },
      { currency: "EUR", minor: 5 },
      { currency: "GBP", minor: 150 },
      { currency: "USD", minor: 200 },
    ]);
    expect(totals).toEqual([
      { currency: "USD", minor: 1200 },
      { currency: "EUR", minor: 5 },
      { currency: "GBP", minor: 350 },
    ]);
    expect(amountIn(totals, "GBP")).toBe(350);
    expect(amountIn(totals, "JPY")).toBe(0);
    expect(sumByCurrency([])).toEqual([]);
  });

  it("shows each currency's total joined by +, and zero in the given currency when empty", () => {
    expect(formatMoneyTotals(sumByCurrency([{ currency: "GBP", minor: 350 }, { currency: "USD", minor: 1200 }]))).toBe("$12.00 + £3.50");
    expect(formatMoneyTotals([{ currency: "GBP", minor: 350 }])).toBe("£3.50");
    expect(formatMoneyTotals([])).toBe("$0.00");
    expect(formatMoneyTotals([], "GBP")).toBe("£0.00");
  });

  it("orders currencies USD first, then alphabetically", () => {
    expect(["GBP", "EUR", "USD", "AUD"].sort(compareCurrencies)).toEqual(["USD", "AUD", "EUR", "GBP"]);
  });

  it("sorts totals by currency group, then amount; a large amount in one currency never outranks another currency's group", () => {
    const usd5: Money[] = [{ currency: "USD", minor: 500 }];
    const usd1: Money[] = [{ currency: "USD", minor: 100 }];
    const gbp9: Money[] = [{ currency: "GBP", minor: 90_000 }];
    const gbp2: Money[] = [{ currency: "GBP", minor: 200 }];
    const none: Money[] = [];
    const rows = [gbp2, usd1, gbp9, none, usd5];
    expect([...rows].sort((a, b) => compareMoneyTotals(a, b, "desc"))).toEqual([usd5, usd1, none, gbp9, gbp2]);
    expect([...rows].sort((a, b) => compareMoneyTotals(a, b, "asc"))).toEqual([none, usd1, usd5, gbp2, gbp9]);
    // An empty total counts as zero in the currency given for it.
    expect(compareMoneyTotals(none, gbp2, "asc", "GBP")).toBeLessThan(0);
  });
});
