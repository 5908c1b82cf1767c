import { nominalAgreement } from "./agreement";
import { firstJudgments, type EncodedJudgments } from "./judgments";

export type AgreementSummary = {
  items: number;
  annotations: number;
  labels: number;
  fleissKappa: number;
  krippendorffAlpha: number;
  averageObservedAgreement: number;
  averageMajorityAgreement: number;
};

/**
 * The four measures over ALL judgments (α nominal) — what `accord agreement` prints. Items/annotations/labels
 * count everything in the input; each measure applies its own definition to items with a single judgment
 * (they count in Fleiss' πₖ, and are ignored by Pₒ, α and majority agreement).
 */
export function agreementSummary(data: EncodedJudgments): AgreementSummary {
  const a = nominalAgreement(data);
  return {
    items: data.items.length,
    annotations: data.label.length,
    labels: usedLabels(data),
    fleissKappa: a.fleissKappa,
    krippendorffAlpha: a.krippendorffAlpha,
    averageObservedAgreement: a.averageObservedAgreement,
    averageMajorityAgreement: a.averageMajorityAgreement,
  };
}

export type EventAgreementReport = {
  /** All tweets / judgments / distinct labels used. */
  items: number;
  annotations: number;
  labels: number;
  /** Fleiss' κ over the first three judgments of each tweet (tweets with fewer excluded). */
  fleissKappa: number;
  /** Average observed agreement over the same first three judgments. */
  averageObservedAgreement: number;
  /** Krippendorff's α (nominal) over all judgments. */
  krippendorffAlpha: number;
  /** Average majority agreement over all judgments. */
  averageMajorityAgreement: number;
  /** Tweets used for κ and observed agreement, and tweets left out because they had fewer judgments. */
  firstJudgments: { count: number; items: number; excludedItems: number };
  /** Tweets with ≥ 2 judgments, used by α and majority agreement. */
  pairableItems: number;
};

/**
 * The paper's Table 3 for one event: κ and observed agreement on the FIRST `firstCount` (3) judgments of each
 * tweet by judgment order (the order of the encoding: input order, or `order`), excluding tweets with fewer;
 * α and majority agreement on all judgments (3–5).
 */
export function eventAgreementReport(data: EncodedJudgments, { firstCount = 3 }: { firstCount?: number } = {}): EventAgreementReport {
  const first = firstJudgments(data, firstCount);
  const f = nominalAgreement(first);
  const all = nominalAgreement(data);
  return {
    items: data.items.length,
    annotations: data.label.length,
    labels: usedLabels(data),
    fleissKappa: f.fleissKappa,
    averageObservedAgreement: f.averageObservedAgreement,
    krippendorffAlpha: all.krippendorffAlpha,
    averageMajorityAgreement: all.averageMajorityAgreement,
    firstJudgments: { count: firstCount, items: first.items.length, excludedItems: data.items.length - first.items.length },
    pairableItems: all.pairableItems,
  };
}

function usedLabels(data: EncodedJudgments): number {
  const used = new Uint8Array(data.labels.length);
  for (let j = 0; j < data.label.length; j++) used[data.label[j]] = 1;
  let n = 0;
  for (let k = 0; k < used.length; k++) n += used[k];
  return n;
}
