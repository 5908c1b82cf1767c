import "server-only";
import fs from "node:fs";
import path from "node:path";
import { type Db, getDb, prepareDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { parseLabelMapCsv, saveLabelMap } from "@/lib/ingest/label-map";
import { renderFunnelTable } from "@/lib/ingest/funnel";
import { createImport } from "@/lib/ingest/import-job";
import { getImport, type ImportView } from "@/lib/ingest/import-queries";
import { requestImportRerun } from "@/lib/ingest/rerun-import";
import { importWarning } from "@/lib/ingest/outcome";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs, type JobRegistry } from "@/lib/jobs/runner";
import { subscribeLive } from "@/lib/live/bus";
import { parseCliArgs } from "../args";
import { CliError } from "../errors";
import { JUDGMENTS_USAGE, runJudgmentImport } from "./import-judgments";
import { randomUUID } from "node:crypto";
import { writeTweetEvalTsv } from "@/lib/ingest/tweeteval";
import { uploadDir } from "@/lib/ingest/uploads";
import { previewColumns } from "@/lib/ingest/column-preview";
import { saveUploadColumns } from "@/lib/ingest/column-map";
import { checkColumnsInHeader, parseColumnsOption } from "@/lib/ingest/columns.validation";
import { IMPORT_KIND, IMPORT_STATUS, JOB_STATE, isOneOf } from "@/lib/db/enums";

const USAGE = `usage: accord import --event SLUG FILE [--gold] [--label-map MAP.csv] [--columns id=COL,text=COL,...] [--json]
       accord import --rerun IMPORT_ID [--event SLUG] [--label-map MAP.csv] [--json]
       accord import --event SLUG --tweeteval DIR/SPLIT_text.txt [--gold] [--label-map MAP.csv] [--json]
${JUDGMENTS_USAGE}
Imports tweets (or, with --gold, expert-labelled gold tweets) into the event, as the import page does:
the same job, run here in this process against DATABASE_URL. Prints the filtering funnel (rows read,
valid, date, location, language, classifier, word count, near-duplicates, sampling, stored).
--json prints one object: {importId, event, kind, fileName, format, status, message, rowsRead,
rowsStored, errorCount, funnel, errors (the first 100 per-row errors), fileLabels}.
--label-map MAP.csv saves a label map for the event first, as the import page's mapping form does (CSV
"from,to" per line; an empty "to" drops those rows; a "to" outside the scheme keeps it as a new label);
later imports reuse it. A file with labels outside the scheme that no map covers is not imported: the
command lists them with their counts (status needs_mapping).
--columns id=COL,text=COL[,label=COL][,date=COL][,location=COL] names the columns of a CSV/TSV whose header Accord
does not recognise (e.g. a CrowdFlower file's id=tweet_no,text=tweet); refused, naming the column, when FILE
has no such column. Saved for the event as the upload page's column preview saves it: later uploads with
those columns and re-runs use it.
--rerun IMPORT_ID re-runs a completed import (its id is on the Data tab and in --json) with the event's
current ingest settings and label map, from its kept file (an upload under ACCORD_DATA_DIR, or the file this
command read, if unchanged); the new tweets replace the old in one transaction. Refused while any of the
import's tweets is gold or in a HIT.
--tweeteval DIR/SPLIT_text.txt imports a TweetEval task split as one file: SPLIT_text.txt paired line by line with
SPLIT_labels.txt, label numbers named by DIR/mapping.txt (ids tweeteval:TASK:SPLIT:LINE; the pair is kept as an
upload under ACCORD_DATA_DIR for re-runs).
`;

const TERMINAL = new Set<string>([IMPORT_STATUS.completed, IMPORT_STATUS.failed, IMPORT_STATUS.cancelled, IMPORT_STATUS.needs_mapping]);

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

async function waitForImport(db: Db, importId: string, registry: JobRegistry): Promise<ImportView> {
  // Normally the job ran in drainJobs above; if a background worker claimed it first, wait for it.
  for (;;) {
    const view = await getImport(db, { importId });
    if (!view) throw new CliError("the import disappeared");
    if (TERMINAL.has(view.status)) return view;
    // The job ended without updating the import (it should not happen): report what there is.
    if (view.job && isOneOf(view.job.state, [JOB_STATE.succeeded, JOB_STATE.failed, JOB_STATE.cancelled])) return view;
    await new Promise((r) => setTimeout(r, 500));
    await drainJobs(db, { registry, types: [JOBS.import.type] });
  }
}

/** The command, with the database injectable for tests. */
export async function runImport(argv: string[], { db }: { db?: Db } = {}): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, {
    event: { type: "string" },
    gold: { type: "boolean", default: false },
    "label-map": { type: "string" },
    columns: { type: "string" },
    rerun: { type: "string" },
    judgments: { type: "string" },
    tweeteval: { type: "string" },
    repeats: { type: "string", default: "refuse" },
    "text-column": { type: "string" },
    "label-column": { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const rerun = values.rerun;
  if (values.judgments && (rerun || values.gold || positionals.length > 0)) throw new CliError(`--judgments FILE takes no other FILE, --gold or --rerun\n\n${USAGE}`, 2);
  if (!values.event && !rerun) throw new CliError(`--event SLUG is required\n\n${USAGE}`, 2);
  if (values.tweeteval && (rerun || values.judgments || positionals.length > 0)) throw new CliError(`--tweeteval FILE takes no other FILE, --judgments or --rerun\n\n${USAGE}`, 2);
  if (!values.judgments && !values.tweeteval && (rerun ? positionals.length !== 0 : positionals.length !== 1)) throw new CliError(`${rerun ? "--rerun takes no FILE (the import's own file is read)" : "expected one FILE"}\n\n${USAGE}`, 2);
  if (rerun && values.gold) throw new CliError(`--rerun keeps the import's kind: leave out --gold\n\n${USAGE}`, 2);
  const client = db ?? getDb();
  await prepareDb(client);

  let event: { id: string; slug: string } | null;
  try {
    event = rerun ? await eventOfImport(client, rerun) : await client.event.findUnique({ where: { slug: values.event }, select: { id: true, slug: true } });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "P2021") throw new CliError("the database has no tables yet: run `accord migrate` first");
    throw err;
  }
  if (!event) throw new CliError(rerun ? `no import with id "${rerun}"` : `no event with slug "${values.event}"`);
  if (values.event && event.slug !== values.event) throw new CliError(`import ${rerun} belongs to event "${event.slug}", not "${values.event}"`);

  if (values["label-map"]) {
    const mapFile = path.resolve(values["label-map"]);
    let text: string;
    try {
      text = await fs.promises.readFile(mapFile, "utf8");
    } catch {
      throw new CliError(`cannot read the label map ${mapFile}`);
    }
    try {
      await saveLabelMap(client, { eventId: event.id, map: parseLabelMapCsv(text), actor: null });
    } catch (err) {
      if (err instanceof UserError) throw new CliError(err.message);
      throw err;
    }
  }

  if (values.columns) {
    if (values.judgments || values.tweeteval) throw new CliError(`--columns is for a tweet file (CSV/TSV), not --judgments or --tweeteval\n\n${USAGE}`, 2);
    await saveColumnsFor(client, { eventId: event.id, option: values.columns, file: rerun ? await fileOfImport(client, rerun) : { filePath: path.resolve(positionals[0]), fileName: path.basename(positionals[0]) } });
  }

  if (values.judgments) {
    return runJudgmentImport(client, { event, file: values.judgments, repeats: values.repeats, textColumn: values["text-column"], labelColumn: values["label-column"], json: values.json });
  }

  // The same handlers as the web server and `accord worker` (the classifier step included).
  const registry = accordJobs();
  let created: { importId: string };
  try {
    created = rerun
      ? await requestImportRerun(client, { importId: rerun, eventId: event.id })
      : await createImport({ db: client, eventId: event.id, kind: values.gold ? IMPORT_KIND.gold : IMPORT_KIND.tweets, ...fileToImport(values.tweeteval, positionals[0]) });
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
  const showProgress = !values.json && process.stderr.isTTY;
  const unsubscribe = showProgress
    ? subscribeLive((m) => {
        if (m.kind !== "import" || m.data?.importId !== created.importId) return;
        const d = m.data as { phase?: string; rowsRead?: number; step?: string };
        if (d.phase) process.stderr.write(`\r${d.phase}${d.step ? ` (${d.step})` : ""}: ${fmt(d.rowsRead ?? 0)} rows read   `);
      })
    : () => undefined;
  try {
    await drainJobs(client, { registry, types: [JOBS.import.type] });
  } finally {
    unsubscribe();
    if (showProgress) process.stderr.write("\r\x1b[K");
  }
  const view = await waitForImport(client, created.importId, registry);
  const errors = await client.importError.findMany({
    where: { importId: view.id },
    orderBy: [{ line: "asc" }, { id: "asc" }],
    take: 100,
    select: { line: true, column: true, reason: true, raw: true },
  });

  if (values.json) {
    const out = {
      importId: view.id,
      event: event.slug,
      kind: view.kind,
      fileName: view.fileName,
      format: view.format,
      status: view.status,
      message: view.message,
      rowsRead: view.rowsRead,
      rowsStored: view.rowsStored,
      errorCount: view.errorCount,
      funnel: view.funnel ?? [],
      errors,
      fileLabels: view.fileLabels,
    };
    process.stdout.write(JSON.stringify(out) + "\n");
  } else {
    const lines = [
      `${rerun ? "re-run of import" : "import"} ${view.id}: ${view.fileName} → event "${event.slug}" (${view.kind}${view.format ? `, ${view.format}` : ""}): ${view.status}`,
    ];
    if (view.funnel && view.funnel.length > 0) lines.push("", renderFunnelTable(view.funnel));
    if (view.status === IMPORT_STATUS.needs_mapping && view.fileLabels) {
      lines.push("", "labels outside the event's scheme (rows):");
      for (const [label, n] of Object.entries(view.fileLabels).sort((a, b) => b[1] - a[1])) lines.push(`  ${label}: ${fmt(n)}`);
      lines.push("map them with --label-map MAP.csv (from,to per line; to empty = drop) and run the import again.");
    }
    if (errors.length > 0) {
      lines.push("", `row errors (${fmt(view.errorCount)}${view.errorCount > errors.length ? `, first ${errors.length}` : ""}):`);
      for (const e of errors.slice(0, 20)) lines.push(`  line ${e.line}${e.column ? ` [${e.column}]` : ""}: ${e.reason}`);
      if (errors.length > 20) lines.push(`  … (--json lists ${errors.length}; the import page has the full report as CSV)`);
    }
    if (view.message) lines.push("", view.message);
    const warning = importWarning(view);
    if (warning) lines.push(`warning: ${warning}`);
    process.stdout.write(lines.join("\n") + "\n");
  }
  return view.status === IMPORT_STATUS.completed ? 0 : 1;
}

/** The file the import reads: FILE as it is, or a TweetEval split's pair written as one TSV among the uploads. */
function fileToImport(tweeteval: string | undefined, file: string | undefined): { fileName: string; filePath: string } {
  if (!tweeteval) return { fileName: path.basename(file as string), filePath: path.resolve(file as string) };
  fs.mkdirSync(uploadDir(), { recursive: true, mode: 0o700 });
  const { filePath, fileName } = writeTweetEvalTsv(path.resolve(tweeteval), uploadDir());
  const kept = path.join(uploadDir(), `${randomUUID()}.upload`);
  fs.renameSync(filePath, kept);
  return { fileName, filePath: kept };
}

/** --columns: parsed (zod), checked against FILE's header (a missing column named), saved as the event's column mapping. */
async function saveColumnsFor(db: Db, { eventId, option, file }: { eventId: string; option: string; file: { filePath: string; fileName: string } }): Promise<void> {
  try {
    const columns = parseColumnsOption(option);
    const preview = await previewColumns(file.filePath, { fileName: file.fileName });
    if (!preview) throw new UserError(`--columns: "${file.fileName}" is not a CSV/TSV with a header row`, "columns");
    checkColumnsInHeader(columns, preview.header, file.fileName);
    await saveUploadColumns(db, { eventId, columns, actor: null });
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  }
}

async function fileOfImport(db: Db, importId: string): Promise<{ filePath: string; fileName: string }> {
  const batch = await db.importBatch.findUnique({ where: { id: importId }, select: { fileName: true, job: { select: { payload: true } } } });
  const payload = JOBS.import.payloadSchema.safeParse(batch?.job?.payload);
  if (!batch || !payload.success) throw new CliError(`the file of import ${importId} is no longer known`);
  return { filePath: payload.data.filePath, fileName: batch.fileName };
}

async function eventOfImport(db: Db, importId: string): Promise<{ id: string; slug: string } | null> {
  const batch = await db.importBatch.findUnique({ where: { id: importId }, select: { event: { select: { id: true, slug: true } } } });
  return batch?.event ?? null;
}

export async function run(argv: string[]): Promise<number> {
  const db = getDb();
  try {
    return await runImport(argv, { db });
  } finally {
    await db.$disconnect();
  }
}
