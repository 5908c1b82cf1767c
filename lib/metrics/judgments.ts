import { UserError } from "@/lib/errors";

/**
 * Judgments in long format (one row per item × annotator) and their compact encoding used by every metric:
 * items, annotators and labels become integer codes, and judgments are grouped by item in typed arrays
 * (CSR layout), in judgment order. HumAID scale (77,000 items × 3–5 judgments) encodes in tens of milliseconds.
 */
export type Judgment = {
  item: string;
  annotator: string;
  label: string;
  /** Judgment order within the item (e.g. submit time); input order when absent. */
  order?: number;
};

export type EncodedJudgments = {
  /** Item id per item code, in first-seen order. */
  items: readonly string[];
  /** Annotator id per annotator code, in first-seen order. */
  annotators: readonly string[];
  /** Label per label code: the `labels` option first (scheme order), then first-seen order. */
  labels: readonly string[];
  /** Judgments of item i are j in [itemStart[i], itemStart[i + 1]); length items.length + 1. */
  itemStart: Int32Array;
  /** Annotator code per judgment (grouped by item, in judgment order). */
  annotator: Int32Array;
  /** Label code per judgment. */
  label: Int32Array;
  /** Input row index per judgment (to point back at the source, e.g. a CSV line). */
  source: Int32Array;
};

/** Item × label counts: counts[i·nLabels + k] = judgments of item i with label k; raters[i] = Σₖ. */
export type LabelCounts = {
  nItems: number;
  nLabels: number;
  counts: Int32Array;
  raters: Int32Array;
};

export type DuplicateJudgment = { item: string; annotator: string; rows: number[] };

/** Thrown when an annotator judged the same item twice (rows are input row indexes). */
export class DuplicateJudgmentError extends UserError {
  constructor(readonly duplicates: DuplicateJudgment[]) {
    const shown = duplicates
      .slice(0, 5)
      .map((d) => `item "${d.item}" / annotator "${d.annotator}" (rows ${d.rows.map((r) => r + 1).join(", ")})`)
      .join("; ");
    const more = duplicates.length > 5 ? ` and ${duplicates.length - 5} more` : "";
    super(`Duplicate judgments (same item and annotator): ${shown}${more}.`, "duplicate_judgment");
    this.name = "DuplicateJudgmentError";
  }
}

export type EncodeOptions = {
  /** The label scheme in order; with it, a label outside the scheme is an error. */
  labels?: readonly string[];
  /** "error" (default) throws DuplicateJudgmentError; "first" keeps the first judgment of a pair. */
  duplicates?: "error" | "first";
};

/** Encodes long-format judgments. Empty item/annotator/label strings are errors (a missing value is no row). */
export function encodeJudgments(rows: readonly Judgment[], options: EncodeOptions = {}): EncodedJudgments {
  const m = rows.length;
  const itemCode = new Map<string, number>();
  const annCode = new Map<string, number>();
  const labelCode = new Map<string, number>();
  const items: string[] = [];
  const annotators: string[] = [];
  const labels: string[] = [];
  const strict = options.labels !== undefined;
  for (const l of options.labels ?? []) {
    if (!labelCode.has(l)) {
      labelCode.set(l, labels.length);
      labels.push(l);
    }
  }
  const rowItem = new Int32Array(m);
  const rowAnn = new Int32Array(m);
  const rowLabel = new Int32Array(m);
  let hasOrder = false;
  let lastItem = "";
  let lastItemCode = -1;
  for (let r = 0; r < m; r++) {
    const { item, annotator, label } = rows[r];
    if (!item || !annotator || !label) {
      const missing = !item ? "item" : !annotator ? "annotator" : "label";
      throw new UserError(`Row ${r + 1} has an empty ${missing}.`, "invalid_judgment");
    }
    // rows usually come grouped by item: skip the hash lookup for a repeated item
    let i = item === lastItem ? lastItemCode : itemCode.get(item);
    if (i === undefined) {
      i = items.length;
      itemCode.set(item, i);
      items.push(item);
    }
    lastItem = item;
    lastItemCode = i;
    let a = annCode.get(annotator);
    if (a === undefined) {
      a = annotators.length;
      annCode.set(annotator, a);
      annotators.push(annotator);
    }
    let k = labelCode.get(label);
    if (k === undefined) {
      if (strict) throw new UserError(`Row ${r + 1}: label "${label}" is not in the label scheme.`, "unknown_label");
      k = labels.length;
      labelCode.set(label, k);
      labels.push(label);
    }
    rowItem[r] = i;
    rowAnn[r] = a;
    rowLabel[r] = k;
    if (rows[r].order !== undefined) hasOrder = true;
  }

  const coded = { items, annotators, labels, item: rowItem, annotator: rowAnn, label: rowLabel };
  return groupByItem(coded, hasOrder ? (r) => rows[r].order ?? Number.POSITIVE_INFINITY : undefined, options);
}

/** Judgments coded row by row, codes in first-seen order (as encodeJudgments assigns them). */
export type CodedJudgments = {
  items: string[];
  annotators: string[];
  labels: string[];
  /** Item, annotator and label code per input row. */
  item: Int32Array;
  annotator: Int32Array;
  label: Int32Array;
};

/** Encodes judgments a reader already coded (e.g. a CSV scanner interning as it reads), in input order. */
export function encodeCodedJudgments(coded: CodedJudgments, options: Pick<EncodeOptions, "duplicates"> = {}): EncodedJudgments {
  return groupByItem(coded, undefined, options);
}

function groupByItem(
  coded: CodedJudgments,
  orderOf: ((row: number) => number) | undefined,
  options: Pick<EncodeOptions, "duplicates">,
): EncodedJudgments {
  const { items, annotators, labels, item: rowItem, annotator: rowAnn, label: rowLabel } = coded;
  const m = rowItem.length;
  // Stable counting sort by item.
  const n = items.length;
  const itemStart = new Int32Array(n + 1);
  for (let r = 0; r < m; r++) itemStart[rowItem[r] + 1]++;
  for (let i = 0; i < n; i++) itemStart[i + 1] += itemStart[i];
  const fill = itemStart.slice(0, n);
  const source = new Int32Array(m);
  for (let r = 0; r < m; r++) source[fill[rowItem[r]]++] = r;
  if (orderOf) {
    for (let i = 0; i < n; i++) sortGroupByOrder(source, itemStart[i], itemStart[i + 1], orderOf);
  }

  // Duplicates: an annotator twice on the same item (groups are tiny, pairwise check is cheapest).
  const duplicates: DuplicateJudgment[] = [];
  const byPair = new Map<string, DuplicateJudgment>();
  const keep = new Uint8Array(m).fill(1);
  let kept = m;
  for (let i = 0; i < n; i++) {
    const s = itemStart[i];
    const e = itemStart[i + 1];
    for (let x = s + 1; x < e; x++) {
      const ax = rowAnn[source[x]];
      for (let y = s; y < x; y++) {
        if (keep[y] && rowAnn[source[y]] === ax) {
          const pair = `${i}:${ax}`;
          const found = byPair.get(pair);
          if (found) found.rows.push(source[x]);
          else {
            const d = { item: items[i], annotator: annotators[ax], rows: [source[y], source[x]] };
            byPair.set(pair, d);
            duplicates.push(d);
          }
          keep[x] = 0;
          kept--;
          break;
        }
      }
    }
  }
  if (duplicates.length > 0 && (options.duplicates ?? "error") === "error") throw new DuplicateJudgmentError(duplicates);

  const annotator = new Int32Array(kept);
  const label = new Int32Array(kept);
  const finalSource = new Int32Array(kept);
  const finalStart = new Int32Array(n + 1);
  let j = 0;
  for (let i = 0; i < n; i++) {
    for (let x = itemStart[i]; x < itemStart[i + 1]; x++) {
      if (!keep[x]) continue;
      const r = source[x];
      annotator[j] = rowAnn[r];
      label[j] = rowLabel[r];
      finalSource[j] = r;
      j++;
    }
    finalStart[i + 1] = j;
  }
  return { items, annotators, labels, itemStart: finalStart, annotator, label, source: finalSource };
}

function sortGroupByOrder(source: Int32Array, s: number, e: number, key: (row: number) => number): void {
  // insertion sort (stable); rows without order keep their place relative to equal keys
  for (let x = s + 1; x < e; x++) {
    const v = source[x];
    const kv = key(v);
    let y = x - 1;
    while (y >= s && key(source[y]) > kv) {
      source[y + 1] = source[y];
      y--;
    }
    source[y + 1] = v;
  }
}

export type MatrixCell = string | number | null | undefined;

/**
 * Encodes a wide table with missing values (null, undefined, "" or NaN): by default rows are items and columns
 * annotators; `layout: "annotators-by-items"` reads Krippendorff's reliability-data layout (rows = observers).
 * Numbers become their decimal string as labels.
 */
export function encodeMatrix(
  matrix: ReadonlyArray<ReadonlyArray<MatrixCell>>,
  {
    layout = "items-by-annotators",
    itemIds,
    annotatorIds,
    labels,
  }: {
    layout?: "items-by-annotators" | "annotators-by-items";
    itemIds?: readonly string[];
    annotatorIds?: readonly string[];
    labels?: readonly string[];
  } = {},
): EncodedJudgments {
  const rows: Judgment[] = [];
  const outer = matrix.length;
  const inner = Math.max(0, ...matrix.map((r) => r.length));
  const nItems = layout === "items-by-annotators" ? outer : inner;
  const nAnn = layout === "items-by-annotators" ? inner : outer;
  for (let i = 0; i < nItems; i++) {
    for (let a = 0; a < nAnn; a++) {
      const v = layout === "items-by-annotators" ? matrix[i]?.[a] : matrix[a]?.[i];
      if (v === null || v === undefined || v === "" || (typeof v === "number" && Number.isNaN(v))) continue;
      rows.push({ item: itemIds?.[i] ?? String(i + 1), annotator: annotatorIds?.[a] ?? String(a + 1), label: String(v) });
    }
  }
  return encodeJudgments(rows, { labels });
}

const countsCache = new WeakMap<EncodedJudgments, LabelCounts>();

/** Item × label counts of encoded judgments (cached per encoding). */
export function labelCounts(data: EncodedJudgments): LabelCounts {
  const cached = countsCache.get(data);
  if (cached) return cached;
  const nItems = data.items.length;
  const nLabels = data.labels.length;
  const counts = new Int32Array(nItems * nLabels);
  const raters = new Int32Array(nItems);
  const { itemStart, label } = data;
  for (let i = 0; i < nItems; i++) {
    const base = i * nLabels;
    const e = itemStart[i + 1];
    for (let j = itemStart[i]; j < e; j++) counts[base + label[j]]++;
    raters[i] = e - itemStart[i];
  }
  const result = { nItems, nLabels, counts, raters };
  countsCache.set(data, result);
  return result;
}

/** Counts from a table of category counts per item (rows = items, columns = categories), e.g. Fleiss (1971). */
export function countsFromTable(table: ReadonlyArray<ReadonlyArray<number>>): LabelCounts {
  const nItems = table.length;
  const nLabels = Math.max(0, ...table.map((r) => r.length));
  const counts = new Int32Array(nItems * nLabels);
  const raters = new Int32Array(nItems);
  for (let i = 0; i < nItems; i++) {
    for (let k = 0; k < nLabels; k++) {
      const c = table[i][k] ?? 0;
      if (!Number.isInteger(c) || c < 0) throw new UserError(`Count at row ${i + 1}, column ${k + 1} is not a count.`);
      counts[i * nLabels + k] = c;
      raters[i] += c;
    }
  }
  return { nItems, nLabels, counts, raters };
}

export type AgreementInput = EncodedJudgments | LabelCounts;

export function toCounts(input: AgreementInput): LabelCounts {
  return "counts" in input ? input : labelCounts(input);
}

/**
 * Keeps the first `k` judgments (by judgment order) of every item that has at least k; items with fewer are
 * dropped (the paper's Table 3 computes κ and observed agreement on three judgments per tweet).
 */
export function firstJudgments(data: EncodedJudgments, k: number): EncodedJudgments {
  const keepItems: number[] = [];
  for (let i = 0; i < data.items.length; i++) if (data.itemStart[i + 1] - data.itemStart[i] >= k) keepItems.push(i);
  const n = keepItems.length;
  const itemStart = new Int32Array(n + 1);
  const annotator = new Int32Array(n * k);
  const label = new Int32Array(n * k);
  const source = new Int32Array(n * k);
  for (let x = 0; x < n; x++) {
    const s = data.itemStart[keepItems[x]];
    for (let t = 0; t < k; t++) {
      annotator[x * k + t] = data.annotator[s + t];
      label[x * k + t] = data.label[s + t];
      source[x * k + t] = data.source[s + t];
    }
    itemStart[x + 1] = (x + 1) * k;
  }
  return {
    items: keepItems.map((i) => data.items[i]),
    annotators: data.annotators,
    labels: data.labels,
    itemStart,
    annotator,
    label,
    source,
  };
}
