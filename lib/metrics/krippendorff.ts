import { UserError } from "@/lib/errors";
import { nominalAgreement } from "./agreement";
import { toCounts, type AgreementInput } from "./judgments";

export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";

export type AlphaOptions = {
  level?: AlphaLevel;
  /** Numeric value of each label code (interval, ratio; ordinal ranks by it). */
  values?: ArrayLike<number>;
  /** Ordinal scale as label names, lowest first (ordinal only, when labels are not numbers). */
  order?: readonly string[];
};

/**
 * Krippendorff's α via the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"):
 * o_ck = Σᵤ nᵤ_c (nᵤ_k − [c = k]) / (mᵤ − 1) over units with mᵤ ≥ 2 values (others are ignored),
 * α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, with δ² per level of measurement:
 * nominal [c ≠ k]; interval (c − k)²; ratio ((c − k)/(c + k))²; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)².
 * Numeric levels read label values from `values`, or parse encoded labels as numbers; ordinal may use `order`
 * instead. A table of counts without values uses the column index. NaN when α is undefined (no pairable
 * values or no variation).
 */
export function krippendorffAlpha(input: AgreementInput, options: AlphaOptions = {}): number {
  const level = options.level ?? "nominal";
  if (level === "nominal") return nominalAgreement(input).krippendorffAlpha;
  const c = toCounts(input);
  const K = c.nLabels;
  const values = labelValues(input, K, level, options);

  // coincidence matrix
  const o = new Float64Array(K * K);
  const present: number[] = [];
  for (let i = 0; i < c.nItems; i++) {
    const r = c.raters[i];
    if (r < 2) continue;
    const base = i * K;
    present.length = 0;
    for (let k = 0; k < K; k++) if (c.counts[base + k] > 0) present.push(k);
    for (const a of present) {
      const na = c.counts[base + a];
      for (const b of present) {
        const nb = c.counts[base + b] - (a === b ? 1 : 0);
        o[a * K + b] += (na * nb) / (r - 1);
      }
    }
  }
  const nc = new Float64Array(K);
  let n = 0;
  for (let a = 0; a < K; a++) {
    for (let b = 0; b < K; b++) nc[a] += o[a * K + b];
    n += nc[a];
  }
  if (n === 0) return Number.NaN;

  const delta = distanceMatrix(level, values, nc);
  let observed = 0;
  let expected = 0;
  for (let a = 0; a < K; a++) {
    for (let b = 0; b < K; b++) {
      const d = delta[a * K + b];
      if (d === 0) continue;
      observed += o[a * K + b] * d;
      expected += nc[a] * nc[b] * d;
    }
  }
  if (expected === 0) return Number.NaN;
  return 1 - ((n - 1) * observed) / expected;
}

function labelValues(input: AgreementInput, K: number, level: AlphaLevel, options: AlphaOptions): Float64Array {
  const out = new Float64Array(K);
  if (options.values) {
    if (options.values.length < K) throw new UserError(`Krippendorff's α needs a value for each of the ${K} labels.`);
    for (let k = 0; k < K; k++) out[k] = options.values[k];
    return out;
  }
  if ("counts" in input) {
    for (let k = 0; k < K; k++) out[k] = k;
    return out;
  }
  if (level === "ordinal" && options.order) {
    const rank = new Map(options.order.map((l, i) => [l, i]));
    input.labels.forEach((l, k) => {
      const r = rank.get(l);
      if (r === undefined) throw new UserError(`Label "${l}" is not in the ordinal order.`, "unknown_label");
      out[k] = r;
    });
    return out;
  }
  input.labels.forEach((l, k) => {
    const v = l.trim() === "" ? Number.NaN : Number(l);
    if (!Number.isFinite(v)) {
      throw new UserError(
        `${level} Krippendorff's α needs numeric labels (or an ordinal order); "${l}" is not a number.`,
        "non_numeric_label",
      );
    }
    out[k] = v;
  });
  return out;
}

function distanceMatrix(level: Exclude<AlphaLevel, "nominal">, v: Float64Array, nc: Float64Array): Float64Array {
  const K = v.length;
  const d = new Float64Array(K * K);
  if (level === "ordinal") {
    const byValue = [...v.keys()].sort((a, b) => v[a] - v[b]);
    const rankOf = new Int32Array(K);
    byValue.forEach((k, r) => (rankOf[k] = r));
    const cum = new Float64Array(K + 1); // cumulative n_g in rank order
    byValue.forEach((k, r) => (cum[r + 1] = cum[r] + nc[k]));
    for (let a = 0; a < K; a++) {
      for (let b = 0; b < K; b++) {
        const lo = Math.min(rankOf[a], rankOf[b]);
        const hi = Math.max(rankOf[a], rankOf[b]);
        const x = cum[hi + 1] - cum[lo] - (nc[a] + nc[b]) / 2;
        d[a * K + b] = a === b ? 0 : x * x;
      }
    }
    return d;
  }
  for (let a = 0; a < K; a++) {
    for (let b = 0; b < K; b++) {
      const diff = v[a] - v[b];
      if (level === "interval") d[a * K + b] = diff * diff;
      else {
        const sum = v[a] + v[b];
        d[a * K + b] = sum === 0 ? 0 : (diff / sum) ** 2;
      }
    }
  }
  return d;
}
