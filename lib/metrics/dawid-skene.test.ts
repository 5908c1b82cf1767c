import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { dawidSkene, dawidSkenePausing } from "./dawid-skene";
import { encodeJudgments, encodeMatrix, type Judgment } from "./judgments";
import { majorityLabels, majorityVote } from "./majority-vote";
import { DS_TOY } from "./published-data.fixture";
import { generateCrowdJudgments } from "./synthetic";

const toy = encodeMatrix(DS_TOY, {
  itemIds: ["t1", "t2", "t3", "t4", "t5"],
  annotatorIds: ["w1", "w2", "w3", "w4", "w5"],
  labels: ["no", "yes"],
});
const pYes = (r: ReturnType<typeof dawidSkene>) => r.items.map((_, i) => r.posteriors[i * 2 + 1]);

describe("Dawid–Skene on the published 5 × 5 toy data", () => {
  it("starts from vote shares (0 iterations)", () => {
    const r = dawidSkene(toy, { maxIterations: 0 });
    const expected = [0.5, 0.6, 0.4, 1, 0.2];
    pYes(r).forEach((p, i) => expect(p).toBeCloseTo(expected[i], 12));
    expect(r.priors.no).toBeCloseTo(0.46, 12); // crowd-kit priors_iter_0
  });

  it("after one EM iteration P(yes) = [0.648062, 0.739779, 0.126600, 1, 0.052982]", () => {
    const r = dawidSkene(toy, { maxIterations: 1 });
    const expected = [0.648062, 0.739779, 0.1266, 1, 0.052982];
    pYes(r).forEach((p, i) => expect(Math.abs(p - expected[i])).toBeLessThan(1e-6));
    expect(r.iterations).toBe(1);
    // crowd-kit errors_iter_1 (2 decimals): P(answer | true)
    const w = (name: string) => r.workers.find((x) => x.annotator === name)!.confusion;
    const noK = 0;
    const yesK = 1;
    const within = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(0.005);
    within(w("w1")[noK][noK], 0.14);
    within(w("w1")[yesK][noK], 0.25);
    within(w("w2")[noK][noK], 0.75);
    within(w("w2")[yesK][noK], 0.07);
    within(w("w3")[noK][noK], 0.87);
    within(w("w4")[yesK][yesK], 0.69);
    within(w("w5")[noK][yesK], 0);
    within(w("w5")[yesK][noK], 0.61);
    within(r.priors.no, 0.49);
    for (const x of r.workers) for (const row of x.confusion) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("converges to yes, yes, no, yes, no with priors (no 0.4, yes 0.6)", () => {
    const r = dawidSkene(toy);
    expect(r.itemLabels).toEqual(["yes", "yes", "no", "yes", "no"]);
    expect(r.converged).toBe(true);
    expect(r.priors.no).toBeCloseTo(0.4, 6);
    expect(r.priors.yes).toBeCloseTo(0.6, 6);
    // majority: t1 is a 2/2 tie, the rest agree with Dawid–Skene
    expect(r.disagreements).toEqual([{ item: "t1", majority: null, dawidSkene: "yes", posterior: expect.any(Number) }]);
  });

  it("crowd-kit overlap test: symmetric workers give 1/3 vs 2/3 for every task", () => {
    for (const overlap of [3, 300]) {
      const rows: Judgment[] = [];
      for (let w = 0; w < overlap; w++) {
        for (let t = 0; t < 3; t++) rows.push({ item: `t${t}`, annotator: `w${w}`, label: (w - t) % 3 ? "yes" : "no" });
      }
      const r = dawidSkene(encodeJudgments(rows), { maxIterations: 20 });
      expect(r.itemLabels).toEqual(["yes", "yes", "yes"]);
      const k = r.labels.indexOf("yes");
      for (let i = 0; i < 3; i++) expect(Math.abs(r.posteriors[i * 2 + k] - 2 / 3)).toBeLessThan(0.005);
      expect(Math.abs(r.priors.yes - 2 / 3)).toBeLessThan(0.005);
    }
  });

  it("keeps gold items at their label and lets them anchor the rest", () => {
    const r = dawidSkene(toy, { gold: { t1: "no", t3: "no" }, maxIterations: 3 });
    expect(r.posteriors[0 * 2 + 0]).toBe(1);
    expect(r.posteriors[2 * 2 + 0]).toBe(1);
    expect(r.itemLabels[0]).toBe("no");
    const viaMap = dawidSkene(toy, { gold: new Map([["t1", "no"], ["t3", "no"]]), maxIterations: 3 });
    expect(Array.from(viaMap.posteriors)).toEqual(Array.from(r.posteriors));
    expect(() => dawidSkene(toy, { gold: { t1: "maybe" } })).toThrow(UserError);
  });

  it("posteriors are distributions and smoothing keeps every confusion entry positive", () => {
    const r = dawidSkene(toy, { smoothing: 0.5 });
    for (let i = 0; i < 5; i++) expect(r.posteriors[i * 2] + r.posteriors[i * 2 + 1]).toBeCloseTo(1, 12);
    for (const w of r.workers) for (const row of w.confusion) for (const p of row) expect(p).toBeGreaterThan(0);
  });
});

/** Independent textbook implementation: nested arrays, log space, same initialisation; returns P after `its`. */
function referenceDawidSkene(rows: Judgment[], classes: string[], its: number): Map<string, number[]> {
  const K = classes.length;
  const items = [...new Set(rows.map((r) => r.item))];
  const workers = [...new Set(rows.map((r) => r.annotator))];
  const byItem = new Map(items.map((i) => [i, rows.filter((r) => r.item === i)]));
  let T = new Map(
    items.map((i) => {
      const js = byItem.get(i)!;
      return [i, classes.map((c) => js.filter((j) => j.label === c).length / js.length)];
    }),
  );
  for (let it = 0; it < its; it++) {
    const prior = classes.map((_, k) => items.reduce((s, i) => s + T.get(i)![k], 0) / items.length);
    const conf = new Map<string, number[][]>();
    for (const w of workers) {
      const m = classes.map(() => classes.map(() => 0));
      for (const r of rows) if (r.annotator === w) for (let t = 0; t < K; t++) m[t][classes.indexOf(r.label)] += T.get(r.item)![t];
      // a true class the worker never met: uninformative row (the convention of the implementation under test)
      conf.set(w, m.map((row) => {
        const z = row.reduce((a, b) => a + b, 0);
        return row.map((x) => (z > 0 ? x / z : 1 / K));
      }));
    }
    const next = new Map<string, number[]>();
    for (const i of items) {
      const logp = classes.map((_, t) =>
        byItem.get(i)!.reduce((s, r) => s + Math.log(conf.get(r.annotator)![t][classes.indexOf(r.label)]), Math.log(prior[t])),
      );
      const max = Math.max(...logp);
      const e = logp.map((x) => Math.exp(x - max));
      const z = e.reduce((a, b) => a + b, 0);
      // the implementation drops posterior terms below 1e-30 (documented); a worker row whose whole evidence is
      // such terms then becomes uninformative instead of a normalised 1e-40 mass
      next.set(i, e.map((x) => (x / z < 1e-30 ? 0 : x / z)));
    }
    T = next;
  }
  return T;
}

describe("Dawid–Skene vs an independent log-space implementation", () => {
  it("matches after 1, 2 and 5 iterations, including items with 60 judgments (no underflow)", () => {
    const classes = ["a", "b", "c"];
    const crowd = generateCrowdJudgments({ items: 60, labels: classes, workers: 80, minJudgments: 3, maxJudgments: 5, seed: 11 });
    const long = generateCrowdJudgments({ items: 4, labels: classes, workers: 80, minJudgments: 60, maxJudgments: 60, accuracy: [0.6, 0.9], seed: 12 });
    const rows = [...crowd.judgments, ...long.judgments.map((j) => ({ ...j, item: `long-${j.item}` }))];
    const data = encodeJudgments(rows, { labels: classes });
    for (const its of [1, 2, 5]) {
      const ref = referenceDawidSkene(rows, classes, its);
      const r = dawidSkene(data, { maxIterations: its, tolerance: 0 });
      data.items.forEach((item, i) => {
        for (let k = 0; k < 3; k++) expect(Math.abs(r.posteriors[i * 3 + k] - ref.get(item)![k])).toBeLessThan(1e-9);
      });
    }
  });
});

describe("Dawid–Skene vs majority vote on a simulated crowd", () => {
  it("recovers the truth at least as well as majority vote with systematic worker errors", () => {
    const labels = ["a", "b", "c", "d", "e"];
    const crowd = generateCrowdJudgments({ items: 3000, labels, workers: 40, accuracy: [0.35, 0.9], seed: 7 });
    const data = encodeJudgments(crowd.judgments);
    const ds = dawidSkene(data, { maxIterations: 50 });
    const mv = majorityVote(data);
    let dsRight = 0;
    let mvRight = 0;
    for (let i = 0; i < data.items.length; i++) {
      const truth = crowd.truth[Number(data.items[i].slice(1))];
      if (ds.itemLabels[i] === truth) dsRight++;
      if (mv.plurality[i] >= 0 && mv.labels[mv.plurality[i]] === truth) mvRight++;
    }
    expect(dsRight).toBeGreaterThan(mvRight);
    expect(dsRight / data.items.length).toBeGreaterThan(0.85);
    // the reported disagreements are exactly the items where the two labels differ
    const rows = majorityLabels(mv);
    const differ = rows.filter((row, i) => row.plurality !== ds.itemLabels[i]).map((row) => row.item);
    expect(ds.disagreements.map((d) => d.item)).toEqual(differ);
    // estimated worker accuracy (diagonal mass) tracks the simulated accuracy
    const w0 = ds.workers.find((w) => w.annotator === "w0")!;
    const diag = labels.reduce((s, _, k) => s + w0.confusion[k][k], 0) / labels.length;
    expect(Math.abs(diag - crowd.workerAccuracy[0])).toBeLessThan(0.15);
  });
});

describe("Dawid–Skene with pauses", () => {
  it("gives the same result as the run at once, pausing after every iteration but the last", async () => {
    const crowd = generateCrowdJudgments({ items: 200, labels: ["a", "b", "c"], workers: 12, seed: 9 });
    const data = encodeJudgments(crowd.judgments);
    for (const options of [{ maxIterations: 50, tolerance: 1e-6 }, { maxIterations: 4, tolerance: 0 }]) {
      let pauses = 0;
      const paused = await dawidSkenePausing(data, async () => void pauses++, options);
      const once = dawidSkene(data, options);
      expect(paused).toEqual(once);
      expect(pauses).toBe(once.converged ? once.iterations - 1 : once.iterations);
    }
  });
});
