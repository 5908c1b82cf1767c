import { describe, expect, it } from "vitest";
import { createRng, randomInt } from "@/lib/util/random";
import type { SparseRows } from "./features";
import { type LinearProblem, type LinearSolution, type Loss, trainOneVsRest } from "./linear";

/** A random sparse problem whose classes depend on a few "signal" columns, plus noise. */
function problem(rows: number, cols: number, classes: number, seed: number): LinearProblem {
  const rng = createRng(seed);
  const indptr = new Int32Array(rows + 1);
  const indices: number[] = [];
  const values: number[] = [];
  const y = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    y[i] = randomInt(rng, classes);
    const used = new Set<number>();
    used.add(y[i]); // the class's own signal column, most of the time
    if (rng() < 0.2) used.add(randomInt(rng, classes));
    while (used.size < 6) used.add(classes + randomInt(rng, cols - classes));
    for (const c of used) {
      indices.push(c);
      values.push(0.2 + rng());
    }
    indptr[i + 1] = indices.length;
  }
  const x: SparseRows = { rows, cols, indptr, indices: Int32Array.from(indices), values: Float32Array.from(values) };
  const cost = Float64Array.from(y, (c) => (c === 0 ? 0.5 : 1.5));
  return { x, y, classes, cost, bias: 1 };
}

/** Gradient of the primal objective of output k at the solution (bias as a regularised feature). */
function primalGradient(p: LinearProblem, s: LinearSolution, k: number, loss: Loss): number[] {
  const K = s.outputs;
  const w = Array.from({ length: p.x.cols }, (_, j) => s.weights[j * K + k]);
  const b = s.biases[k] / p.bias;
  const grad = [...w, b];
  for (let i = 0; i < p.x.rows; i++) {
    const yi = (K === 1 ? p.y[i] === 1 : p.y[i] === k) ? 1 : -1;
    let m = b * p.bias;
    for (let j = p.x.indptr[i]; j < p.x.indptr[i + 1]; j++) m += w[p.x.indices[j]] * p.x.values[j];
    const coef =
      loss === "svm"
        ? -2 * p.cost[i] * yi * Math.max(0, 1 - yi * m)
        : -p.cost[i] * yi * (1 / (1 + Math.exp(yi * m)));
    for (let j = p.x.indptr[i]; j < p.x.indptr[i + 1]; j++) grad[p.x.indices[j]] += coef * p.x.values[j];
    grad[p.x.cols] += coef * p.bias;
  }
  return grad;
}

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((a, x) => a + x * x, 0));

describe("dual coordinate descent", () => {
  for (const loss of ["svm", "logistic"] as const) {
    it(`reaches the optimum of the primal problem (${loss}): gradient ≈ 0`, () => {
      const p = problem(300, 40, 3, 11);
      const s = trainOneVsRest(p, { loss, epsilon: 1e-5, maxIterations: 5000, seed: 3 });
      expect(s.outputs).toBe(3);
      for (let k = 0; k < 3; k++) {
        const g = primalGradient(p, s, k, loss);
        const w = Array.from({ length: p.x.cols }, (_, j) => s.weights[j * 3 + k]);
        expect(norm(g) / norm(w)).toBeLessThan(2e-3);
      }
    });

    it(`solves one-vs-rest outputs exactly like separate binary problems (${loss})`, () => {
      const p = problem(200, 30, 3, 5);
      const joint = trainOneVsRest(p, { loss, epsilon: 1e-6, maxIterations: 5000, seed: 1 });
      for (let k = 0; k < 3; k++) {
        const binary = trainOneVsRest(
          { ...p, classes: 2, y: Int32Array.from(p.y, (c) => (c === k ? 1 : 0)) },
          { loss, epsilon: 1e-6, maxIterations: 5000, seed: 9 },
        );
        expect(binary.outputs).toBe(1);
        for (let j = 0; j < p.x.cols; j++) expect(joint.weights[j * 3 + k]).toBeCloseTo(binary.weights[j], 2);
        expect(joint.biases[k]).toBeCloseTo(binary.biases[0], 2);
      }
    });
  }

  it("reaches the same optimum from a warm start, in fewer iterations (svm)", () => {
    const p = problem(300, 40, 3, 13);
    const options = { loss: "svm" as const, epsilon: 1e-4, maxIterations: 5000, seed: 2 };
    const smallC = trainOneVsRest({ ...p, cost: p.cost.map((c) => c / 3) }, options);
    const cold = trainOneVsRest(p, options);
    const warm = trainOneVsRest(p, { ...options, warmStart: smallC.alpha });
    expect(warm.iterations).toBeLessThan(cold.iterations);
    for (let j = 0; j < cold.weights.length; j++) expect(warm.weights[j]).toBeCloseTo(cold.weights[j], 2);
  });

  it("separates the classes of a learnable problem and is deterministic for a seed", () => {
    const p = problem(400, 50, 4, 2);
    const options = { loss: "svm" as const, epsilon: 0.1, maxIterations: 100, seed: 7 };
    const s = trainOneVsRest(p, options);
    let correct = 0;
    for (let i = 0; i < p.x.rows; i++) {
      const scores = Array.from(s.biases);
      for (let j = p.x.indptr[i]; j < p.x.indptr[i + 1]; j++) {
        for (let k = 0; k < 4; k++) scores[k] += s.weights[p.x.indices[j] * 4 + k] * p.x.values[j];
      }
      if (scores.indexOf(Math.max(...scores)) === p.y[i]) correct++;
    }
    expect(correct / p.x.rows).toBeGreaterThan(0.9);
    expect(Array.from(trainOneVsRest(p, options).weights)).toEqual(Array.from(s.weights));
  });
});
