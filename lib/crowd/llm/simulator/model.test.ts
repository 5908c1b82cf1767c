import { describe, expect, it } from "vitest";
import { textKey, truthFromMap } from "@/lib/crowd/simulator/truth";
import { createRng } from "@/lib/util/random";
import { drawConfusionMatrix, LabellingModel } from "./model";

const LABELS = ["caution_and_advice", "displaced_people", "infrastructure_damage", "injured_or_dead", "not_humanitarian", "rescue_volunteering"];

/** 300 tweets per class with a known truth, looked up by text key as Accord's oracle does. */
function corpus() {
  const truth = new Map<string, string>();
  const tweets: Array<{ text: string; truth: string }> = [];
  for (const label of LABELS)
    for (let i = 0; i < 300; i++) {
      const text = `tweet ${i} about ${label.replace(/_/g, " ")}`;
      truth.set(textKey(text), label);
      tweets.push({ text, truth: label });
    }
  return { truth: truthFromMap(truth), tweets };
}

describe("drawConfusionMatrix", () => {
  it("draws systematic swaps between neighbouring classes once per seed, rows summing to 1", () => {
    const m = drawConfusionMatrix(LABELS, 7);
    expect(m.confusions).toHaveLength(2);
    for (const c of m.confusions) {
      expect(Math.abs(LABELS.indexOf(c.from) - LABELS.indexOf(c.to))).toBe(1);
      expect(c.rate).toBeGreaterThanOrEqual(0.3);
      expect(c.rate).toBeLessThanOrEqual(0.5);
    }
    for (const l of LABELS) expect(Object.values(m.rows[l]).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(drawConfusionMatrix(LABELS, 7)).toEqual(m);
    const others = [8, 9, 10, 11].map((s) => JSON.stringify(drawConfusionMatrix(LABELS, s).confusions));
    expect(others.some((o) => o !== JSON.stringify(m.confusions))).toBe(true);
  });

  it("has no confusion for a single label", () => {
    expect(drawConfusionMatrix(["only"], 1).rows).toEqual({ only: { only: 1 } });
  });
});

describe("LabellingModel", () => {
  it("makes the same mistake for the same class across many tweets, at the drawn rate", () => {
    const { truth, tweets } = corpus();
    const model = new LabellingModel({ seed: 7, truth });
    const m = model.matrix(LABELS);
    const answers = tweets.map((t) => ({ ...t, answer: model.label(t.text, LABELS, 0) }));
    for (const c of m.confusions) {
      const ofClass = answers.filter((a) => a.truth === c.from);
      const wrong = ofClass.filter((a) => a.answer !== c.from);
      const toNeighbour = ofClass.filter((a) => a.answer === c.to).length / ofClass.length;
      // The measured swap rate is the drawn one (±0.07 over 300 tweets), and most errors go to the same neighbour.
      expect(Math.abs(toNeighbour - (c.rate + 0.04 / (LABELS.length - 1)))).toBeLessThan(0.07);
      expect(wrong.filter((a) => a.answer === c.to).length / wrong.length).toBeGreaterThan(0.8);
    }
    const unconfused = LABELS.filter((l) => !m.confusions.some((c) => c.from === l));
    for (const l of unconfused) {
      const ofClass = answers.filter((a) => a.truth === l);
      expect(ofClass.filter((a) => a.answer === l).length / ofClass.length).toBeGreaterThan(0.9);
    }
  });

  it("is deterministic at temperature 0 and noisy per call above it", () => {
    const { truth, tweets } = corpus();
    const model = new LabellingModel({ seed: 3, truth });
    const texts = tweets.map((t) => t.text);
    const first = texts.map((t) => model.label(t, LABELS, 0, createRng(1)));
    expect(texts.map((t) => model.label(t, LABELS, 0, createRng(2)))).toEqual(first);
    const hot = texts.map((t) => model.label(t, LABELS, 1, createRng(99)));
    const changed = hot.filter((l, i) => l !== first[i]).length / texts.length;
    expect(changed).toBeGreaterThan(0.02);
    expect(changed).toBeLessThan(0.5);
  });

  it("answers a seeded pseudo-truth without an oracle, the same in every run with the same seed", () => {
    const a = new LabellingModel({ seed: 5 });
    const b = new LabellingModel({ seed: 5 });
    const texts = Array.from({ length: 50 }, (_, i) => `text ${i}`);
    expect(texts.map((t) => a.label(t, LABELS))).toEqual(texts.map((t) => b.label(t, LABELS)));
    expect(new Set(texts.map((t) => a.truth(t, LABELS))).size).toBeGreaterThan(3);
  });
});
