import { describe, expect, it } from "vitest";
import { isValidRequesterFeedback, toRequesterFeedback } from "./feedback";
import { gradeAssignment, gradeQualification, type GoldAnswer } from "./grading";
import { DEFAULT_PROCEDURE_SETTINGS as S, parseProcedureSettings } from "./settings";

function answers(correct: number, total: number): GoldAnswer[] {
  return Array.from({ length: total }, (_, i) => ({ given: i < correct ? "a" : "b", expected: "a" }));
}

describe("gradeAssignment", () => {
  it("approves at 7 of 10 and rejects at 6 of 10 with the reason", () => {
    const ok = gradeAssignment({ goldAnswers: answers(7, 10), settings: S });
    expect(ok.decision).toBe("approve");
    expect(ok.reason).toMatchObject({ rule: "assignment_approval", correct: 7, total: 10, required: 7 });
    expect(ok.reason.threshold).toEqual({ num: 7, den: 10 });
    expect(ok.reason.text).toBe("Approved: 7 of 10 gold tweets correct; at least 7 of 10 (70%) needed.");

    const no = gradeAssignment({ goldAnswers: answers(6, 10), settings: S });
    expect(no).toMatchObject({ correct: 6, total: 10, decision: "reject" });
    expect(no.reason.text).toBe("Rejected: 6 of 10 gold tweets correct; at least 7 of 10 (70%) needed.");
  });

  it("holds instead of rejecting when configured, and holds an assignment without gold", () => {
    const hold = parseProcedureSettings({ belowThresholdAction: "hold" });
    const g = gradeAssignment({ goldAnswers: answers(3, 10), settings: hold });
    expect(g.decision).toBe("hold");
    expect(g.reason.text).toBe(
      "Held for review: 3 of 10 gold tweets correct; at least 7 of 10 (70%) needed for automatic approval.",
    );
    expect(gradeAssignment({ goldAnswers: [], settings: S })).toMatchObject({
      decision: "hold",
      reason: { rule: "no_gold" },
    });
  });

  it("counts unanswered gold as wrong and scales the threshold to other gold counts", () => {
    const g = gradeAssignment({
      goldAnswers: [...answers(6, 8), { given: null, expected: "a" }],
      settings: S,
    });
    expect(g).toMatchObject({ correct: 6, total: 9, decision: "reject" });
    expect(g.reason.required).toBe(7); // ceil(0.7 · 9)
    expect(gradeAssignment({ goldAnswers: answers(7, 9), settings: S }).decision).toBe("approve");
  });

  it("agrees with the exact rule for every count", () => {
    for (let total = 1; total <= 30; total++) {
      for (let c = 0; c <= total; c++) {
        const d = gradeAssignment({ goldAnswers: answers(c, total), settings: S }).decision;
        expect(d === "approve").toBe(10 * c >= 7 * total);
      }
    }
  });

  it("always produces valid MTurk RequesterFeedback", () => {
    const g = gradeAssignment({ goldAnswers: answers(2, 10), settings: S });
    expect(isValidRequesterFeedback(g.reason.text)).toBe(true);
  });
});

describe("RequesterFeedback", () => {
  it("removes forbidden control characters, keeps tab/newline, and cuts to 1024 characters", () => {
    expect(toRequesterFeedback("a\u0000b\u0007c\u001fd\te\nf")).toBe("a b c d\te\nf");
    const long = toRequesterFeedback("x".repeat(5000));
    expect(long.length).toBe(1024);
    expect(long.endsWith("…")).toBe(true);
    expect(isValidRequesterFeedback(long)).toBe(true);
    const emoji = toRequesterFeedback("😀".repeat(600));
    expect(emoji.length).toBeLessThanOrEqual(1024);
    expect(/[\uD800-\uDBFF]…$/.test(emoji)).toBe(false);
    expect(isValidRequesterFeedback("bad\u000bchar")).toBe(false);
  });
});

describe("gradeQualification", () => {
  it("passes at 6 of 10 (60%) and fails at 5", () => {
    expect(gradeQualification({ correct: 6, total: 10, settings: S })).toMatchObject({
      passed: true,
      percent: 60,
      requiredPercent: 60,
      required: 6,
    });
    const fail = gradeQualification({ correct: 5, total: 10, settings: S });
    expect(fail).toMatchObject({ passed: false, percent: 50 });
    expect(fail.reason.text).toBe("Not passed: 5 of 10 correct; at least 6 of 10 needed.");
  });
  it("applies the same ratio to a test of another length and rejects impossible scores", () => {
    expect(gradeQualification({ correct: 9, total: 15, settings: S }).passed).toBe(true);
    expect(gradeQualification({ correct: 8, total: 15, settings: S }).passed).toBe(false);
    expect(() => gradeQualification({ correct: 11, total: 10, settings: S })).toThrow(RangeError);
  });
});
