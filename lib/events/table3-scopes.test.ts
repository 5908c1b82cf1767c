import { describe, expect, it } from "vitest";
import { headlineKappa, scopeShortName, toStoredScopes } from "./table3-scopes";

const figures = (kappa: number, judgments: number) => ({ items: 10, judgments, fleissKappa: kappa, averageObservedAgreement: 0.8, krippendorffAlpha: 0.6, averageMajorityAgreement: 0.8 });
const legacy = { judgments: 90, fleissKappa: 0.586, krippendorffAlpha: 0.5, averageObservedAgreement: 0.7, averageMajorityAgreement: 0.7 };

describe("headlineKappa", () => {
  it("is the agreed tweets' κ whenever the snapshot holds both scopes (Events list and Overview show the same figure)", () => {
    const row = { ...legacy, scopes: toStoredScopes({ agreed: figures(0.657, 60), all: figures(0.586, 90) }) };
    expect(headlineKappa(row)).toEqual({ fleissKappa: 0.657, judgments: 60, scope: "agreed" });
  });

  it("falls back to the all-judged columns of an older snapshot and names that scope", () => {
    expect(headlineKappa({ ...legacy, scopes: null })).toEqual({ fleissKappa: 0.586, judgments: 90, scope: "all" });
    expect(scopeShortName("all")).toBe("all judged tweets");
    expect(scopeShortName("agreed")).toBe("agreed tweets");
  });

  it("is null without a snapshot", () => {
    expect(headlineKappa(null)).toBeNull();
  });
});
