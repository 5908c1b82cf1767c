/**
 * Exact ratios for every threshold of the procedure. A threshold "at least num/den" is checked with integers
 * only (count·den ≥ num·total), so 2/3 of 3 passes and 3/5 fails without any floating-point doubt.
 */
export type Ratio = { num: number; den: number };

/** True when count/total ≥ num/den, compared as integers. A total of 0 never meets a ratio. */
export function meetsRatio(count: number, total: number, ratio: Ratio): boolean {
  if (total <= 0) return false;
  return count * ratio.den >= ratio.num * total;
}

/** The smallest count c with c/total ≥ num/den (ceil(num·total/den)), e.g. 7 of 10 for 7/10, 14 of 20 for 14/20. */
export function minCountFor(total: number, ratio: Ratio): number {
  return Math.floor((ratio.num * total + ratio.den - 1) / ratio.den);
}

/** "70%", "66.7%": the ratio as a percentage for people (one decimal when not whole). */
export function ratioPercentText(ratio: Ratio): string {
  const tenths = Math.round((ratio.num * 1000) / ratio.den);
  return tenths % 10 === 0 ? `${tenths / 10}%` : `${(tenths / 10).toFixed(1)}%`;
}

/** "7/10" */
export function ratioText(ratio: Ratio): string {
  return `${ratio.num}/${ratio.den}`;
}
