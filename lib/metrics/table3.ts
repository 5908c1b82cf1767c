import { meetsRatio, type Ratio } from "@/lib/procedure/ratio";
import { encodeJudgments, labelCounts, type EncodedJudgments, type Judgment } from "./judgments";
import { eventAgreementReport } from "./report";

/**
 * The paper's Table 3 in two scopes. "agreed": only the tweets with an accepted label (the released dataset; the
 * paper's figures imply this scope). "all": every judged tweet, agreed or not. In both, κ and observed agreement
 * use each tweet's first `first` judgments (tweets with fewer left out), α and majority agreement all of them.
 */
export type Table3Scope = "agreed" | "all";

export const TABLE3_SCOPES: readonly Table3Scope[] = ["agreed", "all"];

export type Table3Figures = {
  /** Items in scope and all their judgments. */
  items: number;
  judgments: number;
  fleissKappa: number;
  averageObservedAgreement: number;
  krippendorffAlpha: number;
  averageMajorityAgreement: number;
};

export type Table3BothScopes = Record<Table3Scope, Table3Figures>;

/** The four figures over `data` as it is (already restricted to a scope). NaN where a measure is undefined. */
export function table3Figures(data: EncodedJudgments, { first = 3 }: { first?: number } = {}): Table3Figures {
  if (data.items.length === 0) {
    return { items: 0, judgments: 0, fleissKappa: NaN, averageObservedAgreement: NaN, krippendorffAlpha: NaN, averageMajorityAgreement: NaN };
  }
  const r = eventAgreementReport(data, { firstCount: first });
  return {
    items: r.items,
    judgments: r.annotations,
    fleissKappa: r.fleissKappa,
    averageObservedAgreement: r.averageObservedAgreement,
    krippendorffAlpha: r.krippendorffAlpha,
    averageMajorityAgreement: r.averageMajorityAgreement,
  };
}

/** The items (by code) for which keep(i) holds, with all their judgments in the same order. */
export function selectItems(data: EncodedJudgments, keep: (item: number) => boolean): EncodedJudgments {
  const kept: number[] = [];
  let size = 0;
  for (let i = 0; i < data.items.length; i++) {
    if (!keep(i)) continue;
    kept.push(i);
    size += data.itemStart[i + 1] - data.itemStart[i];
  }
  const itemStart = new Int32Array(kept.length + 1);
  const annotator = new Int32Array(size);
  const label = new Int32Array(size);
  const source = new Int32Array(size);
  let j = 0;
  kept.forEach((i, x) => {
    for (let t = data.itemStart[i]; t < data.itemStart[i + 1]; t++, j++) {
      annotator[j] = data.annotator[t];
      label[j] = data.label[t];
      source[j] = data.source[t];
    }
    itemStart[x + 1] = j;
  });
  return { items: kept.map((i) => data.items[i]), annotators: data.annotators, labels: data.labels, itemStart, annotator, label, source };
}

/**
 * Item codes whose top label is unique and meets `accept` over all their judgments (top·den ≥ num·n): the
 * label-acceptance rule applied to a file of judgments.
 */
export function agreedItems(data: EncodedJudgments, accept: Ratio): Uint8Array {
  const { counts, raters, nLabels } = labelCounts(data);
  const agreed = new Uint8Array(data.items.length);
  for (let i = 0; i < data.items.length; i++) {
    let top = 0;
    let second = 0;
    for (let k = 0; k < nLabels; k++) {
      const c = counts[i * nLabels + k];
      if (c > top) {
        second = top;
        top = c;
      } else if (c > second) second = c;
    }
    if (top > second && meetsRatio(top, raters[i], accept)) agreed[i] = 1;
  }
  return agreed;
}

/** Table 3 over both scopes; `isAgreed(i)` says whether item i has an accepted label. */
export function table3BothScopes(
  data: EncodedJudgments,
  { first = 3, isAgreed }: { first?: number; isAgreed: (item: number) => boolean },
): Table3BothScopes {
  return { agreed: table3Figures(selectItems(data, isAgreed), { first }), all: table3Figures(data, { first }) };
}

export type Table3EventRow = Table3Figures & { event: string };

/**
 * Table 3 per event of long-format judgments (each row may name its event; `order` orders an item's judgments,
 * rows without it keep file order after the ordered ones). Items are keyed within their event. Events sorted by
 * name; agreed items are those meeting `accept` over all their judgments.
 */
export function table3ByEvent(
  rows: ReadonlyArray<Judgment & { event?: string }>,
  { scope, first = 3, accept = { num: 2, den: 3 } }: { scope: Table3Scope; first?: number; accept?: Ratio },
): Table3EventRow[] {
  const byEvent = new Map<string, Judgment[]>();
  for (const r of rows) {
    const event = r.event ?? "";
    let list = byEvent.get(event);
    if (!list) byEvent.set(event, (list = []));
    list.push({ item: r.item, annotator: r.annotator, label: r.label, order: r.order });
  }
  const events = [...byEvent.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return events.map((event) => {
    const data = encodeJudgments(byEvent.get(event) as Judgment[]);
    if (scope === "all") return { event, ...table3Figures(data, { first }) };
    const agreed = agreedItems(data, accept);
    const scoped = selectItems(data, (i) => agreed[i] === 1);
    return { event, ...table3Figures(scoped, { first }) };
  });
}
