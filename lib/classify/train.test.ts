import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { evaluate } from "@/lib/metrics/classification";
import type { LabelPredictor } from "./model";
import { deserializeClassifier, serializeClassifier } from "./serialize";
import { syntheticTweets, VOCAB } from "./synthetic.fixture";
import { fitProbabilityScale, trainClassifier } from "./train";

const train = syntheticTweets(400, 1);
const dev = syntheticTweets(80, 2);
const test = syntheticTweets(200, 3);

describe("trainClassifier", () => {
  const model = trainClassifier({ ...train });

  it("learns the classes of the generated tweets", () => {
    expect(model.labels).toEqual(Object.keys(VOCAB).sort());
    const pred = model.predict(test.texts);
    expect(evaluate({ gold: test.labels, pred, metric: "accuracy" }).score).toBeGreaterThan(0.9);
    expect(model.predict(["donate blood and supplies at the shelter", "prayers and love to everyone"])).toEqual([
      "rescue_volunteering_or_donation_effort",
      "sympathy_and_support",
    ]);
  });

  it("gives probabilities that sum to 1 and agree with predict", () => {
    const texts = test.texts.slice(0, 30);
    const proba = model.predictProba(texts);
    const pred = model.predict(texts);
    proba.forEach((p, i) => {
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect(model.labels[p.indexOf(Math.max(...p))]).toBe(pred[i]);
    });
  });

  it("records how it was trained", () => {
    expect(model.info.rows).toBe(400);
    expect(model.info.labelCounts.not_humanitarian).toBe(100);
    expect(model.info.features).toBeGreaterThan(100);
    expect(model.info.options.features.preprocess).toEqual({ stopWords: true, asciiOnly: true });
    expect(model.info.dev).toBeUndefined();
  });

  it("is deterministic", () => {
    const again = trainClassifier({ ...train });
    expect(Array.from(again.linear.weights)).toEqual(Array.from(model.linear.weights));
  });

  it("chooses C and class weighting on dev data by the chosen metric and calibrates probabilities", () => {
    const m = trainClassifier({ ...train, dev, options: { metric: "macro-f1", search: { c: [0.01, 1], classWeight: ["none"] } } });
    expect(m.info.search).toHaveLength(2);
    const best = Math.max(...(m.info.search ?? []).map((s) => s.score));
    expect(m.info.dev).toEqual({ rows: 80, metric: "macro-f1", score: best });
    const pred = m.predict(dev.texts);
    expect(evaluate({ gold: dev.labels, pred, metric: "macro-f1" }).score).toBeCloseTo(best, 12);
    expect(m.linear.probabilityScale).not.toBe(model.linear.probabilityScale);
    // the default grid: 3 values of C × 2 class weightings
    expect(trainClassifier({ ...train, dev }).info.search).toHaveLength(6);
    expect(trainClassifier({ ...train, dev, options: { search: false } }).info.search).toBeUndefined();
  });

  it("trains two-class models with one weight vector, both losses", () => {
    const labels = ["sympathy_and_support", "not_humanitarian"];
    const two = syntheticTweets(200, 4, labels);
    for (const loss of ["svm", "logistic"] as const) {
      const m = trainClassifier({ ...two, options: { loss } });
      expect(m.linear.outputs).toBe(1);
      const t = syntheticTweets(100, 5, labels);
      expect(evaluate({ gold: t.labels, pred: m.predict(t.texts), metric: "accuracy" }).score).toBeGreaterThan(0.9);
      // logistic probabilities are the sigmoid of the score
      if (loss === "logistic") {
        const s = m.scores([t.texts[0]])[0][1];
        expect(m.predictProba([t.texts[0]])[0][1]).toBeCloseTo(1 / (1 + Math.exp(-s)), 9);
      }
    }
  });

  it("satisfies the ingest pipeline's predictor interface, also after a save and load", () => {
    const loaded: LabelPredictor = deserializeClassifier(serializeClassifier(model));
    const texts = test.texts.slice(0, 50);
    expect(loaded.predict(texts)).toEqual(model.predict(texts));
  });

  it("rejects unusable data and options with user errors", () => {
    expect(() => trainClassifier({ texts: ["a"], labels: [] })).toThrow(/1 texts but 0 labels/);
    expect(() => trainClassifier({ texts: ["a", "b"], labels: ["x", "x"] })).toThrow(/at least two labels/);
    expect(() => trainClassifier({ texts: ["a", "b"], labels: ["x", ""] })).toThrow(/row 2 has no label/);
    expect(() => trainClassifier({ ...train, options: { c: -1 } })).toThrow(UserError);
    expect(() => trainClassifier({ ...train, options: { wordNgrams: [3, 1] } })).toThrow(/min ≤ max/);
    expect(() => trainClassifier({ ...train, options: { bogus: 1 } as never })).toThrow(UserError);
    expect(() => trainClassifier({ ...train, dev, options: { metric: "stance" } })).toThrow(/needs a "favor" and an "against"/);
    expect(() => trainClassifier({ ...train, dev, options: { metric: "f1:nope" } })).toThrow(/no label "nope"/);
  });
});

describe("fitProbabilityScale", () => {
  it("finds the temperature that minimises the log-loss", () => {
    // Two classes, scores ±1, right 3 times out of 4: the best sigmoid(2t) = 0.75 → t = ln(3) / 2.
    const scores = [Float64Array.of(1, -1), Float64Array.of(1, -1), Float64Array.of(1, -1), Float64Array.of(1, -1)];
    expect(fitProbabilityScale(scores, [0, 0, 0, 1])).toBeCloseTo(Math.log(3) / 2, 4);
  });
});
