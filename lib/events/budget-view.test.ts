import { describe, expect, it } from "vitest";
import { budgetView } from "./budget-view";

describe("the budget an event's spend is shown against", () => {
  it("an event's cap is in its crowd's currency and counts only spend in it", () => {
    const v = budgetView({ eventCapCents: 1000, globalCapCents: 50_000, currency: "GBP", totals: [{ currency: "USD", minor: 900 }, { currency: "GBP", minor: 250 }] });
    expect(v.chartCapCents).toBe(1000);
    expect(v.hint).toBe("of £10.00 budget (25.0%); $9.00 in other currencies does not count");
    expect(v.description).toContain("against the £10.00 cap of this event");
  });

  it("the global cap is in USD: it applies to a USD event, not to a Prolific event paid in pounds", () => {
    const usd = budgetView({ eventCapCents: null, globalCapCents: 2000, currency: "USD", totals: [{ currency: "USD", minor: 500 }] });
    expect(usd).toMatchObject({ chartCapCents: 2000, hint: "of $20.00 budget (25.0%)" });
    expect(usd.description).toContain("(global, USD spend only)");
    const gbp = budgetView({ eventCapCents: null, globalCapCents: 2000, currency: "GBP", totals: [{ currency: "GBP", minor: 500 }] });
    expect(gbp.chartCapCents).toBeNull();
    expect(gbp.hint).toBe("no GBP budget cap (the global $20.00 cap counts USD only)");
  });

  it("no cap at all", () => {
    expect(budgetView({ eventCapCents: null, globalCapCents: null, currency: "USD", totals: [] })).toMatchObject({ chartCapCents: null, hint: "no budget cap" });
  });
});
