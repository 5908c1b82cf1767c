import { describe, expect, it } from "vitest";
import {
  assignmentCostCents,
  assignmentFeeCents,
  bonusFeeCents,
  formatCentsAsDollars,
  hitCostCents,
  parseDollarsToCents,
} from "./fees";

describe("MTurk fees (integer cents)", () => {
  it("matches the protocol doc's examples", () => {
    // $0.50 × 3 assignments → $0.10 fee each
    expect(assignmentFeeCents({ rewardCents: 50, maxAssignments: 3 })).toBe(10);
    // $0.50 with 10 assignments → $0.20 each
    expect(assignmentFeeCents({ rewardCents: 50, maxAssignments: 10 })).toBe(20);
    // $0.02 → $0.004 → $0.01 minimum
    expect(assignmentFeeCents({ rewardCents: 2, maxAssignments: 1 })).toBe(1);
  });

  it("rounds half-up to the cent", () => {
    expect(assignmentFeeCents({ rewardCents: 13, maxAssignments: 1 })).toBe(3); // 2.6
    expect(assignmentFeeCents({ rewardCents: 12, maxAssignments: 1 })).toBe(2); // 2.4
    expect(assignmentFeeCents({ rewardCents: 25, maxAssignments: 9 })).toBe(5); // 5.0
    expect(assignmentFeeCents({ rewardCents: 27, maxAssignments: 1 })).toBe(5); // 5.4
    expect(assignmentFeeCents({ rewardCents: 37, maxAssignments: 10 })).toBe(15); // 14.8
    expect(assignmentFeeCents({ rewardCents: 35, maxAssignments: 1, masters: true })).toBe(9); // 8.75
    expect(bonusFeeCents({ bonusCents: 7 })).toBe(1); // 1.4
    expect(bonusFeeCents({ bonusCents: 8 })).toBe(2); // 1.6
    expect(bonusFeeCents({ bonusCents: 1 })).toBe(1); // minimum
    expect(bonusFeeCents({ bonusCents: 100 })).toBe(20); // bonuses stay at 20% whatever the HIT size
  });

  it("boundary at 10 assignments and zero amounts", () => {
    expect(assignmentFeeCents({ rewardCents: 100, maxAssignments: 9 })).toBe(20);
    expect(assignmentFeeCents({ rewardCents: 100, maxAssignments: 10 })).toBe(40);
    expect(assignmentFeeCents({ rewardCents: 0, maxAssignments: 3 })).toBe(0);
    expect(bonusFeeCents({ bonusCents: 0 })).toBe(0);
    expect(assignmentCostCents({ rewardCents: 50, maxAssignments: 3 })).toBe(60);
    expect(hitCostCents({ rewardCents: 50, maxAssignments: 3 })).toBe(180);
    expect(() => assignmentFeeCents({ rewardCents: 0.5, maxAssignments: 1 })).toThrow(RangeError);
    expect(() => bonusFeeCents({ bonusCents: -1 })).toThrow(RangeError);
  });

  it("parses and formats MTurk currency amounts", () => {
    expect(parseDollarsToCents("0.50")).toBe(50);
    expect(parseDollarsToCents("1")).toBe(100);
    expect(parseDollarsToCents("1.5")).toBe(150);
    expect(parseDollarsToCents("10000.00")).toBe(1_000_000);
    expect(() => parseDollarsToCents("0.505")).toThrow(RangeError);
    expect(() => parseDollarsToCents("-1")).toThrow(RangeError);
    expect(() => parseDollarsToCents("$1")).toThrow(RangeError);
    expect(formatCentsAsDollars(50)).toBe("0.50");
    expect(formatCentsAsDollars(1_000_000)).toBe("10000.00");
    expect(formatCentsAsDollars(7)).toBe("0.07");
    expect(formatCentsAsDollars(-7)).toBe("-0.07");
  });
});
