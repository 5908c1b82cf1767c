/**
 * Published reliability data used by the metric tests (numbers only; sources next to each).
 * Not a test file itself: imported by *.test.ts.
 */

/** Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", 4 observers × 12 units; null = missing. */
export const KRIPPENDORFF_2011: Array<Array<number | null>> = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];

/** 3 coders × 15 units with gaps (Krippendorff's and Wikipedia's computational example; fast-krippendorff tests). */
export const THREE_CODERS_15_UNITS: Array<Array<number | null>> = [
  [null, null, null, null, null, 3, 4, 1, 2, 1, 1, 3, 3, null, 3],
  [1, null, 2, 1, 3, 3, 4, 3, null, null, null, null, null, null, null],
  [null, null, 2, 1, 3, 4, 4, null, 2, 1, 1, 3, 3, null, 4],
];

/** Wikipedia "Fleiss' kappa" worked example: 10 subjects × 14 raters, counts per category. */
export const WIKIPEDIA_FLEISS = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

/** Fleiss (1971) psychiatric diagnoses, 30 subjects × 6 raters, categories 1–5 (R irr `diagnoses`). */
export const FLEISS_1971_DIAGNOSES = [
  [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
  [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
  [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
  [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
  [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
  [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
];

/** irrCAC `distrib.6raters` (Gwet 2014): 15 patients × 6 psychiatrists, counts per category. */
export const IRRCAC_DISTRIB_6RATERS = [
  [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
  [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
  [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
];

/** irrCAC `cont3x3abstractors`: 2 raters' contingency table (rows rater A). */
export const IRRCAC_ABSTRACTORS = [
  [13, 0, 0],
  [0, 20, 7],
  [0, 4, 56],
];

/** SAS example used by statsmodels (unweighted κ 0.4842). */
export const SAS_TABLE10 = [
  [0, 4, 1],
  [0, 8, 0],
  [0, 1, 5],
];

/** R irr `anxiety`: 20 subjects × 3 raters (ratings 1–6). */
export const IRR_ANXIETY = (() => {
  const flat = [
    3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3, 3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3,
    3, 4, 2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2,
  ];
  return Array.from({ length: 20 }, (_, i) => [flat[i], flat[20 + i], flat[40 + i]]);
})();

/** Dawid–Skene toy data (crowd-kit tests; the issue): 5 tasks × 5 workers, truth yes/yes/no/yes/no. */
export const DS_TOY: Array<Array<string | null>> = [
  ["no", "yes", null, "yes", "no"],
  ["yes", "yes", "yes", "no", "no"],
  ["yes", "no", "no", "yes", "no"],
  ["yes", "yes", "yes", "yes", "yes"],
  ["yes", "no", "no", "no", "no"],
];
