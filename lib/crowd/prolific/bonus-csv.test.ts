import { describe, expect, it } from "vitest";
import { formatBonusCsv, parseBonusAmount } from "./bonus-csv";

describe("csv_bonuses (major units)", () => {
  it("writes minor units as major amounts with two decimals, exactly", () => {
    expect(formatBonusCsv([{ id: "p1", cents: 425 }, { id: "p2", cents: 50 }, { id: "p3", cents: 100007 }, { id: "p4", cents: 1 }])).toBe("p1,4.25\np2,0.50\np3,1000.07\np4,0.01");
  });

  it("refuses amounts that are not positive whole minor units, and ids that would break the CSV", () => {
    expect(() => formatBonusCsv([{ id: "p", cents: 0 }])).toThrow(/positive whole number/);
    expect(() => formatBonusCsv([{ id: "p", cents: 1.5 }])).toThrow(/positive whole number/);
    expect(() => formatBonusCsv([{ id: "p,2", cents: 5 }])).toThrow(/commas or spaces/);
  });

  it("reads amounts back for the simulator", () => {
    expect(parseBonusAmount("4.25")).toBe(425);
    expect(parseBonusAmount("0.5")).toBe(50);
    expect(parseBonusAmount("12")).toBe(1200);
    expect(parseBonusAmount("1.234")).toBeNull();
    expect(parseBonusAmount("-1")).toBeNull();
    for (const cents of [1, 99, 100, 12345]) expect(parseBonusAmount(formatBonusCsv([{ id: "x", cents }]).split(",")[1]!)).toBe(cents);
  });
});
