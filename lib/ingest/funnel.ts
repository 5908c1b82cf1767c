/**
 * The import funnel, like the paper's Table 1: rows read → after each step → stored, with the reasons
 * rows were removed. The same structure is stored on ImportBatch.funnel, shown on the import page and
 * printed by `accord import`.
 */
export const FUNNEL_STEPS = [
  "read",
  "valid",
  "labelMap",
  "date",
  "location",
  "language",
  "classifier",
  "wordCount",
  "duplicates",
  "sampling",
  "stored",
] as const;
export type FunnelStepName = (typeof FUNNEL_STEPS)[number];

export const FUNNEL_LABELS: Record<FunnelStepName, string> = {
  read: "rows read",
  valid: "valid rows",
  labelMap: "label map",
  date: "date range",
  location: "location",
  language: "language",
  classifier: "classifier",
  wordCount: "word count",
  duplicates: "near-duplicates",
  sampling: "sampling",
  stored: "stored",
};

export type RemovedExample = { line: number; externalId: string | null; reason: string };

export type FunnelStep = {
  step: FunnelStepName;
  label: string;
  /** false: the step is switched off (or does not apply); its rows pass through. */
  enabled: boolean;
  in: number;
  kept: number;
  removed: number;
  /** Removed rows by reason. */
  reasons: Record<string, number>;
  /** Other counts, e.g. how kept rows passed ("undetermined" languages, rows without a time). */
  details?: Record<string, number>;
  note?: string;
  /** A few removed rows, to show what the reasons mean. */
  examples?: RemovedExample[];
  /** How long the step took (milliseconds). */
  ms?: number;
};

export type Funnel = FunnelStep[];

export const MAX_EXAMPLES = 5;

/** Collects one step's counts as rows go through it. */
export class StepCounter {
  readonly reasons: Record<string, number> = {};
  readonly details: Record<string, number> = {};
  readonly examples: RemovedExample[] = [];
  removed = 0;

  remove(reason: string, row?: { line: number; externalId: string }, detail?: string): void {
    this.removed++;
    this.reasons[reason] = (this.reasons[reason] ?? 0) + 1;
    if (row && this.examples.length < MAX_EXAMPLES) {
      this.examples.push({ line: row.line, externalId: row.externalId, reason: detail ?? reason });
    }
  }

  count(detail: string, n = 1): void {
    this.details[detail] = (this.details[detail] ?? 0) + n;
  }

  step(step: FunnelStepName, input: number, extra: { enabled?: boolean; note?: string } = {}): FunnelStep {
    const s: FunnelStep = {
      step,
      label: FUNNEL_LABELS[step],
      enabled: extra.enabled ?? true,
      in: input,
      kept: input - this.removed,
      removed: this.removed,
      reasons: { ...this.reasons },
    };
    if (Object.keys(this.details).length > 0) s.details = { ...this.details };
    if (extra.note) s.note = extra.note;
    if (this.examples.length > 0) s.examples = [...this.examples];
    return s;
  }
}

/** A step that did not run: everything passes. */
export function skippedStep(step: FunnelStepName, input: number, note: string): FunnelStep {
  return { step, label: FUNNEL_LABELS[step], enabled: false, in: input, kept: input, removed: 0, reasons: {}, note };
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

function reasonsText(step: FunnelStep): string {
  const parts = Object.entries(step.reasons)
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${r}: ${fmt(n)}`);
  if (step.note) parts.push(step.note);
  if (step.details) {
    for (const [d, n] of Object.entries(step.details)) parts.push(`${d}: ${fmt(n)}`);
  }
  return parts.join("; ");
}

/** A plain-text table of the funnel (the CLI's readable output). */
export function renderFunnelTable(funnel: Funnel): string {
  const rows = funnel.map((s) => {
    const off = !s.enabled;
    return [
      s.label + (off ? " (off)" : ""),
      s.step === "read" ? "" : fmt(s.in),
      fmt(s.kept),
      s.step === "read" || s.step === "stored" ? "" : fmt(s.removed),
      reasonsText(s),
    ];
  });
  const head = ["step", "in", "kept", "removed", "reasons"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}
