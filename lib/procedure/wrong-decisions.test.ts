import { describe, expect, it } from "vitest";
import { parseProcedureSettings, DEFAULT_PROCEDURE_SETTINGS as S } from "./settings";
import { betaBinomialPmf, binomialAtLeast, describeGoldRuleRisk, goldRuleRisk, posteriorBelow, predictedRejectProbability, rejectProbability, wholeRecordChanges } from "./wrong-decisions";

describe("the gold rule's wrong decisions", () => {
  it("P(reject at ≥ 7/10 | p = 0.75) = 0.2241 (P(X ≤ 6), X ~ Bin(10, 0.75))", () => {
    expect(rejectProbability(10, { num: 7, den: 10 }, 0.75)).toBeCloseTo(0.2241, 4);
    // exact: 1 − Σ_{k=7..10} C(10,k) 0.75^k 0.25^(10−k) = 0.224124908447265625
    expect(rejectProbability(10, { num: 7, den: 10 }, 0.75)).toBeCloseTo(0.224124908447265625, 12);
  });

  it("honest workers at 70/80/90% and spammers, exact values", () => {
    const risk = goldRuleRisk(S, { labels: 11, constantShare: 0.3 });
    expect(risk.needed).toBe(7);
    // P(X ≤ 6): Bin(10, 0.7) 0.3503892816, Bin(10, 0.8) 0.1208738816, Bin(10, 0.9) 0.0127951984
    expect(risk.honest.map((h) => h.reject)).toEqual([
      expect.closeTo(0.3503892816, 10),
      expect.closeTo(0.1208738816, 10),
      expect.closeTo(0.0127951984, 10),
    ]);
    // random over 11 labels: P(Bin(10, 1/11) ≥ 7) = 4.80390794e-6; constant label right on 30%: P(Bin(10, 0.3) ≥ 7) = 0.0105920784
    expect(risk.randomSpammerAccept).toBeCloseTo(4.8039079406e-6, 15);
    expect(risk.constantSpammerAccept).toBeCloseTo(0.0105920784, 10);
    expect(describeGoldRuleRisk(risk)).toContain("70%-accurate worker 35.0%");
  });

  it("follows the event's settings: 8/10 on 5 gold needs 4 of 5", () => {
    const s = parseProcedureSettings({ goldPerHit: 5, unknownPerHit: 15, assignmentApproval: "8/10" });
    const risk = goldRuleRisk(s, { labels: 11 });
    expect(risk.needed).toBe(4);
    // P(Bin(5, 0.7) ≤ 3) = 1 − (0.36015 + 0.16807) = 0.47178
    expect(risk.honest[0].reject).toBeCloseTo(0.47178, 10);
    expect(describeGoldRuleRisk(risk)).not.toMatch(/7 of 10/);
  });

  it("the whole-record rule: Beta posterior through the binomial identity", () => {
    // Beta(1, 1) (no answers): P(θ < 0.7) = 0.7
    expect(posteriorBelow(0, 0, 0.7)).toBeCloseTo(0.7, 12);
    // Beta(2, 1): P(θ < x) = x²
    expect(posteriorBelow(1, 1, 0.7)).toBeCloseTo(0.49, 12);
    // Beta(1, 2): P(θ < x) = 1 − (1 − x)²
    expect(posteriorBelow(0, 1, 0.7)).toBeCloseTo(0.91, 12);
    expect(binomialAtLeast(3, 0, 0.2)).toBeCloseTo(1, 12);
    const changes = wholeRecordChanges(
      [
        // 6/10 once, 28/30 overall: spared
        { workerId: "a", correct: 28, total: 30, rejectedAssignments: 1, approvedAssignments: 2 },
        // 12/40 overall: rejected both ways
        { workerId: "b", correct: 12, total: 40, rejectedAssignments: 4, approvedAssignments: 0 },
        // 7/10 three times (21/30): approved per HIT, uncertain overall (P(θ < 0.7) ≈ 0.5): kept
        { workerId: "c", correct: 21, total: 30, rejectedAssignments: 0, approvedAssignments: 3 },
      ],
      { threshold: 0.7 },
    );
    expect(changes).toEqual({ rejectionsKept: 1, workersSpared: 1, workersNewlyRejected: 0 });
  });

  it("a worker's predicted rejection from their gold record (Beta-binomial)", () => {
    // No record: accuracy uniform, so the correct count of 10 gold is uniform on 0..10 and P(< 7) = 7/11.
    expect(predictedRejectProbability(10, { num: 7, den: 10 }, 0, 0)).toBeCloseTo(7 / 11, 12);
    expect([0, 1, 2, 3].reduce((s, k) => s + betaBinomialPmf(3, k, 2, 5), 0)).toBeCloseTo(1, 12);
    // Beta(2, 1) on 1 trial: P(K = 1) = a / (a + b) = 2/3.
    expect(betaBinomialPmf(1, 1, 2, 1)).toBeCloseTo(2 / 3, 12);
    // A long record at 75% approaches the binomial figure 0.2241.
    expect(predictedRejectProbability(10, { num: 7, den: 10 }, 7500, 10000)).toBeCloseTo(0.2241, 2);
    // More gold right → smaller chance of rejection.
    expect(predictedRejectProbability(5, { num: 8, den: 10 }, 19, 20)).toBeLessThan(predictedRejectProbability(5, { num: 8, den: 10 }, 15, 20));
  });
});
