import { UserError } from "@/lib/errors";
import type { EncodedJudgments } from "./judgments";

export type CohenKappa = {
  /** (Pₒ − Pₑ)/(1 − Pₑ); NaN when undefined (no pairs, or Pₑ = 1). */
  kappa: number;
  /** Share of pairs that agree. */
  observed: number;
  /** Σₖ p_A(k)·p_B(k) from each annotator's own marginals. */
  expected: number;
  /** Pairs compared. */
  n: number;
};

/** Cohen's κ from a square contingency table (rows: annotator A's labels, columns: B's, same order). */
export function cohensKappaFromTable(table: ReadonlyArray<ReadonlyArray<number>>): CohenKappa {
  const K = table.length;
  for (const row of table) if (row.length !== K) throw new UserError("Cohen's κ needs a square table.");
  let n = 0;
  let agree = 0;
  const rows = new Float64Array(K);
  const cols = new Float64Array(K);
  for (let a = 0; a < K; a++) {
    for (let b = 0; b < K; b++) {
      const x = table[a][b];
      n += x;
      rows[a] += x;
      cols[b] += x;
      if (a === b) agree += x;
    }
  }
  if (n === 0) return { kappa: Number.NaN, observed: Number.NaN, expected: Number.NaN, n: 0 };
  let pe = 0;
  for (let k = 0; k < K; k++) pe += (rows[k] / n) * (cols[k] / n);
  const po = agree / n;
  return { kappa: pe < 1 ? (po - pe) / (1 - pe) : Number.NaN, observed: po, expected: pe, n };
}

/**
 * Cohen's κ for two annotators' labels of the same items (aligned arrays); positions where either is missing
 * (null/undefined/"") are skipped. Used for worker-vs-gold (b = expert labels) and worker-vs-worker views.
 */
export function cohensKappa(
  a: ReadonlyArray<string | null | undefined>,
  b: ReadonlyArray<string | null | undefined>,
): CohenKappa {
  if (a.length !== b.length) throw new UserError("Cohen's κ needs two label lists of the same length.");
  const code = new Map<string, number>();
  const pairs: Array<[number, number]> = [];
  const id = (l: string) => {
    let c = code.get(l);
    if (c === undefined) {
      c = code.size;
      code.set(l, c);
    }
    return c;
  };
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) continue;
    pairs.push([id(x), id(y)]);
  }
  const K = code.size;
  const table = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  for (const [x, y] of pairs) table[x][y]++;
  return cohensKappaFromTable(table);
}

/** Cohen's κ between two annotators of encoded judgments, over the items both judged. */
export function cohensKappaBetween(data: EncodedJudgments, annotatorA: string, annotatorB: string): CohenKappa {
  const ca = data.annotators.indexOf(annotatorA);
  const cb = data.annotators.indexOf(annotatorB);
  const a: string[] = [];
  const b: string[] = [];
  if (ca >= 0 && cb >= 0) {
    for (let i = 0; i < data.items.length; i++) {
      let la = -1;
      let lb = -1;
      for (let j = data.itemStart[i]; j < data.itemStart[i + 1]; j++) {
        if (data.annotator[j] === ca) la = data.label[j];
        else if (data.annotator[j] === cb) lb = data.label[j];
      }
      if (la >= 0 && lb >= 0) {
        a.push(data.labels[la]);
        b.push(data.labels[lb]);
      }
    }
  }
  return cohensKappa(a, b);
}
