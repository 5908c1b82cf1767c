import { describe, expect, it } from "vitest";
import { gradeAssignment } from "./grading";
import { gradeRecorded } from "./replay";
import { parseProcedureSettings } from "./settings";
import { betaBelow, bySubmission, compareGoldRules, describeGoldRuleComparison, judgeWholeRecord, priorRecords, recordPosteriorBelow } from "./whole-record";

const WHOLE = parseProcedureSettings({ goldRule: "whole-record" });
const gold = (correct: number, total = 10) => Array.from({ length: total }, (_, i) => ({ given: i < correct ? "x" : "y", expected: "x" }));

// Exact values: P(θ < 0.7) under Beta(1 + c, 1 + t − c) = Σ_{k ≥ 1+c} C(t+1, k) 0.7^k 0.3^(t+1−k), summed over integers.
describe("the whole-record gold rule (Beta-binomial, uniform prior)", () => {
  it("posterior probability that accuracy is below the threshold, hand-computed", () => {
    expect(recordPosteriorBelow({ correct: 0, total: 0 }, 0.7)).toBeCloseTo(0.7, 12); // Beta(1, 1)
    expect(recordPosteriorBelow({ correct: 6, total: 10 }, 0.7)).toBeCloseTo(0.7896953827, 10); // P(Bin(11, .7) ≥ 7)
    expect(recordPosteriorBelow({ correct: 3, total: 10 }, 0.7)).toBeCloseTo(0.995709106, 9); // P(Bin(11, .7) ≥ 4)
    expect(recordPosteriorBelow({ correct: 9, total: 10 }, 0.7)).toBeCloseTo(0.1129900996, 10);
    expect(recordPosteriorBelow({ correct: 10, total: 20 }, 0.7)).toBeCloseTo(0.973610059298716, 10);
    expect(recordPosteriorBelow({ correct: 20, total: 30 }, 0.7)).toBeCloseTo(0.6879018759841228, 10);
    // Long records stay finite (the plain binomial sum overflows there): 3500/5000 and 3400/5000.
    expect(recordPosteriorBelow({ correct: 3500, total: 5000 }, 0.7)).toBeCloseTo(0.5032827409062148, 8);
    expect(recordPosteriorBelow({ correct: 3400, total: 5000 }, 0.7)).toBeCloseTo(0.9989476202184255, 8);
    expect(betaBelow(3, 2, 0)).toBe(0);
    expect(betaBelow(3, 2, 1)).toBe(1);
  });

  it("judges the record up to and including the assignment against the level", () => {
    expect(judgeWholeRecord({ correct: 6, total: 10 }, { correct: 0, total: 0 }, WHOLE)).toMatchObject({ record: { correct: 6, total: 10 }, passes: true, level: 0.95 });
    expect(judgeWholeRecord({ correct: 4, total: 10 }, { correct: 6, total: 10 }, WHOLE)).toMatchObject({ record: { correct: 10, total: 20 }, passes: false });
    // A stricter level (0.99) lets 10 of 20 through.
    expect(judgeWholeRecord({ correct: 4, total: 10 }, { correct: 6, total: 10 }, parseProcedureSettings({ goldRule: "whole-record", wholeRecordLevel: 0.99 })).passes).toBe(true);
  });

  it("grades an assignment by the whole record when the event chooses it, per HIT otherwise", () => {
    const first = gradeAssignment({ goldAnswers: gold(6), settings: WHOLE });
    expect(first.decision).toBe("approve");
    expect(first.reason).toMatchObject({ rule: "whole_record", correct: 6, total: 10, record: { correct: 6, total: 10, level: 0.95 } });
    expect(first.reason.record?.posterior).toBeCloseTo(0.7896953827, 10);
    expect(first.reason.text).toBe("Approved: 6 of 10 gold tweets correct here, 6 of 10 over your HITs of this event; the chance that your accuracy is below 70% is 79% (at most 95% allowed).");
    const second = gradeAssignment({ goldAnswers: gold(4), settings: WHOLE, priorRecord: { correct: 6, total: 10 } });
    expect(second.decision).toBe("reject");
    expect(second.reason.text).toContain("10 of 20 over your HITs of this event");
    expect(gradeAssignment({ goldAnswers: gold(4), settings: parseProcedureSettings({ goldRule: "whole-record", belowThresholdAction: "hold" }), priorRecord: { correct: 6, total: 10 } }).decision).toBe("hold");
    // The per-HIT rule ignores the record.
    expect(gradeAssignment({ goldAnswers: gold(6), settings: parseProcedureSettings({}), priorRecord: { correct: 100, total: 100 } }).decision).toBe("reject");
    // No gold: held, under either rule.
    expect(gradeAssignment({ goldAnswers: [], settings: WHOLE }).reason.rule).toBe("no_gold");
    // The replay grades recorded assignments the same way.
    expect(gradeRecorded({ goldCorrect: 6, goldTotal: 10, labels: new Map() }, WHOLE)).toBe(true);
    expect(gradeRecorded({ goldCorrect: 4, goldTotal: 10, labels: new Map(), priorRecord: { correct: 6, total: 10 } }, WHOLE)).toBe(false);
  });

  it("running records in submission order, per worker, from a starting record", () => {
    const items = [
      { workerId: "a", correct: 6, total: 10 },
      { workerId: "b", correct: 9, total: 10 },
      { workerId: "a", correct: 4, total: 10 },
      { workerId: "a", correct: 0, total: 0 },
    ];
    expect(priorRecords(items, new Map([["b", { correct: 1, total: 2 }]]))).toEqual([
      { correct: 0, total: 0 },
      { correct: 1, total: 2 },
      { correct: 6, total: 10 },
      { correct: 10, total: 20 },
    ]);
    const t = (s: number) => new Date(1_000 * s);
    const sorted = [
      { id: "z", submitTime: null },
      { id: "b", submitTime: t(2) },
      { id: "a", submitTime: t(2) },
      { id: "c", submitTime: t(1) },
    ].sort(bySubmission);
    expect(sorted.map((x) => x.id)).toEqual(["c", "a", "b", "z"]);
  });

  it("counts the per-HIT rejections the whole-record rule would change, and the reverse", () => {
    const c = compareGoldRules(
      [
        { workerId: "a", correct: 6, total: 10 }, // per HIT: reject; record 6/10 (0.79): approve → spared
        { workerId: "s", correct: 3, total: 10 }, // both reject
        { workerId: "a", correct: 4, total: 10 }, // both reject (10/20: 0.97)
        { workerId: "b", correct: 10, total: 10 }, // both approve
        { workerId: "d", correct: 2, total: 10 }, // both reject
        { workerId: "d", correct: 7, total: 10 }, // per HIT: approve; record 9/20 (> 0.95): turned down
      ],
      WHOLE,
    );
    expect(recordPosteriorBelow({ correct: 9, total: 20 }, 0.7)).toBeGreaterThan(0.95);
    expect(c).toEqual({ assignments: 6, perHitRejects: 4, wholeRecordRejects: 4, rejectionsSpared: 1, approvalsTurnedDown: 1 });
    expect(describeGoldRuleComparison(c)).toBe(
      "Of this event's 6 graded assignments, the whole-record rule would have changed 1 of the per-HIT rule's 4 rejections (approving them) and turned down 1 assignment the per-HIT rule approved.",
    );
  });
});
