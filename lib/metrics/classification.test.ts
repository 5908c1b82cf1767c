import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { createRng, randomInt } from "@/lib/util/random";
import { classificationReport, confusionMatrix, evaluate, type MetricName } from "./classification";

describe("classification metrics on hand-computed cases", () => {
  // gold a a a b b c / pred a a b b c c
  // a: P 2/2, R 2/3, F1 0.8 · b: P 1/2, R 1/2, F1 0.5 · c: P 1/2, R 1/1, F1 2/3
  const gold = ["a", "a", "a", "b", "b", "c"];
  const pred = ["a", "a", "b", "b", "c", "c"];

  it("builds the confusion matrix (rows gold, columns predicted)", () => {
    expect(confusionMatrix({ gold, pred })).toEqual({
      labels: ["a", "b", "c"],
      matrix: [
        [2, 1, 0],
        [0, 1, 1],
        [0, 0, 1],
      ],
    });
  });

  it("computes per-class, macro and weighted scores", () => {
    const r = classificationReport({ gold, pred });
    expect(r.n).toBe(6);
    expect(r.accuracy).toBeCloseTo(4 / 6, 12);
    const a = r.perClass[0];
    expect([a.label, a.precision, a.recall, a.support]).toEqual(["a", 1, 2 / 3, 3]);
    expect(a.f1).toBeCloseTo(0.8, 12);
    expect(r.perClass[1].f1).toBeCloseTo(0.5, 12);
    expect(r.perClass[2].f1).toBeCloseTo(2 / 3, 12);
    expect(r.macro.f1).toBeCloseTo((0.8 + 0.5 + 2 / 3) / 3, 12);
    expect(r.macro.recall).toBeCloseTo((2 / 3 + 1 / 2 + 1) / 3, 12);
    expect(r.macro.precision).toBeCloseTo((1 + 0.5 + 0.5) / 3, 12);
    expect(r.weighted.f1).toBeCloseTo((3 * 0.8 + 2 * 0.5 + 2 / 3) / 6, 12);
    expect(r.weighted.precision).toBeCloseTo(4.5 / 6, 12);
    // Weighted recall always equals accuracy.
    expect(r.weighted.recall).toBeCloseTo(r.accuracy, 12);
  });

  it("evaluates each named metric", () => {
    const score = (metric: MetricName) => evaluate({ gold, pred, metric }).score;
    expect(score("accuracy")).toBeCloseTo(2 / 3, 12);
    expect(score("macro-f1")).toBeCloseTo(0.655555555556, 10);
    expect(score("macro-recall")).toBeCloseTo(0.722222222222, 10);
    expect(score("weighted-f1")).toBeCloseTo(0.677777777778, 10);
    expect(score("f1:c")).toBeCloseTo(2 / 3, 12);
    expect(evaluate({ gold, pred }).metric).toBe("weighted-f1");
  });

  it("computes TweetEval's stance metric as the mean F1 of favor and against", () => {
    // favor: P 1/1, R 1/2 → F1 2/3 · against: P 2/3, R 2/3 → F1 2/3 · none is ignored
    const g = ["favor", "against", "none", "favor", "against", "against"];
    const p = ["favor", "none", "none", "against", "against", "against"];
    expect(evaluate({ gold: g, pred: p, metric: "stance" }).score).toBeCloseTo(2 / 3, 12);
    // all "none" right, favor/against all wrong: the stance score ignores the good "none" results
    const g2 = ["NONE", "NONE", "FAVOR", "AGAINST"];
    const p2 = ["NONE", "NONE", "AGAINST", "FAVOR"];
    expect(evaluate({ gold: g2, pred: p2, metric: "stance" }).score).toBe(0);
    expect(evaluate({ gold: g2, pred: p2, metric: "macro-f1" }).score).toBeCloseTo(1 / 3, 12);
    // explicit label names (e.g. TweetEval's numeric ids 1 = against, 2 = favor)
    const s = evaluate({ gold: ["1", "2", "0"], pred: ["1", "0", "0"], metric: "stance", stance: { against: "1", favor: "2" } });
    expect(s.score).toBeCloseTo(0.5, 12);
  });

  it("counts labels that only appear in predictions, like scikit-learn", () => {
    // x: P 1, R 1/2, F1 2/3 · y (never gold): P 0, R 0/0 = 0, F1 0
    const r = classificationReport({ gold: ["x", "x"], pred: ["x", "y"] });
    expect(r.perClass.map((c) => c.label)).toEqual(["x", "y"]);
    expect(r.macro.f1).toBeCloseTo(1 / 3, 12);
    expect(r.weighted.f1).toBeCloseTo(2 / 3, 12);
  });

  it("honours a requested label order and keeps absent labels with zero scores", () => {
    const c = confusionMatrix({ gold: ["b", "a"], pred: ["b", "b"], labels: ["z", "b"] });
    expect(c.labels).toEqual(["z", "b", "a"]);
    expect(c.matrix).toEqual([
      [0, 0, 0],
      [0, 1, 0],
      [0, 1, 0],
    ]);
  });

  it("rejects bad input with user errors", () => {
    expect(() => evaluate({ gold: ["a"], pred: [] })).toThrow(UserError);
    expect(() => evaluate({ gold: [], pred: [] })).toThrow(/nothing to evaluate/);
    expect(() => evaluate({ gold: ["a"], pred: ["a"], metric: "f1:zzz" })).toThrow(/zzz/);
    expect(() => evaluate({ gold: ["a"], pred: ["a"], metric: "stance" })).toThrow(/favor/);
    expect(() => evaluate({ gold: ["a"], pred: ["a"], metric: "bogus" as MetricName })).toThrow(/metric must be/);
  });
});

/**
 * A second, independent computation: per-label true/false positives and false negatives counted
 * straight from the pairs (no confusion matrix), with the textbook formulas F1 = 2TP / (2TP + FP + FN).
 */
function naive(gold: string[], pred: string[]) {
  const labels = [...new Set([...gold, ...pred])].sort();
  const rows = labels.map((label) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      if (g === label && pred[i] === label) tp++;
      else if (pred[i] === label) fp++;
      else if (g === label) fn++;
    });
    return {
      label,
      precision: tp + fp ? tp / (tp + fp) : 0,
      recall: tp + fn ? tp / (tp + fn) : 0,
      f1: tp ? (2 * tp) / (2 * tp + fp + fn) : 0,
      support: tp + fn,
    };
  });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const wmean = (xs: number[]) => xs.reduce((a, x, i) => a + x * rows[i].support, 0) / gold.length;
  return {
    rows,
    accuracy: gold.filter((g, i) => g === pred[i]).length / gold.length,
    macroF1: mean(rows.map((r) => r.f1)),
    macroRecall: mean(rows.map((r) => r.recall)),
    weightedF1: wmean(rows.map((r) => r.f1)),
    weightedPrecision: wmean(rows.map((r) => r.precision)),
  };
}

describe("agreement with an independent computation", () => {
  it("matches on random predictions over many label sets", () => {
    const rng = createRng(2024);
    for (let trial = 0; trial < 200; trial++) {
      const k = 2 + randomInt(rng, 6);
      const n = 1 + randomInt(rng, 80);
      const labels = Array.from({ length: k }, (_, i) => `L${i}`);
      // skewed gold, predictions right about half of the time
      const gold = Array.from({ length: n }, () => labels[Math.min(randomInt(rng, k), randomInt(rng, k))]);
      const pred = gold.map((g) => (rng() < 0.5 ? g : labels[randomInt(rng, k)]));
      const r = classificationReport({ gold, pred });
      const ref = naive(gold, pred);
      expect(r.perClass.map((c) => c.label)).toEqual(ref.rows.map((c) => c.label));
      r.perClass.forEach((c, i) => {
        expect(c.precision).toBeCloseTo(ref.rows[i].precision, 12);
        expect(c.recall).toBeCloseTo(ref.rows[i].recall, 12);
        expect(c.f1).toBeCloseTo(ref.rows[i].f1, 12);
        expect(c.support).toBe(ref.rows[i].support);
      });
      expect(r.accuracy).toBeCloseTo(ref.accuracy, 12);
      expect(r.macro.f1).toBeCloseTo(ref.macroF1, 12);
      expect(r.macro.recall).toBeCloseTo(ref.macroRecall, 12);
      expect(r.weighted.f1).toBeCloseTo(ref.weightedF1, 12);
      expect(r.weighted.precision).toBeCloseTo(ref.weightedPrecision, 12);
      const total = r.confusion.matrix.flat().reduce((a, b) => a + b, 0);
      expect(total).toBe(n);
    }
  });
});
