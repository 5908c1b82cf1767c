import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { averageMajorityAgreement, averageObservedAgreement, fleissKappa, nominalAgreement } from "./agreement";
import { cohensKappa, cohensKappaBetween, cohensKappaFromTable } from "./cohen";
import { countsFromTable, encodeJudgments, encodeMatrix, type EncodedJudgments, type Judgment } from "./judgments";
import { krippendorffAlpha, type AlphaLevel } from "./krippendorff";
import {
  FLEISS_1971_DIAGNOSES,
  IRR_ANXIETY,
  IRRCAC_ABSTRACTORS,
  IRRCAC_DISTRIB_6RATERS,
  KRIPPENDORFF_2011,
  SAS_TABLE10,
  THREE_CODERS_15_UNITS,
  WIKIPEDIA_FLEISS,
} from "./published-data.fixture";
import { createRng, randomInt } from "@/lib/util/random";

const close = (actual: number, expected: number, tol = 1e-6) => expect(Math.abs(actual - expected)).toBeLessThan(tol);

/** Items from a counts table: item i gets counts[i][k] judgments of label k by distinct annotators. */
function fromCounts(table: number[][]): EncodedJudgments {
  const rows: Judgment[] = [];
  table.forEach((row, i) => {
    let a = 0;
    row.forEach((c, k) => {
      for (let x = 0; x < c; x++) rows.push({ item: `s${i}`, annotator: `r${a++}`, label: `c${k}` });
    });
  });
  return encodeJudgments(rows);
}

function fromContingency(table: number[][]): EncodedJudgments {
  const rows: Judgment[] = [];
  let item = 0;
  table.forEach((row, a) =>
    row.forEach((c, b) => {
      for (let x = 0; x < c; x++, item++) {
        rows.push({ item: `u${item}`, annotator: "A", label: `c${a}` });
        rows.push({ item: `u${item}`, annotator: "B", label: `c${b}` });
      }
    }),
  );
  return encodeJudgments(rows);
}

describe("Fleiss' κ: published values", () => {
  it("Wikipedia example: κ = 0.2099307, P̄ = 0.3780220, P̄e = 0.2127551", () => {
    for (const input of [countsFromTable(WIKIPEDIA_FLEISS), fromCounts(WIKIPEDIA_FLEISS)]) {
      const a = nominalAgreement(input);
      close(a.fleissKappa, 0.2099307);
      close(a.observed, 0.378022);
      close(a.expected, 0.2127551);
    }
  });

  it("Fleiss (1971) psychiatric diagnoses: κ = 0.4302445 (R irr kappam.fleiss)", () => {
    const data = encodeMatrix(FLEISS_1971_DIAGNOSES);
    close(fleissKappa(data), 0.4302445);
  });

  it("irrCAC distrib.6raters: κ = 0.4139265, pa = 0.5511111, pe = 0.2340741; α = 0.4204384", () => {
    const c = countsFromTable(IRRCAC_DISTRIB_6RATERS);
    const a = nominalAgreement(c);
    close(a.fleissKappa, 0.4139265);
    close(a.observed, 0.5511111);
    close(a.expected, 0.2340741);
    close(krippendorffAlpha(c), 0.4204384);
  });

  it("irrCAC fleiss.kappa.raw on cac.raw4raters (variable raters, a unit with one rating): pa, pe, κ", () => {
    const data = encodeMatrix(KRIPPENDORFF_2011, { layout: "annotators-by-items" });
    const a = nominalAgreement(data);
    close(a.observed, 0.8181818);
    close(a.expected, 0.2387153);
    close(a.fleissKappa, 0.76117, 5e-6); // irrCAC prints 5 decimals
    expect(a.pairableItems).toBe(11);
  });
});

describe("Krippendorff's α: published values", () => {
  const k2011 = encodeMatrix(KRIPPENDORFF_2011, { layout: "annotators-by-items" });
  const three = encodeMatrix(THREE_CODERS_15_UNITS, { layout: "annotators-by-items" });

  it("Krippendorff (2011): nominal 0.7434210526, interval 0.8491071429", () => {
    close(krippendorffAlpha(k2011), 0.7434210526);
    close(krippendorffAlpha(k2011, { level: "interval" }), 0.8491071429);
  });

  it("Krippendorff (2011) ordinal 0.815 and ratio 0.797 (published to 3 decimals)", () => {
    close(krippendorffAlpha(k2011, { level: "ordinal" }), 0.815, 5e-4);
    close(krippendorffAlpha(k2011, { level: "ratio" }), 0.797, 5e-4);
  });

  it("Krippendorff (2011) binary data, two observers: α = 0.095 (= 1 − 19·8/168)", () => {
    const data = encodeMatrix(
      [
        [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
        [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
      ],
      { layout: "annotators-by-items" },
    );
    close(krippendorffAlpha(data), 0.095, 5e-4);
    close(krippendorffAlpha(data), 1 - 152 / 168, 1e-12);
  });

  it("Krippendorff (2011) nominal data, two observers: α = 0.692 (= 1 − 23·6/448)", () => {
    const data = encodeMatrix(
      ["a a b b d c c c e d d a".split(" "), "b a b b b c c c e d d d".split(" ")],
      { layout: "annotators-by-items" },
    );
    close(krippendorffAlpha(data), 0.692, 5e-4);
    close(krippendorffAlpha(data), 1 - 138 / 448, 1e-12);
  });

  it("3 coders × 15 units: nominal 0.691358, interval 0.810845", () => {
    close(krippendorffAlpha(three), 0.691358, 5e-7);
    close(krippendorffAlpha(three, { level: "interval" }), 0.810845, 5e-7);
  });

  it("string labels with an ordinal order give the same α as the numbers", () => {
    const names = ["very low", "low", "mid", "high", "very high"];
    const named = encodeMatrix(
      KRIPPENDORFF_2011.map((r) => r.map((v) => (v === null ? null : names[v - 1]))),
      { layout: "annotators-by-items" },
    );
    close(
      krippendorffAlpha(named, { level: "ordinal", order: names }),
      krippendorffAlpha(k2011, { level: "ordinal" }),
      1e-12,
    );
    expect(() => krippendorffAlpha(named, { level: "interval" })).toThrow(UserError);
    expect(() => krippendorffAlpha(named, { level: "ordinal", order: names.slice(1) })).toThrow(UserError);
  });

  it("nominal string labels: 0.722222 (fast-krippendorff test)", () => {
    const data = encodeMatrix(
      [
        ["pos", "neg", "neu", null],
        ["pos", "neg", "neu", "pos"],
        ["pos", "neg", "pos", "pos"],
      ],
      { layout: "annotators-by-items" },
    );
    close(krippendorffAlpha(data), 0.722222, 5e-7);
  });

  it("irrCAC cont3x3abstractors (2 raters): α = 0.7972585", () => {
    close(krippendorffAlpha(fromContingency(IRRCAC_ABSTRACTORS)), 0.7972585);
  });

  it("ratio α is 1 for perfect agreement including zeros; α is NaN without variation or pairs", () => {
    expect(krippendorffAlpha(encodeMatrix([[0, 1, 2], [0, 1, 2]], { layout: "annotators-by-items" }), { level: "ratio" })).toBe(1);
    expect(krippendorffAlpha(encodeMatrix([[1, 1], [1, 1]]))).toBeNaN();
    expect(krippendorffAlpha(encodeMatrix([[1, null], [null, 2]]))).toBeNaN();
  });
});

describe("Cohen's κ: published values", () => {
  it("Wikipedia: 20/5/10/15 → κ = 0.4", () => {
    close(cohensKappaFromTable([[20, 5], [10, 15]]).kappa, 0.4, 1e-12);
  });
  it("irrCAC cont3x3abstractors: κ = 0.7964094, agreement 0.89", () => {
    const r = cohensKappaFromTable(IRRCAC_ABSTRACTORS);
    close(r.kappa, 0.7964094);
    close(r.observed, 0.89, 1e-12);
    const data = fromContingency(IRRCAC_ABSTRACTORS);
    close(cohensKappaBetween(data, "A", "B").kappa, 0.7964094);
  });
  it("SAS example (statsmodels): κ = 0.4842", () => {
    close(cohensKappaFromTable(SAS_TABLE10).kappa, 0.4842, 5e-5);
  });
  it("R irr kappa2(anxiety[, 2:3]) = -0.006289308", () => {
    const r = cohensKappa(
      IRR_ANXIETY.map((row) => String(row[1])),
      IRR_ANXIETY.map((row) => String(row[2])),
    );
    close(r.kappa, -0.006289308, 1e-9);
    expect(r.n).toBe(20);
  });
  it("skips missing pairs and handles the degenerate cases", () => {
    const r = cohensKappa(["a", "b", null, "a"], ["a", "b", "a", ""]);
    expect(r.n).toBe(2);
    expect(r.kappa).toBe(1);
    expect(cohensKappa([], []).kappa).toBeNaN();
    expect(cohensKappa(["a", "a"], ["a", "a"]).kappa).toBeNaN();
    expect(() => cohensKappa(["a"], [])).toThrow(UserError);
  });
});

// ---- Independent brute-force implementations (pairs enumerated from the raw values) ----

type Unit = Array<number>; // values of one unit

function bruteAlpha(units: Unit[], level: AlphaLevel): number {
  const pairable = units.filter((u) => u.length >= 2);
  const all = pairable.flat();
  const n = all.length;
  const freq = new Map<number, number>();
  for (const v of all) freq.set(v, (freq.get(v) ?? 0) + 1);
  const sortedValues = [...freq.keys()].sort((a, b) => a - b);
  const delta = (a: number, b: number): number => {
    if (level === "nominal") return a === b ? 0 : 1;
    if (level === "interval") return (a - b) ** 2;
    if (level === "ratio") return a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
    if (a === b) return 0;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    let s = 0;
    for (const v of sortedValues) if (v >= lo && v <= hi) s += freq.get(v) ?? 0;
    return (s - ((freq.get(a) ?? 0) + (freq.get(b) ?? 0)) / 2) ** 2;
  };
  let dO = 0;
  for (const u of pairable) {
    let s = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) s += delta(u[i], u[j]);
    dO += s / (u.length - 1);
  }
  dO /= n;
  let dE = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) dE += delta(all[i], all[j]);
  dE /= n * (n - 1);
  return 1 - dO / dE;
}

function bruteFleissGwet(units: Unit[]): { kappa: number; po: number; majority: number } {
  const rated = units.filter((u) => u.length >= 1);
  const pair = units.filter((u) => u.length >= 2);
  let po = 0;
  let maj = 0;
  for (const u of pair) {
    let agree = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j && u[i] === u[j]) agree++;
    po += agree / (u.length * (u.length - 1));
    const counts = new Map<number, number>();
    for (const v of u) counts.set(v, (counts.get(v) ?? 0) + 1);
    maj += Math.max(...counts.values()) / u.length;
  }
  po /= pair.length;
  maj /= pair.length;
  const cats = [...new Set(rated.flat())];
  let pe = 0;
  for (const c of cats) {
    let p = 0;
    for (const u of rated) p += u.filter((v) => v === c).length / u.length;
    p /= rated.length;
    pe += p * p;
  }
  return { kappa: (po - pe) / (1 - pe), po, majority: maj };
}

function classicFleiss(units: Unit[]): number {
  const r = units[0].length;
  const N = units.length;
  const cats = [...new Set(units.flat())];
  let pBar = 0;
  for (const u of units) {
    let s = 0;
    for (const c of cats) {
      const n = u.filter((v) => v === c).length;
      s += n * n;
    }
    pBar += (s - r) / (r * (r - 1));
  }
  pBar /= N;
  let pe = 0;
  for (const c of cats) pe += (units.flat().filter((v) => v === c).length / (N * r)) ** 2;
  return (pBar - pe) / (1 - pe);
}

function randomData(seed: number, items: number, annotators: number, labels: number, missing: number) {
  const rng = createRng(seed);
  const matrix: Array<Array<number | null>> = [];
  for (let i = 0; i < items; i++) {
    const t = randomInt(rng, labels);
    matrix.push(
      Array.from({ length: annotators }, () => (rng() < missing ? null : rng() < 0.6 ? t + 1 : randomInt(rng, labels) + 1)),
    );
  }
  const units = matrix.map((row) => row.filter((v): v is number => v !== null));
  return { matrix, units };
}

describe("cross-checks against brute-force implementations", () => {
  it("Krippendorff's α (all four levels), Gwet/Fleiss κ, observed and majority agreement on random data", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { matrix, units } = randomData(seed, 40 + seed * 5, 3 + (seed % 4), 2 + (seed % 6), 0.3);
      const data = encodeMatrix(matrix);
      for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
        close(krippendorffAlpha(data, { level }), bruteAlpha(units, level), 1e-9);
      }
      const b = bruteFleissGwet(units);
      close(fleissKappa(data), b.kappa, 1e-9);
      close(averageObservedAgreement(data), b.po, 1e-9);
      close(averageMajorityAgreement(data), b.majority, 1e-9);
    }
  });

  it("Gwet's κ equals classic Fleiss (1971) when every item has the same number of raters", () => {
    for (let seed = 20; seed < 26; seed++) {
      const { matrix, units } = randomData(seed, 60, 5, 4, 0);
      close(fleissKappa(encodeMatrix(matrix)), classicFleiss(units), 1e-12);
    }
  });

  it("the published data sets agree with the brute-force α", () => {
    const units = KRIPPENDORFF_2011[0].map((_, u) =>
      KRIPPENDORFF_2011.map((row) => row[u]).filter((v): v is number => v !== null),
    );
    const data = encodeMatrix(KRIPPENDORFF_2011, { layout: "annotators-by-items" });
    for (const level of ["nominal", "ordinal", "interval", "ratio"] as const) {
      close(krippendorffAlpha(data, { level }), bruteAlpha(units, level), 1e-12);
    }
  });
});
