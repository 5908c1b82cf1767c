import type { Ratio } from "@/lib/procedure/ratio";
import { labelCounts, type EncodedJudgments } from "./judgments";

export type MajorityVote = {
  items: readonly string[];
  labels: readonly string[];
  /** The unique most frequent label code per item; −1 on a tie. */
  plurality: Int32Array;
  /** Count of the most frequent label. */
  top: Int32Array;
  /** Judgments per item. */
  total: Int32Array;
  /** 1 when the plurality label is accepted: unique, total ≥ minJudgments and top·den ≥ num·total. */
  accepted: Uint8Array;
  acceptedCount: number;
};

/**
 * Majority vote with the HumAID acceptance rule (lib/procedure decideTweet without the "needs more" part):
 * the unique top label is accepted when top/total ≥ `acceptance` (default 2/3, compared as integers) and the
 * item has at least `minJudgments` judgments. Typed arrays keep 77,000 items cheap; `majorityLabels` gives rows.
 */
export function majorityVote(
  data: EncodedJudgments,
  { acceptance = { num: 2, den: 3 }, minJudgments = 1 }: { acceptance?: Ratio; minJudgments?: number } = {},
): MajorityVote {
  const { nItems, nLabels: K, counts, raters } = labelCounts(data);
  const plurality = new Int32Array(nItems);
  const top = new Int32Array(nItems);
  const accepted = new Uint8Array(nItems);
  let acceptedCount = 0;
  const { num, den } = acceptance;
  for (let i = 0; i < nItems; i++) {
    const base = i * K;
    let best = -1;
    let max = 0;
    let tie = false;
    for (let k = 0; k < K; k++) {
      const x = counts[base + k];
      if (x > max) {
        max = x;
        best = k;
        tie = false;
      } else if (x === max && x > 0) tie = true;
    }
    plurality[i] = tie ? -1 : best;
    top[i] = max;
    const n = raters[i];
    if (!tie && best >= 0 && n >= minJudgments && max * den >= num * n) {
      accepted[i] = 1;
      acceptedCount++;
    }
  }
  return { items: data.items, labels: data.labels, plurality, top, total: raters.slice(), accepted, acceptedCount };
}

export type MajorityLabel = {
  item: string;
  /** The accepted label, or null (no agreement by the rule). */
  label: string | null;
  /** The unique most frequent label even when not accepted; null on a tie. */
  plurality: string | null;
  top: number;
  total: number;
};

export function majorityLabels(vote: MajorityVote): MajorityLabel[] {
  return vote.items.map((item, i) => {
    const p = vote.plurality[i];
    const plurality = p >= 0 ? vote.labels[p] : null;
    return { item, label: vote.accepted[i] ? plurality : null, plurality, top: vote.top[i], total: vote.total[i] };
  });
}
