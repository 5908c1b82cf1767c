import { filterByClassifier, type TweetClassifier } from "./filters/classifier";
import { filterByDate } from "./filters/date";
import { filterNearDuplicates, type StoredTweetText } from "./filters/duplicates";
import { filterByLanguage, type LanguageDetector, loadLanguageDetector } from "./filters/language";
import { filterByLocation } from "./filters/location";
import { sampleRows } from "./filters/sampling";
import { filterByWordCount } from "./filters/word-count";
import type { LabelMapDrop } from "./validate";
import { FUNNEL_LABELS, type Funnel, type FunnelStep, type FunnelStepName, skippedStep, StepCounter } from "./funnel";
import type { IngestRow, RowError } from "./rows";
import type { IngestSettings, TargetLocation } from "./settings";
import { IMPORT_KIND, type ImportKind } from "@/lib/db/enums";

/**
 * The HumAID filtering pipeline (§3.1–3.2) over validated rows, in the paper's order: date, location,
 * language, classifier (optional), word count, near-duplicates, sampling (optional). Pure: the caller
 * supplies the stored tweets, the classifier and (optionally) the language detector.
 */
export type PipelineOptions = {
  kind: ImportKind;
  settings: IngestSettings;
  event: { startDate?: Date | null; endDate?: Date | null; locations: readonly TargetLocation[] };
  /** Tweets already stored for the event, compared with for near-duplicates. */
  stored?: readonly StoredTweetText[];
  classifier?: TweetClassifier | null;
  /** Defaults to eld, loaded only when some row has no language of its own. */
  detectLanguage?: LanguageDetector | null;
  /** Instead of loading eld here: a detector prepared for these rows (the import job's background detection). */
  prepareLanguageDetector?: (rows: IngestRow[]) => Promise<LanguageDetector>;
  /** Called before each step (progress, cancellation). */
  beforeStep?: (step: FunnelStepName) => Promise<void> | void;
};

export type PipelineResult = {
  rows: IngestRow[];
  steps: FunnelStep[];
  /** Removed near-duplicates → the external id of the tweet they duplicate. */
  duplicateOf: Map<IngestRow, string>;
};

const GOLD_NOTE = "not applied to gold tweets";

export async function runIngestPipeline(input: IngestRow[], options: PipelineOptions): Promise<PipelineResult> {
  const { settings: s, event, kind } = options;
  const timed: FunnelStep[] = [];
  let rows = input;
  let stepStarted = performance.now();
  const before = async (step: FunnelStepName) => {
    if (options.beforeStep) await options.beforeStep(step);
    stepStarted = performance.now();
  };
  // Each step records how long it took (from its beforeStep to its push).
  const steps = {
    push(step: FunnelStep) {
      timed.push(step.enabled ? { ...step, ms: Math.round(performance.now() - stepStarted) } : step);
    },
  };

  if (kind === IMPORT_KIND.gold) {
    for (const step of ["date", "location", "language", "classifier", "wordCount"] as const) steps.push(skippedStep(step, rows.length, GOLD_NOTE));
  } else {
    await before("date");
    let r: { rows: IngestRow[]; step: FunnelStep } = filterByDate(rows, { ...s.date, startDate: event.startDate, endDate: event.endDate });
    steps.push(r.step);
    await before("location");
    r = filterByLocation(r.rows, { ...s.location, targets: event.locations });
    steps.push(r.step);
    await before("language");
    let detect = options.detectLanguage ?? null;
    if (!detect && s.language.enabled && r.rows.some((row) => row.lang === undefined)) {
      detect = options.prepareLanguageDetector ? await options.prepareLanguageDetector(r.rows) : await loadLanguageDetector();
    }
    r = filterByLanguage(r.rows, { ...s.language, detect });
    steps.push(r.step);
    await before("classifier");
    r = await filterByClassifier(r.rows, { ...s.classifier, classifier: options.classifier });
    steps.push(r.step);
    await before("wordCount");
    r = filterByWordCount(r.rows, s.wordCount);
    steps.push(r.step);
    rows = r.rows;
  }

  await before("duplicates");
  const d = filterNearDuplicates(rows, { ...s.duplicates, stored: s.duplicates.againstStored ? options.stored : [] });
  steps.push(d.step);
  rows = d.rows;

  if (kind === IMPORT_KIND.gold) steps.push(skippedStep("sampling", rows.length, GOLD_NOTE));
  else {
    await before("sampling");
    const sampled = sampleRows(rows, s.sampling);
    steps.push(sampled.step);
    rows = sampled.rows;
  }
  return { rows, steps: timed, duplicateOf: d.duplicateOf };
}

/**
 * Groups specific error reasons into kinds for the funnel, in words (never a template with "N" in it): a field-count
 * error keeps the header's count ("wrong number of fields (the header has 5)"), a duplicate id is one kind. A label
 * outside the scheme keeps its value (`label "Not labeled" is not in …`): files have few labels, and the value is what
 * the researcher must act on. Each row's own reason stays in the error CSV.
 */
export function errorKind(reason: string): string {
  if (/^label "[^"]*" is not in /.test(reason)) return reason;
  const fields = /^expected (\d+) fields, found \d+$/.exec(reason);
  if (fields) return `wrong number of fields (the header has ${fields[1]})`;
  if (/^duplicate id .* \(first on line \d+\)$/.test(reason)) return "duplicate id (the same id on an earlier line)";
  if (/^id .* is already in a HIT as an unknown tweet/.test(reason)) return "id already in a HIT as an unknown tweet (cannot become gold)";
  if (/^id .* is already imported/.test(reason)) return "id already imported for this event";
  return reason.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "…");
}

/** The whole funnel: rows read → valid → each pipeline step → stored. */
export function buildFunnel({
  records,
  errors,
  steps,
  stored,
  timings = {},
  labelMapDrops = [],
  labelMapApplied = labelMapDrops.length > 0,
}: {
  records: number;
  errors: readonly RowError[];
  /** Rows the event's label map dropped (validate.ts). */
  labelMapDrops?: readonly LabelMapDrop[];
  /** Whether the event has a label map (renaming or dropping): without drops its step is on and says it dropped nothing. */
  labelMapApplied?: boolean;
  steps: readonly FunnelStep[];
  stored: number;
  /** Reading (and parsing) and validation times, for the funnel's first two steps. */
  timings?: { readMs?: number; validateMs?: number };
}): Funnel {
  const read: FunnelStep = { step: "read", label: FUNNEL_LABELS.read, enabled: true, in: records, kept: records, removed: 0, reasons: {} };
  if (timings.readMs !== undefined) read.ms = Math.round(timings.readMs);
  const validCounter = new StepCounter();
  for (const e of errors) validCounter.remove(errorKind(e.reason), { line: e.line, externalId: "" }, e.reason);
  const valid = validCounter.step("valid", records);
  if (valid.examples) valid.examples = valid.examples.map((x) => ({ ...x, externalId: null }));
  if (timings.validateMs !== undefined) valid.ms = Math.round(timings.validateMs);
  const mapCounter = new StepCounter();
  for (const d of labelMapDrops) mapCounter.remove(`label "${d.label}" mapped to drop`, d);
  const labelMap = labelMapDrops.length > 0 ? mapCounter.step("labelMap", valid.kept) : labelMapApplied ? mapCounter.step("labelMap", valid.kept, { note: "applied: no label mapped to drop" }) : skippedStep("labelMap", valid.kept, "the event has no label map");
  const last = steps.length > 0 ? steps[steps.length - 1].kept : labelMap.kept;
  const storedStep: FunnelStep = {
    step: "stored",
    label: FUNNEL_LABELS.stored,
    enabled: true,
    in: last,
    kept: stored,
    removed: last - stored,
    reasons: last - stored > 0 ? { "not stored": last - stored } : {},
  };
  return [read, valid, labelMap, ...steps, storedStep];
}
