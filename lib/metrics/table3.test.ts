import { describe, expect, it } from "vitest";
import { encodeJudgments, encodeMatrix, type Judgment } from "./judgments";
import { krippendorffAlpha } from "./krippendorff";
import { nominalAgreement } from "./agreement";
import { FLEISS_1971_DIAGNOSES, KRIPPENDORFF_2011 } from "./published-data.fixture";
import { agreedItems, selectItems, table3BothScopes, table3ByEvent, table3Figures } from "./table3";

const close = (actual: number, expected: number, tol = 1e-9) => expect(Math.abs(actual - expected)).toBeLessThan(tol);

function rowsOf(items: Record<string, string[]>): Judgment[] {
  return Object.entries(items).flatMap(([item, labels]) => labels.map((label, a) => ({ item, annotator: `w${a}`, label })));
}

// i1 a,a,a · i2 a,a,b · i3 a,b,c (no 2/3 majority) · i4 b,b,b
const HAND = rowsOf({ i1: ["a", "a", "a"], i2: ["a", "a", "b"], i3: ["a", "b", "c"], i4: ["b", "b", "b"] });

describe("Table 3 in both scopes: a hand-computed case", () => {
  const data = encodeJudgments(HAND);
  const agreed = agreedItems(data, { num: 2, den: 3 });
  const both = table3BothScopes(data, { isAgreed: (i) => agreed[i] === 1 });

  it("agreed tweets: Pₒ = 7/9, Pₑ = 41/81 so κ = 22/40, α = 1 − 8·2/40 = 0.6, majority 8/9", () => {
    expect([...agreed]).toEqual([1, 1, 0, 1]);
    expect(both.agreed.items).toBe(3);
    expect(both.agreed.judgments).toBe(9);
    close(both.agreed.fleissKappa, 0.55);
    close(both.agreed.averageObservedAgreement, 7 / 9);
    close(both.agreed.krippendorffAlpha, 0.6);
    close(both.agreed.averageMajorityAgreement, 8 / 9);
  });

  it("all judged tweets: Pₒ = 7/12, Pₑ = 31/72 so κ = 11/41, α = 1 − 11·5/82 = 27/82, majority 3/4", () => {
    expect(both.all.items).toBe(4);
    expect(both.all.judgments).toBe(12);
    close(both.all.fleissKappa, 11 / 41);
    close(both.all.averageObservedAgreement, 7 / 12);
    close(both.all.krippendorffAlpha, 27 / 82);
    close(both.all.averageMajorityAgreement, 3 / 4);
  });

  it("κ and observed agreement use the first three judgments by order; α and majority all of them", () => {
    // i2 gets a 4th judgment "b" that comes FIRST in the input but last in time
    const rows: Judgment[] = [{ item: "i2", annotator: "late", label: "b", order: 9 }, ...HAND.map((r, k) => ({ ...r, order: k }))];
    const d = encodeJudgments(rows);
    const f = table3Figures(d);
    const firstThree = table3Figures(encodeJudgments(HAND));
    close(f.fleissKappa, firstThree.fleissKappa);
    close(f.averageObservedAgreement, firstThree.averageObservedAgreement);
    expect(f.judgments).toBe(13);
    // i2 is now a,a,b,b: majority 1/2 instead of 2/3
    close(f.averageMajorityAgreement, (1 + 1 / 2 + 1 / 3 + 1) / 4);
  });

  it("an empty scope gives no figures", () => {
    const none = table3Figures(selectItems(data, () => false));
    expect(none.items).toBe(0);
    expect(Number.isNaN(none.fleissKappa)).toBe(true);
  });
});

describe("Table 3 in both scopes: published vectors", () => {
  it("Krippendorff (2011): all units give α = 0.7434210526; agreed units (all but unit 6, 1/2/3/4) match α without it", () => {
    const data = encodeMatrix(KRIPPENDORFF_2011, { layout: "annotators-by-items" });
    const agreed = agreedItems(data, { num: 2, den: 3 });
    expect(data.items.filter((_, i) => agreed[i] === 0)).toEqual(["6"]);
    const both = table3BothScopes(data, { isAgreed: (i) => agreed[i] === 1 });
    close(both.all.krippendorffAlpha, 0.7434210526);
    const without6 = KRIPPENDORFF_2011.map((row) => row.filter((_, u) => u !== 5));
    close(both.agreed.krippendorffAlpha, krippendorffAlpha(encodeMatrix(without6, { layout: "annotators-by-items" })));
    expect(both.agreed.items).toBe(11);
  });

  it("Fleiss (1971): all 30 subjects with first = 6 give κ = 0.4302445; agreed = subjects with a 4-of-6 top label", () => {
    const data = encodeMatrix(FLEISS_1971_DIAGNOSES);
    const agreed = agreedItems(data, { num: 2, den: 3 });
    const both = table3BothScopes(data, { first: 6, isAgreed: (i) => agreed[i] === 1 });
    close(both.all.fleissKappa, 0.4302445, 1e-6);
    const kept = FLEISS_1971_DIAGNOSES.filter((row) => {
      const counts = new Map<number, number>();
      for (const v of row) counts.set(v, (counts.get(v) ?? 0) + 1);
      return Math.max(...counts.values()) >= 4;
    });
    expect(both.agreed.items).toBe(kept.length);
    close(both.agreed.fleissKappa, nominalAgreement(encodeMatrix(kept)).fleissKappa);
  });
});

describe("table3ByEvent", () => {
  it("groups by event (sorted), keys items within their event, and orders by `order` then input order", () => {
    const rows = [
      ...HAND.map((r) => ({ ...r, event: "zeta" })),
      ...HAND.map((r) => ({ ...r, event: "alpha" })),
    ];
    const out = table3ByEvent(rows, { scope: "agreed" });
    expect(out.map((r) => r.event)).toEqual(["alpha", "zeta"]);
    close(out[0].fleissKappa, 0.55);
    expect(out[1].items).toBe(3);
    const all = table3ByEvent(HAND, { scope: "all", accept: { num: 3, den: 4 } });
    expect(all[0].event).toBe("");
    expect(all[0].items).toBe(4);
    // 3/4 accepts only the unanimous tweets
    expect(table3ByEvent(HAND, { scope: "agreed", accept: { num: 3, den: 4 } })[0].items).toBe(2);
  });
});
