import { describe, expect, it } from "vitest";
import { formatCents, formatMoney, minorToMajor, minorUnitName } from "./format";

describe("formatMoney: minor units of an ISO 4217 currency", () => {
  it("shows pounds, dollars and euros with their symbol, two digits and thousands separators", () => {
    expect(formatMoney(150, "GBP")).toBe("£1.50");
    expect(formatMoney(150, "USD")).toBe("$1.50");
    expect(formatMoney(20, "EUR")).toBe("€0.20");
    expect(formatMoney(123_456_789, "GBP")).toBe("£1,234,567.89");
    expect(formatMoney(-705, "USD")).toBe("-$7.05");
    expect(formatMoney(0, "EUR")).toBe("€0.00");
  });

  it("divides by the currency's own minor-unit digits (yen has none) and rounds fractions of a minor unit", () => {
    expect(minorToMajor(150, "GBP")).toBe(1.5);
    expect(formatMoney(150, "JPY")).toBe("¥150");
    expect(formatMoney(12.6, "GBP")).toBe("£0.13");
  });

  it("drops the minor digits for chart axes, and shows a dash when there is no amount", () => {
    expect(formatMoney(250_000, "GBP", { whole: true })).toBe("£2,500");
    expect(formatMoney(null, "GBP")).toBe("–");
    expect(formatMoney(Number.NaN, "USD")).toBe("–");
  });

  it("keeps dollars for Accord's global amounts (formatCents), as before", () => {
    expect(formatCents(123_456)).toBe("$1,234.56");
    expect(formatCents(-1)).toBe("-$0.01");
    expect(formatCents(undefined)).toBe("–");
  });

  it("names the unit a form's amount field counts in", () => {
    expect(minorUnitName("USD")).toBe("cents");
    expect(minorUnitName("GBP")).toBe("minor units of GBP");
  });

  it("shows a malformed code after the number instead of failing the page", () => {
    expect(formatMoney(150, "pounds")).toBe("1.50 pounds");
  });
});
