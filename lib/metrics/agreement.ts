import { toCounts, type AgreementInput, type LabelCounts } from "./judgments";

/**
 * Agreement on nominal labels with a variable number of judgments per item (3–5, some missing). All four
 * measures come from the item × label counts in one pass (see nominalAgreement); NaN where a measure is
 * undefined (no item with two judgments, or no variation at all for κ/α).
 *
 * Fleiss' κ uses Gwet's definition for a variable number of raters (R irrCAC `fleiss.kappa.raw`):
 *   Pₒ = mean over items with rᵢ ≥ 2 of Σₖ nᵢₖ(nᵢₖ−1) / (rᵢ(rᵢ−1))
 *   Pₑ = Σₖ πₖ²,  πₖ = mean over items with rᵢ ≥ 1 of nᵢₖ/rᵢ
 *   κ = (Pₒ − Pₑ)/(1 − Pₑ)   — equal to Fleiss (1971) when every item has the same number of raters.
 * Krippendorff's α (nominal) from the coincidence matrix, units with fewer than 2 values ignored:
 *   α = 1 − (n−1)·Σᵤ (mᵤ² − Σ_c nᵤ_c²)/(mᵤ−1) / (n² − Σ_c n_c²), n = Σ pairable values.
 * Average observed agreement = Pₒ (pairwise agreement per item, averaged over items with ≥ 2 values).
 * Average majority agreement = mean over items with ≥ 2 values of maxₖ nᵢₖ / rᵢ.
 */
export type NominalAgreement = {
  fleissKappa: number;
  krippendorffAlpha: number;
  averageObservedAgreement: number;
  averageMajorityAgreement: number;
  /** Fleiss/Gwet parts: Pₒ, Pₑ. */
  observed: number;
  expected: number;
  /** Items with at least two judgments (the ones Pₒ, α and majority agreement use). */
  pairableItems: number;
  /** Judgments in those items (Krippendorff's n). */
  pairableValues: number;
};

export function nominalAgreement(input: AgreementInput): NominalAgreement {
  const c: LabelCounts = toCounts(input);
  const { nItems, nLabels: K, counts, raters } = c;
  const pi = new Float64Array(K); // Σ nᵢₖ/rᵢ over rated items
  const nc = new Float64Array(K); // pairable value totals per label
  let rated = 0;
  let pairable = 0;
  let poSum = 0;
  let majSum = 0;
  let n = 0;
  let doNum = 0;
  for (let i = 0; i < nItems; i++) {
    const r = raters[i];
    if (r === 0) continue;
    rated++;
    const base = i * K;
    const inv = 1 / r;
    let sq = 0;
    let max = 0;
    for (let k = 0; k < K; k++) {
      const x = counts[base + k];
      if (x === 0) continue;
      pi[k] += x * inv;
      sq += x * x;
      if (x > max) max = x;
    }
    if (r < 2) continue;
    pairable++;
    poSum += (sq - r) / (r * (r - 1));
    majSum += max * inv;
    n += r;
    doNum += (r * r - sq) / (r - 1);
    for (let k = 0; k < K; k++) nc[k] += counts[base + k];
  }
  let pe = 0;
  let ncSq = 0;
  for (let k = 0; k < K; k++) {
    const p = rated > 0 ? pi[k] / rated : 0;
    pe += p * p;
    ncSq += nc[k] * nc[k];
  }
  const po = pairable > 0 ? poSum / pairable : Number.NaN;
  const fleissKappa = pairable > 0 && pe < 1 ? (po - pe) / (1 - pe) : Number.NaN;
  const de = n * n - ncSq;
  const krippendorffAlpha = pairable > 0 && de > 0 ? 1 - ((n - 1) * doNum) / de : Number.NaN;
  return {
    fleissKappa,
    krippendorffAlpha,
    averageObservedAgreement: po,
    averageMajorityAgreement: pairable > 0 ? majSum / pairable : Number.NaN,
    observed: po,
    expected: rated > 0 ? pe : Number.NaN,
    pairableItems: pairable,
    pairableValues: n,
  };
}

/** Fleiss' κ (Gwet's variable-raters definition; classic Fleiss with constant raters). */
export function fleissKappa(input: AgreementInput): number {
  return nominalAgreement(input).fleissKappa;
}

/** Per-item pairwise agreement averaged over items with ≥ 2 values (= Fleiss' Pₒ). */
export function averageObservedAgreement(input: AgreementInput): number {
  return nominalAgreement(input).averageObservedAgreement;
}

/** Share of judgments equal to the most frequent label, averaged over items with ≥ 2 values. */
export function averageMajorityAgreement(input: AgreementInput): number {
  return nominalAgreement(input).averageMajorityAgreement;
}
