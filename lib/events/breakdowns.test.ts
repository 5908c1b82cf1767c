import { describe, expect, it } from "vitest";
import { differencesHeading, goldHealthBadge, hitBreakdown } from "./breakdowns";

describe("hitBreakdown", () => {
  it("names every HIT: the unresolved one beside the approved and open ones", () => {
    expect(hitBreakdown({ approved: 2, unresolved: 1 })).toBe("2 approved · 0 open · 1 unresolved");
    expect(hitBreakdown({ approved: 1200, published: 3, reviewing: 1, extended: 2, expired: 1, draft: 4 })).toBe("1,200 approved · 6 open · 1 expired · 4 not yet published");
    expect(hitBreakdown({ draft: 4 }, { includeDraft: false })).toBe("0 approved · 0 open");
  });

  it("has parts that add up to the total", () => {
    const byStatus = { approved: 5, published: 2, reviewing: 1, extended: 1, unresolved: 3, expired: 2, deleted: 1, draft: 1 };
    const sum = hitBreakdown(byStatus)
      .split(" · ")
      .reduce((n, part) => n + Number(part.split(" ")[0].replace(/,/g, "")), 0);
    expect(sum).toBe(Object.values(byStatus).reduce((a, b) => a + b, 0));
  });
});

describe("differencesHeading", () => {
  it("splits the differences as the summary counts them (all majority ties: 0 with a label)", () => {
    expect(differencesHeading({ total: 13, withAcceptedLabel: 0, shown: 13 })).toBe("Tweets where Dawid–Skene's label is not the majority's (13: 0 with an accepted majority label, 13 without one)");
    expect(differencesHeading({ total: 1500, withAcceptedLabel: 20, shown: 500 })).toBe(
      "Tweets where Dawid–Skene's label is not the majority's (1,500: 20 with an accepted majority label, 1,480 without one; first 500 shown)",
    );
    expect(differencesHeading({ total: 0, withAcceptedLabel: 0, shown: 0 })).toBe("Tweets where Dawid–Skene's label is not the majority's (0)");
  });
});

describe("goldHealthBadge", () => {
  it("says healthy only of gold that good workers answered, and names no gold as such", () => {
    expect(goldHealthBadge([])).toEqual({ tone: "slate", text: "no gold yet" });
    expect(goldHealthBadge([{ suspicious: false, retired: false, goodShown: 0 }])).toEqual({ tone: "slate", text: "not answered yet" });
    expect(goldHealthBadge([{ suspicious: false, retired: false, goodShown: 4 }])).toEqual({ tone: "green", text: "healthy" });
    expect(goldHealthBadge([{ suspicious: true, retired: false, goodShown: 6 }, { suspicious: true, retired: true, goodShown: 6 }])).toEqual({ tone: "red", text: "1 suspicious" });
    expect(goldHealthBadge([{ suspicious: false, retired: true, goodShown: 3 }])).toEqual({ tone: "slate", text: "no active gold" });
  });
});
