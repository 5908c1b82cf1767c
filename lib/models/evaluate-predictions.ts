import "server-only";
import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { SplitName } from "@/lib/export/humaid";
import { MAX_PREDICTIONS_BYTES } from "./models.validation";
import { type ScoresByEvent, scoreByEvent } from "./scores";
import { eventsForModel, loadModelSplits, type ModelEvent, type SplitTweet } from "./split-data";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * Scores uploaded predictions (CSV `tweet_id,label`) against an exported split — a model's test split,
 * or a split (or all) of events' accepted labels — like the HumAID paper's Table 7: weighted P/R/F1,
 * per event and overall. Malformed rows are reported with their line; ids not in the split are listed.
 */
export const MAX_REPORTED_ERRORS = 100;
export const MAX_LISTED_UNMATCHED = 20;

const ID_COLUMNS = ["tweet_id", "id"];
const LABEL_COLUMNS = ["label", "class_label", "prediction", "predicted_label"];

const predictionRowSchema = z.object({
  tweet_id: z.string().trim().min(1, "the tweet id is empty").max(64, "the tweet id is longer than 64 characters").regex(/^\S*$/, "the tweet id contains spaces"),
  label: z.string().trim().min(1, "the label is empty").max(100, "the label is longer than 100 characters"),
});

export type RowError = { line: number; message: string };
export type ParsedPredictions = { predictions: Map<string, string>; errors: RowError[]; rows: number };

/** Parses a predictions CSV: a header with tweet_id and label columns, one prediction per row. */
export function parsePredictionsCsv(text: string, { labels }: { labels?: readonly string[] } = {}): ParsedPredictions {
  if (Buffer.byteLength(text, "utf8") > MAX_PREDICTIONS_BYTES) {
    throw new UserError(`The predictions file is larger than ${MAX_PREDICTIONS_BYTES / 1024} KB.`, "file_too_large");
  }
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, delimiter: [",", "\t"] }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (err) {
    throw new UserError(`The predictions file is not valid CSV: ${err instanceof Error ? err.message : String(err)}`, "invalid_csv");
  }
  if (records.length === 0) throw new UserError("The predictions file is empty.", "invalid_csv");
  const header = records[0].record.map((h) => h.trim().toLowerCase());
  const idCol = header.findIndex((h) => ID_COLUMNS.includes(h));
  const labelCol = header.findIndex((h) => LABEL_COLUMNS.includes(h));
  if (idCol < 0 || labelCol < 0) {
    throw new UserError(`The first line must be a header with a "tweet_id" and a "label" column (found: ${header.join(", ") || "nothing"}).`, "invalid_csv");
  }
  const known = labels ? new Set(labels) : null;
  const predictions = new Map<string, string>();
  const firstLine = new Map<string, number>();
  const errors: RowError[] = [];
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const parsed = predictionRowSchema.safeParse({ tweet_id: record[idCol] ?? "", label: record[labelCol] ?? "" });
    if (!parsed.success) {
      errors.push({ line, message: parsed.error.issues.map((i) => i.message).join("; ") });
      continue;
    }
    const { tweet_id: id, label } = parsed.data;
    if (known && !known.has(label)) {
      errors.push({ line, message: `"${label}" is not a label of this scheme` });
      continue;
    }
    const seen = firstLine.get(id);
    if (seen !== undefined) {
      errors.push({ line, message: `tweet ${id} was already predicted on line ${seen}` });
      continue;
    }
    firstLine.set(id, line);
    predictions.set(id, label);
  }
  return { predictions, errors, rows: records.length - 1 };
}

export type EvaluationScope = { kind: "model"; modelId: string } | { kind: "events"; eventIds: string[]; split: SplitName | "all" };

export const evaluationScopeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("model"), modelId: z.string().min(1).max(60) }),
  z.object({ kind: z.literal("events"), eventIds: z.array(z.string().min(1).max(60)).min(1, "Choose at least one event.").max(50), split: z.enum(["train", "dev", "test", "all"]) }),
]);

export type PredictionEvaluation = {
  scope: string;
  /** Gold tweets in the split, and how many of them have a (valid) prediction. */
  goldTotal: number;
  matched: number;
  missing: number;
  /** Predicted ids that are not in the split. */
  unmatched: { count: number; ids: string[] };
  rows: number;
  errors: RowError[];
  errorCount: number;
  scores: ScoresByEvent;
  /** For a model's test split: the events' accepted labels changed since training (the split differs). */
  splitChanged: boolean;
};

type GoldRow = { id: string; label: string; event: ModelEvent };

/** Fingerprint of a split's (id, label) rows, to notice when the data changed since training. */
export function splitFingerprint(rows: ReadonlyArray<{ id: string; label: string }>): string {
  const h = createHash("sha256");
  for (const r of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) h.update(`${r.id}\t${r.label}\n`);
  return h.digest("hex").slice(0, 32);
}

const trainedOnSchema = z.object({
  events: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string() })).min(1),
  split: z.object({ testFingerprint: z.string().optional() }).optional(),
});

/** A model's test split as it stands now (with texts), and the fingerprint recorded at training. */
export async function modelTestSplit(db: Db, modelId: string): Promise<{ rows: SplitTweet[]; schemeId: string; description: string; fileStem: string; fingerprint?: string }> {
  const model = await db.classifierModel.findUnique({ where: { id: modelId }, select: { name: true, version: true, trainedOn: true } });
  if (!model) throw new UserError("That model does not exist.", "model_not_found");
  const trainedOn = trainedOnSchema.safeParse(model.trainedOn);
  if (!trainedOn.success) throw new UserError("This model does not record the events it was trained on, so it has no test split here.", "no_test_split");
  const present = await db.event.findMany({ where: { id: { in: trainedOn.data.events.map((e) => e.id) } }, select: { id: true } });
  if (present.length === 0) throw new UserError("The events this model was trained on were deleted.", "no_test_split");
  const splits = await loadModelSplits(db, present.map((e) => e.id));
  return {
    rows: splits.rows.test,
    schemeId: splits.schemeId,
    description: `test split of ${model.name} v${model.version} (${splits.events.map((e) => e.name).join(", ")})`,
    fileStem: `${model.name}-v${model.version}`,
    fingerprint: trainedOn.data.split?.testFingerprint,
  };
}

async function goldFor(db: Db, scope: EvaluationScope): Promise<{ rows: GoldRow[]; schemeId: string; description: string; fingerprint?: string }> {
  if (scope.kind === "model") return modelTestSplit(db, scope.modelId);
  if (scope.split === "all") {
    const { events, schemeId } = await eventsForModel(db, scope.eventIds);
    const byId = new Map(events.map((e) => [e.id, e]));
    const accepted = await db.acceptedLabel.findMany({
      where: { eventId: { in: events.map((e) => e.id) }, tweet: { role: TWEET_ROLE.unknown, status: { not: TWEET_STATUS.retired } } },
      select: { eventId: true, label: true, tweet: { select: { externalId: true } } },
      orderBy: { tweetId: "asc" },
    });
    const seen = new Set<string>();
    const rows: GoldRow[] = [];
    for (const a of accepted) {
      if (seen.has(a.tweet.externalId)) continue;
      seen.add(a.tweet.externalId);
      rows.push({ id: a.tweet.externalId, label: a.label, event: byId.get(a.eventId) as ModelEvent });
    }
    return { rows, schemeId, description: `all accepted labels of ${events.map((e) => e.name).join(", ")}` };
  }
  const splits = await loadModelSplits(db, scope.eventIds);
  return { rows: splits.rows[scope.split], schemeId: splits.schemeId, description: `${scope.split} split of ${splits.events.map((e) => e.name).join(", ")}` };
}

export async function evaluatePredictions(db: Db, { scope, csv }: { scope: EvaluationScope; csv: string }): Promise<PredictionEvaluation> {
  const parsedScope = evaluationScopeSchema.safeParse(scope);
  if (!parsedScope.success) throw new UserError(parsedScope.error.issues.map((i) => i.message).join("; "), "invalid_scope");
  const gold = await goldFor(db, parsedScope.data);
  if (gold.rows.length === 0) throw new UserError(`The ${gold.description} holds no tweets.`, "empty_split");
  const labels = await db.label.findMany({ where: { schemeId: gold.schemeId }, select: { value: true } });
  const parsed = parsePredictionsCsv(csv, { labels: labels.length > 0 ? labels.map((l) => l.value) : undefined });
  const goldIds = new Set(gold.rows.map((r) => r.id));
  const unmatchedIds = [...parsed.predictions.keys()].filter((id) => !goldIds.has(id));
  const pairs = gold.rows.filter((r) => parsed.predictions.has(r.id)).map((r) => ({ event: r.event, gold: r.label, pred: parsed.predictions.get(r.id) as string }));
  if (pairs.length === 0) {
    const why = parsed.predictions.size === 0 ? "the file has no valid prediction" : `none of its ${parsed.predictions.size.toLocaleString("en-US")} tweet ids is in the ${gold.description}`;
    throw new UserError(`Nothing to score: ${why}.`, "no_matches", undefined);
  }
  return {
    scope: gold.description,
    goldTotal: gold.rows.length,
    matched: pairs.length,
    missing: gold.rows.length - pairs.length,
    unmatched: { count: unmatchedIds.length, ids: unmatchedIds.slice(0, MAX_LISTED_UNMATCHED) },
    rows: parsed.rows,
    errors: parsed.errors.slice(0, MAX_REPORTED_ERRORS),
    errorCount: parsed.errors.length,
    scores: scoreByEvent(pairs),
    splitChanged: gold.fingerprint !== undefined && gold.fingerprint !== splitFingerprint(gold.rows),
  };
}
