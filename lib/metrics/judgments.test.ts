import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { majorityLabels, majorityVote } from "./majority-vote";
import {
  countsFromTable,
  DuplicateJudgmentError,
  encodeJudgments,
  encodeMatrix,
  firstJudgments,
  labelCounts,
  type Judgment,
} from "./judgments";
import { agreementSummary, eventAgreementReport } from "./report";
import { nominalAgreement } from "./agreement";
import { generateCrowdJudgments } from "./synthetic";

const J = (item: string, annotator: string, label: string, order?: number): Judgment => ({ item, annotator, label, order });

describe("encodeJudgments", () => {
  it("groups judgments by item in judgment order with integer codes", () => {
    const e = encodeJudgments([J("b", "x", "l1"), J("a", "x", "l2"), J("b", "y", "l2"), J("a", "z", "l2")]);
    expect(e.items).toEqual(["b", "a"]);
    expect(e.annotators).toEqual(["x", "y", "z"]);
    expect(e.labels).toEqual(["l1", "l2"]);
    expect(Array.from(e.itemStart)).toEqual([0, 2, 4]);
    expect(Array.from(e.annotator)).toEqual([0, 1, 0, 2]);
    expect(Array.from(e.label)).toEqual([0, 1, 1, 1]);
    expect(Array.from(e.source)).toEqual([0, 2, 1, 3]);
    const c = labelCounts(e);
    expect(Array.from(c.counts)).toEqual([1, 1, 0, 2]);
    expect(Array.from(c.raters)).toEqual([2, 2]);
  });

  it("orders an item's judgments by `order` when given", () => {
    const e = encodeJudgments([J("a", "x", "p", 30), J("a", "y", "q", 10), J("a", "z", "r", 20)]);
    expect(Array.from(e.annotator).map((a) => e.annotators[a])).toEqual(["y", "z", "x"]);
  });

  it("keeps the label scheme order and refuses labels outside it", () => {
    const e = encodeJudgments([J("a", "x", "q")], { labels: ["p", "q", "r"] });
    expect(e.labels).toEqual(["p", "q", "r"]);
    expect(Array.from(e.label)).toEqual([1]);
    expect(() => encodeJudgments([J("a", "x", "s")], { labels: ["p"] })).toThrow(/not in the label scheme/);
  });

  it("reports duplicate item+annotator rows with their row numbers, or keeps the first", () => {
    const rows = [J("a", "x", "p"), J("a", "y", "p"), J("a", "x", "q"), J("b", "x", "p"), J("a", "x", "r")];
    try {
      encodeJudgments(rows);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DuplicateJudgmentError);
      const d = err as DuplicateJudgmentError;
      expect(d.duplicates).toEqual([{ item: "a", annotator: "x", rows: [0, 2, 4] }]);
      expect(d.message).toContain('item "a" / annotator "x" (rows 1, 3, 5)');
    }
    const kept = encodeJudgments(rows, { duplicates: "first" });
    expect(kept.label.length).toBe(3);
    expect(kept.labels[kept.label[0]]).toBe("p");
  });

  it("refuses empty fields", () => {
    expect(() => encodeJudgments([J("a", "", "p")])).toThrow(UserError);
    expect(() => encodeJudgments([J("a", "x", "")])).toThrow(/Row 1 has an empty label/);
  });

  it("reads wide tables in both layouts, skipping missing cells", () => {
    const a = encodeMatrix([[1, null, 2], [3, 3, NaN]]);
    expect(a.items).toEqual(["1", "2"]);
    expect(a.label.length).toBe(4);
    const b = encodeMatrix([[1, 3], [null, 3], [2, ""]], { layout: "annotators-by-items" });
    expect(Array.from(labelCounts(b).counts)).toEqual(Array.from(labelCounts(a).counts));
  });

  it("takes the first k judgments of items that have k", () => {
    const e = encodeJudgments([
      J("a", "1", "p"), J("a", "2", "q"), J("a", "3", "q"), J("a", "4", "p"),
      J("b", "1", "p"), J("b", "2", "p"),
    ]);
    const f = firstJudgments(e, 3);
    expect(f.items).toEqual(["a"]);
    expect(Array.from(f.annotator).map((x) => f.annotators[x])).toEqual(["1", "2", "3"]);
  });

  it("validates count tables", () => {
    expect(() => countsFromTable([[1, -1]])).toThrow(UserError);
    expect(countsFromTable([[1, 2], [3, 0]]).raters).toEqual(new Int32Array([3, 3]));
  });
});

describe("majority vote with the acceptance rule", () => {
  it("accepts a unique top label at ≥ 2/3 (integers)", () => {
    const rows = [
      ...["p", "p", "q"].map((l, i) => J("t1", `w${i}`, l)), // 2/3 accepted
      ...["p", "p", "p", "q", "q"].map((l, i) => J("t2", `w${i}`, l)), // 3/5 not
      ...["p", "p", "q", "q"].map((l, i) => J("t3", `w${i}`, l)), // tie
      ...["p", "p", "p", "q"].map((l, i) => J("t4", `w${i}`, l)), // 3/4 accepted
    ];
    const mv = majorityVote(encodeJudgments(rows));
    expect(majorityLabels(mv)).toEqual([
      { item: "t1", label: "p", plurality: "p", top: 2, total: 3 },
      { item: "t2", label: null, plurality: "p", top: 3, total: 5 },
      { item: "t3", label: null, plurality: null, top: 2, total: 4 },
      { item: "t4", label: "p", plurality: "p", top: 3, total: 4 },
    ]);
    expect(mv.acceptedCount).toBe(2);
    const strict = majorityVote(encodeJudgments(rows), { acceptance: { num: 3, den: 4 }, minJudgments: 4 });
    expect(Array.from(strict.accepted)).toEqual([0, 0, 0, 1]);
  });
});

describe("per-event report (the paper's Table 3)", () => {
  it("uses the FIRST three judgments (by order) for κ and observed agreement, all judgments for α and majority", () => {
    const rows = [
      // t1: first three agree; 4th and 5th (later) disagree
      J("t1", "a", "x", 1), J("t1", "b", "x", 2), J("t1", "c", "x", 3), J("t1", "d", "y", 4), J("t1", "e", "z", 5),
      // t2: listed out of order; by order the first three are y, y, x
      J("t2", "e", "z", 9), J("t2", "a", "y", 1), J("t2", "b", "y", 2), J("t2", "c", "x", 3),
      J("t3", "a", "x", 1), J("t3", "b", "y", 2), J("t3", "c", "y", 3),
      // t4: only two judgments: excluded from κ and observed, counted in α and majority
      J("t4", "a", "z", 1), J("t4", "b", "z", 2),
    ];
    const data = encodeJudgments(rows);
    const r = eventAgreementReport(data);
    const firstThree = encodeJudgments([
      J("t1", "a", "x"), J("t1", "b", "x"), J("t1", "c", "x"),
      J("t2", "a", "y"), J("t2", "b", "y"), J("t2", "c", "x"),
      J("t3", "a", "x"), J("t3", "b", "y"), J("t3", "c", "y"),
    ]);
    const f = nominalAgreement(firstThree);
    const all = nominalAgreement(data);
    expect(r.fleissKappa).toBeCloseTo(f.fleissKappa, 12);
    expect(r.averageObservedAgreement).toBeCloseTo((1 + 1 / 3 + 1 / 3) / 3, 12);
    expect(r.krippendorffAlpha).toBeCloseTo(all.krippendorffAlpha, 12);
    expect(r.averageMajorityAgreement).toBeCloseTo((3 / 5 + 2 / 4 + 2 / 3 + 1) / 4, 12);
    expect(r.firstJudgments).toEqual({ count: 3, items: 3, excludedItems: 1 });
    expect(r).toMatchObject({ items: 4, annotations: 14, labels: 3, pairableItems: 4 });
  });

  it("summary over all judgments counts singletons but the measures handle them by definition", () => {
    const data = encodeJudgments([J("a", "1", "p"), J("a", "2", "p"), J("b", "1", "q"), J("c", "1", "q"), J("c", "2", "p")]);
    const s = agreementSummary(data);
    expect(s).toMatchObject({ items: 3, annotations: 5, labels: 2 });
    expect(s.averageObservedAgreement).toBeCloseTo(0.5, 12); // items a (1) and c (0)
    expect(s.averageMajorityAgreement).toBeCloseTo(0.75, 12);
    // Gwet: πp = (1 + 0 + 0.5)/3, πq = (0 + 1 + 0.5)/3 (the singleton counts), Pe = 0.5
    expect(s.fleissKappa).toBeCloseTo(0, 12);
  });

  it("is stable on a simulated HumAID-sized event", () => {
    const crowd = generateCrowdJudgments({ items: 5000, labels: ["a", "b", "c", "d"], workers: 60, seed: 3 });
    const r = eventAgreementReport(encodeJudgments(crowd.judgments));
    expect(r.fleissKappa).toBeGreaterThan(0.3);
    expect(r.fleissKappa).toBeLessThan(1);
    expect(r.averageMajorityAgreement).toBeGreaterThan(r.averageObservedAgreement);
    expect(r.firstJudgments.excludedItems).toBe(0);
  });
});
