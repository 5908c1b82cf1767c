import type { MessagePort } from "node:worker_threads";
import { z } from "zod";
import { UserError } from "@/lib/errors";
import { resolveColumns, type UploadColumns } from "./columns";
import type { TweetClassifier } from "./filters/classifier";
import type { StoredTweetText } from "./filters/duplicates";
import { type BackgroundLanguageDetection, startLanguageDetection } from "./filters/language-pool";
import type { Funnel, FunnelStepName } from "./funnel";
import { MAX_STORED_ERRORS } from "./limits";
import { buildFunnel, runIngestPipeline } from "./pipeline";
import { openTweetFile, windows1252Note } from "./read-file";
import type { IngestRow, RowError } from "./rows";
import { parseEventLocations, parseIngestSettings } from "./settings";
import { validateRows } from "./validate";
import { IMPORT_KIND, type ImportKind, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * The CPU-heavy part of an import — read and parse the file, validate, run the filtering pipeline
 * (language detection, near-duplicates, …) — as it runs inside the import worker thread
 * (import-worker.mjs, started by import-thread.ts). It touches no database: the job sends it what it
 * needs (the event's settings, the tweets already stored, classifier answers) and stores what comes back.
 */
export type ImportWorkInput = {
  filePath: string;
  fileName: string;
  kind: ImportKind;
  /** The event's raw `filters` and `locations` JSON (parsed here). */
  filters: unknown;
  locations: unknown;
  startDate: Date | null;
  endDate: Date | null;
  scheme: { slug: string; values: string[]; names: string[] };
  /** The job has a classifier for this event (predictions are asked of the job, message by message). */
  classifier: boolean;
  /** The file names of the event's imports, by id: "already imported (row 12 of floods.csv)". */
  importNames: Record<string, string>;
};

/** Stored tweets of the event (sent in chunks before `storedDone`), with the import and line each came from. */
export type StoredTweet = StoredTweetText & { role: string; status: string; importId: string | null; line: number | null };

export type ToWorker =
  | { type: "start"; input: ImportWorkInput }
  | { type: "stored"; tweets: StoredTweet[] }
  | { type: "storedDone" }
  | { type: "predicted"; id: number; labels?: string[]; error?: string };

export type FromWorker =
  | { type: "opened"; format: string; note: string | null; fileSize: number }
  | { type: "progress"; records: number; bytesRead: number; fileSize: number }
  | { type: "read"; records: number }
  | { type: "step"; step: FunnelStepName; records: number }
  | { type: "predict"; id: number; texts: string[] }
  | { type: "rows"; rows: IngestRow[] }
  /** Gold files: rows whose tweets are stored unknown tweets, promoted to gold with the row's label. */
  | { type: "promote"; rows: IngestRow[] }
  | { type: "errors"; errors: RowError[] }
  | {
      type: "done";
      records: number;
      accepted: number;
      errorCount: number;
      funnel: Funnel;
      note: string | null;
      /** The file has labels outside the scheme that the label map does not cover: all such labels with counts; nothing else was done. */
      needsMapping: Record<string, number> | null;
    }
  | { type: "failed"; message: string; userError: boolean; code: string };

/** Rows and errors go back in chunks: each message is cheap to copy for the job's thread. */
export const RESULT_CHUNK = 2_000;

const inputSchema = z.object({
  filePath: z.string().min(1),
  fileName: z.string(),
  kind: z.enum(["tweets", "gold"]),
  filters: z.unknown(),
  locations: z.unknown(),
  startDate: z.date().nullable(),
  endDate: z.date().nullable(),
  scheme: z.object({ slug: z.string(), values: z.array(z.string()), names: z.array(z.string()) }),
  classifier: z.boolean(),
  importNames: z.record(z.string(), z.string()),
});

/** Answers one import on `port`: waits for "start", then works, streaming its messages back. */
export function serveImportWork(port: MessagePort): void {
  const stored: StoredTweet[] = [];
  let storedDone: () => void = () => undefined;
  const storedReady = new Promise<void>((resolve) => (storedDone = resolve));
  const predictions = new Map<number, { resolve: (labels: string[]) => void; reject: (err: Error) => void }>();
  let nextPrediction = 0;
  const send = (m: FromWorker) => port.postMessage(m);

  const classifier: TweetClassifier = {
    predict(texts) {
      return new Promise<string[]>((resolve, reject) => {
        const id = nextPrediction++;
        predictions.set(id, { resolve, reject });
        send({ type: "predict", id, texts });
      });
    },
  };

  port.on("message", (m: ToWorker) => {
    if (m.type === "stored") for (const t of m.tweets) stored.push(t);
    else if (m.type === "storedDone") storedDone();
    else if (m.type === "predicted") {
      const p = predictions.get(m.id);
      predictions.delete(m.id);
      if (m.labels) p?.resolve(m.labels);
      else p?.reject(new Error(m.error ?? "the classifier failed"));
    } else if (m.type === "start") {
      runImportWork(inputSchema.parse(m.input), { send, stored: () => storedReady.then(() => stored), classifier }).catch((err: unknown) => {
        send({
          type: "failed",
          message: err instanceof Error ? err.message : String(err),
          userError: err instanceof UserError,
          code: err instanceof UserError ? err.code : "error",
        });
      });
    }
  });
}

async function runImportWork(
  input: ImportWorkInput,
  { send, stored, classifier }: { send: (m: FromWorker) => void; stored: () => Promise<StoredTweet[]>; classifier: TweetClassifier },
): Promise<void> {
  const { kind } = input;
  const settings = parseIngestSettings(input.filters);
  const locations = parseEventLocations(input.locations);
  const started = performance.now();
  const reader = await openTweetFile(input.filePath, { fileName: input.fileName, limits: settings.limits, columns: settings.columns });
  send({ type: "opened", format: reader.format.format, note: reader.format.note ?? null, fileSize: reader.fileSize });

  let detection: BackgroundLanguageDetection | null = null;
  try {
    // ---- read (language detection starts in its own threads as rows arrive) -------------------------
    detection = kind === IMPORT_KIND.tweets && settings.language.enabled ? startLanguageDetection() : null;
    const rows: IngestRow[] = [];
    const errors: RowError[] = [];
    let records = 0;
    let windows1252Rows = 0;
    let lastProgress = 0;
    for await (const part of reader.batches()) {
      windows1252Rows += part.windows1252Rows ?? 0;
      for (const r of part.rows) rows.push(r);
      detection?.add(part.rows);
      for (const e of part.errors) errors.push(e);
      records += part.records;
      if (Date.now() - lastProgress > 250) {
        lastProgress = Date.now();
        send({ type: "progress", records, bytesRead: part.bytesRead, fileSize: reader.fileSize });
      }
    }
    send({ type: "read", records });
    const readMs = performance.now() - started;

    // ---- validate and filter ------------------------------------------------------------------------
    const validateStarted = performance.now();
    const storedTweets = await stored();
    const columnNames = reader.format.kind === "delimited" ? columnNamesOf(reader.format.header, settings.columns) : {};
    const goldPromotion = kind === IMPORT_KIND.gold ? promotionOf(storedTweets) : undefined;
    const validated = validateRows(rows, {
      kind,
      scheme: input.scheme,
      storedIds: new Set(storedTweets.map((t) => t.externalId)),
      outsideScheme: settings.labels.outsideScheme,
      columnNames,
      goldPromotion,
      labelMap: settings.labels.map,
      storedOrigin: originOf(storedTweets, input.importNames),
    });
    // Labels outside the scheme that no map covers, where they would be errors: pause for a mapping first.
    if (validated.unmapped.length > 0 && (kind === IMPORT_KIND.gold || settings.labels.outsideScheme === "error")) {
      send({ type: "done", records, accepted: 0, errorCount: 0, funnel: [], note: null, needsMapping: validated.outsideLabels });
      return;
    }
    for (const e of validated.errors) errors.push(e);
    errors.sort((a, b) => a.line - b.line);
    rows.length = 0;
    const validateMs = performance.now() - validateStarted;

    const reference = storedTweets.filter((t) => kind === IMPORT_KIND.tweets || t.role === TWEET_ROLE.gold);
    const pipeline = await runIngestPipeline(validated.rows, {
      kind,
      settings,
      event: { startDate: input.startDate, endDate: input.endDate, locations },
      stored: reference,
      classifier: input.classifier ? classifier : null,
      ...(detection ? { prepareLanguageDetector: (filtered: IngestRow[]) => (detection as BackgroundLanguageDetection).finish(filtered) } : {}),
      beforeStep: (step) => send({ type: "step", step, records }),
    });
    const funnel = buildFunnel({ records, errors, labelMapDrops: validated.dropped, labelMapApplied: Object.keys(settings.labels.map).length > 0, steps: pipeline.steps, stored: pipeline.rows.length, timings: { readMs, validateMs } });
    // Rows of a gold file whose tweets are stored already are promoted, not inserted: counted as stored.
    const promoted = goldPromotion ? pipeline.rows.filter((r) => goldPromotion.promotable.has(r.externalId)) : [];
    const fresh = promoted.length ? pipeline.rows.filter((r) => !goldPromotion?.promotable.has(r.externalId)) : pipeline.rows;
    if (promoted.length) funnel[funnel.length - 1].details = { ...funnel[funnel.length - 1].details, [PROMOTED_DETAIL]: promoted.length };
    for (let i = 0; i < fresh.length; i += RESULT_CHUNK) send({ type: "rows", rows: fresh.slice(i, i + RESULT_CHUNK) });
    for (let i = 0; i < promoted.length; i += RESULT_CHUNK) send({ type: "promote", rows: promoted.slice(i, i + RESULT_CHUNK) });
    const kept = errors.slice(0, MAX_STORED_ERRORS); // all are counted; the report keeps the first ones
    for (let i = 0; i < kept.length; i += RESULT_CHUNK) send({ type: "errors", errors: kept.slice(i, i + RESULT_CHUNK) });
    const note = [reader.format.note, windows1252Note(windows1252Rows)].filter(Boolean).join("; ") || null;
    send({ type: "done", records, accepted: pipeline.rows.length, errorCount: errors.length, funnel, note, needsMapping: null });
  } finally {
    await detection?.close();
  }
}

/** The funnel's "stored" detail for promoted rows. */
export const PROMOTED_DETAIL = "promoted to gold";

/** Which stored tweets a gold row may promote (unknown, not yet in a HIT) and which it may not (packed as unknown). */
function promotionOf(stored: readonly StoredTweet[]): { promotable: Set<string>; inHit: Set<string> } {
  const promotable = new Set<string>();
  const inHit = new Set<string>();
  for (const t of stored) {
    if (t.role !== TWEET_ROLE.unknown) continue;
    (t.status === TWEET_STATUS.pending ? promotable : inHit).add(t.externalId);
  }
  return { promotable, inHit };
}

/** Where a stored tweet came from ("row 12 of floods.csv"); the look-up is built on the first question. */
function originOf(stored: readonly StoredTweet[], importNames: Readonly<Record<string, string>>): (externalId: string) => string | null {
  let byId: Map<string, StoredTweet> | null = null;
  return (externalId) => {
    byId ??= new Map(stored.map((t) => [t.externalId, t]));
    const t = byId.get(externalId);
    const file = t?.importId ? importNames[t.importId] : undefined;
    if (!t || !file) return null;
    return t.line !== null ? `row ${t.line} of ${file}` : `from ${file}`;
  };
}

function columnNamesOf(header: readonly string[], saved: UploadColumns | null): { id?: string; label?: string } {
  const { map } = resolveColumns(header, saved);
  return {
    ...(map.id !== undefined ? { id: header[map.id] } : {}),
    ...(map.label !== undefined ? { label: header[map.label] } : {}),
  };
}
