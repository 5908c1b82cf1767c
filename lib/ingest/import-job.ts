import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { writeAudit } from "@/lib/audit/write-audit";
import { insertMany } from "@/lib/db/bulk";
import type { Db, Prisma } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { UserError, unexpectedErrorMessage } from "@/lib/errors";
import { enqueueJob, isCancelRequested, renewLease } from "@/lib/jobs/queue";
import { JOBS, type JobPayload } from "@/lib/jobs/job-types";
import { CANCEL_CHECK_INTERVAL_MS, type JobContext, JobCancelled } from "@/lib/jobs/runner";
import { publishLive } from "@/lib/live/bus";
import { env } from "@/lib/config/env";
import { IMPORT_KIND, IMPORT_STATUS, JOB_STATE, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import type { TweetClassifier } from "./filters/classifier";
import { FUNNEL_LABELS, type Funnel } from "./funnel";
import { importActiveKey, sha256File } from "./import-file";
import { type ImportThread, startImportThread } from "./import-thread";
import type { StoredTweet } from "./import-work";
import { type ImportKind, importKindSchema } from "./imports.validation";
import { formatBytes } from "./limits";
import type { IngestRow, RowError } from "./rows";
import { parseIngestSettings } from "./settings";
import { promoteToGold } from "./promote-gold";
import { checkRerunFile, replaceImportTweets, rerunNeedsMappingMessage } from "./rerun-import";
import { clearStagedTweets, publishStagedTweets, stageTweets, type StagedRow, sweepStagedTweets } from "./staged-tweets";
import { discardUpload, releaseUpload } from "./uploads";

/**
 * Imports as recorded jobs. createImport() stores the upload's reference and enqueues a job; the
 * handler has the import worker thread (import-thread.ts) stream the file, validate it and run the
 * pipeline — none of that on this process's event loop — while it relays progress (rows read of an
 * estimate from the bytes read) and honours a cancel until its final transaction. Storing is bounded (issue 30): the
 * accepted rows are written to a staging table a few thousand at a time (staged-tweets.ts; a cancel is checked
 * after every chunk), invisible to every reader; then ONE short transaction copies them into Tweet with a single
 * INSERT … SELECT (a re-run deletes the last run's tweets in it first), stores the per-row errors (at most
 * MAX_STORED_ERRORS) and the funnel, and marks the import completed. A failure or cancel deletes the staged rows; a
 * crash leaves them to the job's retry or the next import (both clear them before they start): nothing is ever
 * half-stored, and a file already imported for the event (same sha256) adds nothing.
 *
 * No cancellation check runs inside the final transaction: with better-sqlite3 every query of the process
 * shares one connection, so other work's writes made while the transaction is open belong to it, and
 * only a commit keeps them. Rolling back is left to real failures.
 */
export const IMPORT_JOB_TYPE = JOBS.import.type;


export type ImportJobPayload = JobPayload<typeof JOBS.import>;

/** Called once per import job when the event's classifier step is on; null when none is available. */
export type ImportClassifierLoader = (args: { db: Db; eventId: string; schemeId: string }) => Promise<TweetClassifier | null>;



export type CreateImportResult = {
  importId: string;
  jobId: string;
  /** An earlier completed import of the same file for this event (the job will add nothing). */
  sameFileAs: { importId: string; fileName: string; createdAt: Date } | null;
};

export async function createImport({
  db,
  eventId,
  kind,
  fileName,
  filePath,
  userId = null,
}: {
  db: Db;
  eventId: string;
  kind: ImportKind;
  fileName: string;
  filePath: string;
  userId?: string | null;
}): Promise<CreateImportResult> {
  const k = importKindSchema.parse(kind);
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, filters: true } });
  if (!event) throw new UserError("That event does not exist.", "not_found");
  const settings = parseIngestSettings(event.filters);
  let size: number;
  try {
    const stat = await fs.promises.stat(filePath);
    if (!stat.isFile()) throw new Error("not a file");
    size = stat.size;
  } catch {
    throw new UserError(`"${fileName}" cannot be read.`, "file_missing");
  }
  if (size > settings.limits.maxFileBytes) {
    throw new UserError(`"${fileName}" is ${formatBytes(size)}, above the ${formatBytes(settings.limits.maxFileBytes)} limit.`, "file_too_large");
  }
  if (size === 0) throw new UserError(`"${fileName}" is empty.`, "empty_file");
  const fileHash = await sha256File(filePath);
  const earlier = await db.importBatch.findFirst({
    where: { eventId, fileHash, kind: k, status: IMPORT_STATUS.completed }, // the same file as gold promotes its tweets
    orderBy: { createdAt: "asc" },
    select: { id: true, fileName: true, createdAt: true },
  });
  const activeKey = importActiveKey(eventId, fileHash);
  const insert = () =>
    db.$transaction(async (tx) => {
      // The unique activeKey, not a look-up first: of two uploads of one file at once, exactly one gets here.
      const batch = await tx.importBatch.create({
        data: { eventId, kind: k, fileName, fileHash, fileSize: size, createdById: userId, activeKey },
      });
      const job = await enqueueJob(tx as unknown as Db, JOBS.import, {
        payload: { importId: batch.id, filePath },
        eventId,
        createdById: userId,
        maxAttempts: 2,
      });
      await tx.importBatch.update({ where: { id: batch.id }, data: { jobId: job.id } });
      return { batch, job };
    });
  let created: Awaited<ReturnType<typeof insert>>;
  try {
    created = await insert();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A holder whose job ended without clearing its key (a crashed worker) no longer blocks: free it, try once more.
    if (!(await releaseStaleActiveKey(db, activeKey))) {
      throw new UserError(`"${fileName}" is already being imported for this event; its progress is shown below.`, "already_importing");
    }
    created = await insert().catch((again: unknown) => {
      if (isUniqueViolation(again)) throw new UserError(`"${fileName}" is already being imported for this event; its progress is shown below.`, "already_importing");
      throw again;
    });
  }
  const { batch, job } = created;
  await writeAudit(db, {
    actorType: userId ? "user" : "system",
    actorId: userId,
    eventId,
    entityType: "import",
    entityId: batch.id,
    action: "upload",
    details: { fileName, kind: k, fileSize: size, fileHash },
  });
  publishLive({ eventId, kind: "import", data: { importId: batch.id, status: IMPORT_STATUS.queued } });
  return { importId: batch.id, jobId: job.id, sameFileAs: earlier ? { importId: earlier.id, fileName: earlier.fileName, createdAt: earlier.createdAt } : null };
}

/** Clears the active key of an import that is not in progress any more (ended, its job ended, or waiting for a mapping). True when one was freed. */
async function releaseStaleActiveKey(db: Db, activeKey: string): Promise<boolean> {
  const ended = [JOB_STATE.succeeded, JOB_STATE.failed, JOB_STATE.cancelled];
  // An import still waiting for its label mapping is replaced by the new upload of the same file.
  const replaced = await db.importBatch.updateMany({
    where: { activeKey, status: IMPORT_STATUS.needs_mapping },
    data: { activeKey: null, status: IMPORT_STATUS.cancelled, message: "Replaced by a new upload of the same file.", finishedAt: new Date() },
  });
  const freed = await db.importBatch.updateMany({
    where: {
      activeKey,
      OR: [
        { status: { in: [IMPORT_STATUS.completed, IMPORT_STATUS.failed, IMPORT_STATUS.cancelled] } },
        { status: { in: [IMPORT_STATUS.queued, IMPORT_STATUS.running] }, job: { state: { in: ended } } },
      ],
    },
    data: { activeKey: null },
  });
  return replaced.count + freed.count > 0;
}

export type ImportJobResult = { importId: string; status: string; rowsRead: number; rowsStored: number; errorCount: number };

const TX_TIMEOUT_MS = 10 * 60_000;
/** Stored tweets are read for the worker in pages of this many. */
const STORED_PAGE = 5_000;

function tweetData(row: IngestRow, { eventId, importId, kind, now }: { eventId: string; importId: string; kind: ImportKind; now: Date }): StagedRow {
  return {
    id: newId(),
    eventId,
    importId,
    importLine: row.line,
    externalId: row.externalId,
    text: row.text,
    lang: row.lang ?? null,
    tweetedAt: row.tweetedAt ?? null,
    userLocation: row.userLocation ?? null,
    placeName: row.placeName ?? null,
    placeCountry: row.placeCountry ?? null,
    latitude: row.latitude ?? null,
    longitude: row.longitude ?? null,
    role: kind === IMPORT_KIND.gold ? TWEET_ROLE.gold : TWEET_ROLE.unknown,
    goldLabel: kind === IMPORT_KIND.gold ? (row.label ?? null) : null,
    sourceLabel: kind === IMPORT_KIND.tweets ? (row.label ?? null) : null,
    predictedLabel: row.predictedLabel ?? null,
    status: TWEET_STATUS.pending,
    createdAt: now,
  };
}

/** Called after each chunk of the import's rows is staged (tests look at what readers see between chunks). */
export type StagedChunkHook = (info: { importId: string; staged: number; total: number }) => Promise<void>;

/**
 * The import job; `loadClassifier` supplies the event's classifier when its classifier step is on (null: none
 * available); `afterStagedChunk` runs between the chunks of storing.
 */
export async function runImportJob(
  ctx: JobContext,
  { importId, filePath, rerun = false }: ImportJobPayload,
  { loadClassifier, afterStagedChunk, stageChunkRows }: { loadClassifier: ImportClassifierLoader | null; afterStagedChunk?: StagedChunkHook; stageChunkRows?: number },
): Promise<ImportJobResult> {
  const { db } = ctx;
  const retentionDays = env().ACCORD_UPLOAD_RETENTION_DAYS;
  const batch = await db.importBatch.findUnique({
    where: { id: importId },
    include: { event: { select: { id: true, filters: true, locations: true, startDate: true, endDate: true, schemeId: true, scheme: { select: { slug: true } } } } },
  });
  if (!batch) throw new UserError("This import no longer exists.", "not_found");
  const eventId = batch.eventId;
  const kind = importKindSchema.parse(batch.kind);
  const live = (data: Record<string, unknown>) => publishLive({ eventId, kind: "import", data: { importId, ...data } });
  // What a crash left staged: this import's rows (a retry starts clean) and those of imports that no longer run.
  await clearStagedTweets(db, { importId });
  await sweepStagedTweets(db, { except: importId });
  if (batch.status === IMPORT_STATUS.completed) {
    // A retry after the transaction committed: nothing left to do.
    return { importId, status: IMPORT_STATUS.completed, rowsRead: batch.rowsRead, rowsStored: batch.rowsStored, errorCount: batch.errorCount };
  }

  let thread: ImportThread | null = null;
  /** Progress writes from the worker's messages, one at a time, in order (awaited before the import's last word). */
  let pending: Promise<unknown> = Promise.resolve();
  try {
    // A re-run reads its own file again (the same-file check is for new uploads; requestImportRerun refused copies).
    const earlier = rerun
      ? null
      : await db.importBatch.findFirst({
          where: { eventId, fileHash: batch.fileHash, kind, status: IMPORT_STATUS.completed, id: { not: importId } },
          orderBy: { createdAt: "asc" },
          select: { id: true, fileName: true, createdAt: true, rowsStored: true },
        });
    if (earlier) {
      const message = `This file was already imported for this event ("${earlier.fileName}", ${earlier.createdAt.toISOString().slice(0, 10)}, ${earlier.rowsStored.toLocaleString("en-US")} tweets stored): nothing new was added.`;
      await db.importBatch.update({ where: { id: importId }, data: { status: IMPORT_STATUS.completed, activeKey: null, message, rowsRead: 0, rowsStored: 0, finishedAt: new Date() } });
      live({ status: IMPORT_STATUS.completed, message, rowsStored: 0 });
      await discardUpload(filePath); // the earlier import keeps the same bytes for its re-runs
      return { importId, status: IMPORT_STATUS.completed, rowsRead: 0, rowsStored: 0, errorCount: 0 };
    }
    if (rerun) await checkRerunFile(filePath, { fileHash: batch.fileHash, fileName: batch.fileName });

    const settings = parseIngestSettings(batch.event.filters);
    const labels = await db.label.findMany({ where: { schemeId: batch.event.schemeId }, orderBy: { position: "asc" }, select: { value: true, name: true } });
    const classifier =
      kind === IMPORT_KIND.tweets && settings.classifier.enabled && loadClassifier ? await loadClassifier({ db, eventId, schemeId: batch.event.schemeId }) : null;

    // ---- read, validate and filter in the import worker thread ----------------------------------------
    const accepted: IngestRow[] = [];
    const promote: IngestRow[] = [];
    const storedErrors: RowError[] = [];
    let lastBatchWrite = 0;
    const track = (work: () => Promise<unknown>) => {
      pending = pending.then(work).catch(() => undefined);
    };
    thread = startImportThread(
      {
        filePath,
        fileName: batch.fileName,
        kind,
        filters: batch.event.filters,
        locations: batch.event.locations,
        startDate: batch.event.startDate,
        endDate: batch.event.endDate,
        scheme: { slug: batch.event.scheme.slug, values: labels.map((l) => l.value), names: labels.map((l) => l.name) },
        classifier: classifier !== null,
        importNames: Object.fromEntries(
          (await db.importBatch.findMany({ where: { eventId }, select: { id: true, fileName: true } })).map((b) => [b.id, b.fileName]),
        ),
      },
      {
        predict: classifier ? async (texts) => classifier.predict(texts) : null,
        onMessage: (m) => {
          if (m.type === "rows") for (const r of m.rows) accepted.push(r);
          else if (m.type === "promote") for (const r of m.rows) promote.push(r);
          else if (m.type === "errors") for (const e of m.errors) storedErrors.push(e);
          else if (m.type === "opened") {
            // A re-run keeps the last run's counts and message on show until it replaces them.
            const data = rerun ? { status: IMPORT_STATUS.running } : { status: IMPORT_STATUS.running, format: m.format, message: m.note };
            track(() => db.importBatch.update({ where: { id: importId }, data }));
            live({ status: IMPORT_STATUS.running, phase: "reading", bytesTotal: m.fileSize });
          } else if (m.type === "progress") {
            const estimate = m.bytesRead > 0 ? Math.max(m.records, Math.round((m.records * m.fileSize) / m.bytesRead)) : null;
            track(() => ctx.progress(m.records, estimate, `reading: ${m.records.toLocaleString("en-US")} rows (${formatBytes(m.bytesRead)} of ${formatBytes(m.fileSize)})`));
            if (Date.now() - lastBatchWrite > 1_000) {
              lastBatchWrite = Date.now();
              if (!rerun) track(() => db.importBatch.update({ where: { id: importId }, data: { rowsRead: m.records } }));
              live({ status: IMPORT_STATUS.running, phase: "reading", rowsRead: m.records, bytesRead: m.bytesRead, bytesTotal: m.fileSize });
            }
          } else if (m.type === "read") track(() => ctx.progress(m.records, m.records, `read ${m.records.toLocaleString("en-US")} rows`, true));
          else if (m.type === "step") {
            track(() => ctx.progress(m.records, m.records, `filtering: ${FUNNEL_LABELS[m.step]}`, true));
            live({ status: IMPORT_STATUS.running, phase: "filtering", step: m.step, rowsRead: m.records });
          }
        },
      },
    );
    await thread.sendStored(storedTweetChunks(db, { eventId, except: rerun ? importId : null }));
    const outcome = await untilDoneOrCancelled(ctx, thread.done);
    await pending;
    if (outcome.needsMapping && rerun) {
      // A re-run changes nothing until it can store: back to the last run, saying which labels need a mapping.
      const message = rerunNeedsMappingMessage(outcome.needsMapping);
      await db.importBatch.update({ where: { id: importId }, data: { status: IMPORT_STATUS.completed, activeKey: null, message } });
      live({ status: IMPORT_STATUS.completed, message });
      return { importId, status: IMPORT_STATUS.completed, rowsRead: batch.rowsRead, rowsStored: batch.rowsStored, errorCount: batch.errorCount };
    }
    if (outcome.needsMapping) {
      // Paused: the researcher maps the file's labels (upload page, or --label-map); the file and the active key stay.
      const labels = Object.keys(outcome.needsMapping).length;
      const message = `The file has ${labels} label${labels === 1 ? "" : "s"} that ${labels === 1 ? "is" : "are"} not in the event's scheme: map ${labels === 1 ? "it" : "them"} to continue (nothing was stored yet).`;
      await db.importBatch.update({
        where: { id: importId },
        data: { status: IMPORT_STATUS.needs_mapping, fileLabels: outcome.needsMapping, rowsRead: outcome.records, message },
      });
      live({ status: IMPORT_STATUS.needs_mapping, message });
      return { importId, status: IMPORT_STATUS.needs_mapping, rowsRead: outcome.records, rowsStored: 0, errorCount: 0 };
    }
    const records = outcome.records;
    const funnel: Funnel = outcome.funnel;

    // ---- store: staged in bounded chunks, then made visible at once ---------------------------------------
    // The last moment a cancel stops the import before staging: read now (not throttled like ctx.throwIfCancelled).
    if (await isCancelRequested(db, ctx.job.id)) throw new JobCancelled();
    const toStore = accepted.length;
    await ctx.progress(records, records, `storing ${toStore.toLocaleString("en-US")} tweets`, true);
    live({ status: IMPORT_STATUS.running, phase: "storing", rowsRead: records, rowsToStore: toStore });
    const errorCount = outcome.errorCount;
    let message = (rerun ? "Re-run with the event's current settings: " : "") + summaryMessage({ stored: toStore, errors: errorCount, storedErrors: storedErrors.length, note: outcome.note ?? undefined });
    let promoted = 0;
    const now = new Date();
    const storeStarted = performance.now();
    const staged = await stageTweets(db, stagedRows(accepted, { eventId, importId, kind, now }), {
      chunkRows: stageChunkRows,
      afterChunk: async (n) => {
        await afterStagedChunk?.({ importId, staged: n, total: toStore });
        if (await isCancelRequested(db, ctx.job.id)) throw new JobCancelled();
        await ctx.progress(records, records, `storing: ${n.toLocaleString("en-US")} of ${toStore.toLocaleString("en-US")} tweets`);
        live({ status: IMPORT_STATUS.running, phase: "storing", rowsRead: records, rowsToStore: toStore, rowsStaged: n });
      },
    });
    const errorRows = storedErrors.map((e) => ({ importId, line: e.line, column: e.column, reason: e.reason, raw: e.raw }));
    // The final transaction is short (one copy statement), but keep the lease beyond its timeout all the same.
    await renewLease(db, { jobId: ctx.job.id, owner: ctx.owner, leaseMs: TX_TIMEOUT_MS + 60_000 });
    await db.$transaction(
      async (tx) => {
        // A re-run replaces the last run's tweets and row errors here, in the same transaction (refused if one is now in a HIT or gold).
        if (rerun) await replaceImportTweets(tx as unknown as Db, { importId, fileName: batch.fileName });
        const copied = await publishStagedTweets(tx as unknown as Db, { importId });
        if (copied !== staged || staged !== toStore) throw new Error(`import ${importId}: ${toStore} rows to store, ${staged} staged, ${copied} copied`);
        await insertMany(tx, "ImportError", errorRows);
        if (promote.length) {
          const done = await promoteToGold(tx as unknown as Db, { eventId, rows: promote, actorId: batch.createdById, fileName: batch.fileName });
          promoted = done.changed;
          message = `${message.slice(0, -1)}; promoted to gold: ${promoted}${done.skipped ? ` (${done.skipped} no longer could be)` : ""}.`;
        }
        funnel[funnel.length - 1].ms = Math.round(performance.now() - storeStarted);
        await tx.importBatch.update({
          where: { id: importId },
          data: {
            status: IMPORT_STATUS.completed,
            activeKey: null,
            rowsRead: records,
            rowsStored: toStore + promoted,
            errorCount,
            funnel: funnel as unknown as Prisma.InputJsonValue,
            message,
            finishedAt: new Date(),
          },
        });
      },
      { timeout: TX_TIMEOUT_MS, maxWait: 60_000 },
    );
    // Visible now; the staged copies are left over (read by nothing): deleted in bounded statements.
    await clearStagedTweets(db, { importId });
    await writeAudit(db, {
      actorType: batch.createdById ? "user" : "system",
      actorId: batch.createdById,
      eventId,
      entityType: "import",
      entityId: importId,
      action: rerun ? "rerun" : "import",
      details: { fileName: batch.fileName, kind, rowsRead: records, rowsStored: toStore + promoted, errorCount, ...(rerun ? { previousRowsStored: batch.rowsStored } : {}) },
    });
    live({ status: IMPORT_STATUS.completed, rowsRead: records, rowsStored: toStore + promoted, errorCount, message });
    await releaseUpload(filePath, { retentionDays, completed: true });
    return { importId, status: IMPORT_STATUS.completed, rowsRead: records, rowsStored: toStore + promoted, errorCount };
  } catch (err) {
    const cancelled = err instanceof JobCancelled;
    const final = cancelled || err instanceof UserError || ctx.job.attempts >= ctx.job.maxAttempts;
    // Unexpected errors (a database error, a bug) are logged under a reference; the page shows only that.
    const reference = randomUUID().slice(0, 8);
    if (!cancelled && !(err instanceof UserError)) console.error(`[accord] import ${importId} failed (reference ${reference}):`, err);
    const why = cancelled
      ? "Cancelled: nothing was stored."
      : err instanceof UserError
        ? err.message
        : `The import failed${final ? "" : " and will be retried"}. ${unexpectedErrorMessage(reference)}`;
    // A re-run that ends without storing leaves the last run as it was: still completed, its tweets kept.
    const message = rerun && final ? `The re-run ${cancelled ? "was cancelled" : "failed"}; the tweets of the last run are kept. ${cancelled ? "" : why}`.trim() : why;
    const status = rerun && final ? IMPORT_STATUS.completed : cancelled ? IMPORT_STATUS.cancelled : final ? IMPORT_STATUS.failed : IMPORT_STATUS.queued;
    // No progress write of the worker may land after the final status (a late "running" overwrote a cancel).
    await thread?.stop();
    await pending;
    // Staged rows never become visible now (a retry stages its own): delete them before saying so.
    await clearStagedTweets(db, { importId }).catch((e: unknown) => console.error(`[accord] import ${importId}: staged rows not deleted (the next import deletes them):`, e));
    await db.importBatch
      .update({ where: { id: importId }, data: { status, message, ...(final ? { activeKey: null, ...(rerun ? {} : { finishedAt: new Date() }) } : {}) } })
      .catch(() => undefined);
    live({ status, message });
    if (final && !rerun) await releaseUpload(filePath, { retentionDays, completed: false }).catch(() => undefined);
    throw err;
  } finally {
    await thread?.stop();
  }
}

/** The accepted rows as staged rows, mapped one at a time (and released from `accepted` as they go: memory stays flat). */
function* stagedRows(accepted: IngestRow[], args: { eventId: string; importId: string; kind: ImportKind; now: Date }): Generator<StagedRow> {
  for (let i = 0; i < accepted.length; i++) {
    const row = accepted[i];
    (accepted as Array<IngestRow | undefined>)[i] = undefined;
    yield tweetData(row, args);
  }
}

/** The event's stored tweets, read in pages (no single long query) for the worker's id check and near-duplicates. */
async function* storedTweetChunks(db: Db, { eventId, except }: { eventId: string; except: string | null }): AsyncGenerator<StoredTweet[]> {
  let cursor: string | undefined;
  for (;;) {
    const page = await db.tweet.findMany({
      // A re-run leaves out its own import's tweets: they are the ones it replaces.
      where: except ? { eventId, OR: [{ importId: null }, { importId: { not: except } }] } : { eventId },
      orderBy: { id: "asc" },
      take: STORED_PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      select: { id: true, externalId: true, text: true, role: true, status: true, importId: true, importLine: true },
    });
    if (page.length === 0) return;
    cursor = page[page.length - 1].id;
    yield page.map(({ externalId, text, role, status, importId, importLine }) => ({ externalId, text, role, status, importId, line: importLine }));
    if (page.length < STORED_PAGE) return;
  }
}

/** Waits for the worker's result, checking for a cancel once a second meanwhile (the lease is renewed by the runner). */
async function untilDoneOrCancelled<T>(ctx: JobContext, done: Promise<T>): Promise<T> {
  let finished = false;
  const watch = (async () => {
    while (!finished) {
      await new Promise((resolve) => setTimeout(resolve, CANCEL_CHECK_INTERVAL_MS));
      if (!finished) await ctx.throwIfCancelled();
    }
  })();
  try {
    return await Promise.race([done, watch.then(() => done)]);
  } finally {
    finished = true;
  }
}

function summaryMessage({ stored, errors, storedErrors, note }: { stored: number; errors: number; storedErrors: number; note?: string }): string {
  const count = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
  const parts = [`${count(stored, "tweet")} stored`];
  if (errors > 0) {
    parts.push(`${count(errors, "row")} with errors` + (storedErrors < errors ? ` (the report lists the first ${storedErrors.toLocaleString("en-US")})` : ""));
  }
  if (note) parts.push(`file ${note}`);
  return parts.join("; ") + ".";
}
