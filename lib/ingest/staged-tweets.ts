import "server-only";
import { type BulkRow, insertMany } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { IMPORT_STATUS, JOB_STATE } from "@/lib/db/enums";

/**
 * Storing an import in bounded chunks without anything half-stored (issue 30). The accepted rows go into the
 * StagedTweet table a chunk at a time, each chunk its own short statements (no transaction stays open between
 * chunks, so the sync loop and the web server's writes wait for at most one chunk). Nothing reads StagedTweet but
 * this module: counts, funnels, gold, HIT building, exports and analysis read Tweet, which the staged rows reach only
 * in the import's final transaction, by ONE `INSERT … SELECT` (publishStagedTweets) beside the funnel and the
 * batch's status. A failed or cancelled import deletes its staged rows; one that crashed has them deleted by its
 * retry (clearStagedTweets at the start of the job) or by the next import (sweepStagedTweets).
 *
 * A staging table rather than a "staged" flag on Tweet: every reader of Tweet would need the flag in its WHERE
 * clause, and one forgotten reader shows half an import. Measured (scripts/bench/import-staging.ts, 100,000 tweets,
 * 2 cores at load 16) the final copy holds the write lock about as long as a flag's final UPDATE would (2.1 s vs
 * 2.0 s), against 10.9 s for the old single transaction; each chunk of 2,000 holds it briefly.
 */

/** Rows per chunk: a chunk of this many takes tens of milliseconds to write on SQLite. */
export const STAGE_CHUNK_ROWS = 2_000;
/** Staged rows deleted per statement. */
const CLEAR_CHUNK_ROWS = 5_000;

export type StagedRow = BulkRow<"StagedTweet">;

/**
 * Writes `rows` (read lazily, a chunk at a time) to the staging table; after each chunk, `afterChunk` runs with the
 * count so far (the import checks for a cancel there and reports progress). Returns the rows staged.
 */
export async function stageTweets(
  db: Db,
  rows: Iterable<StagedRow>,
  { chunkRows = STAGE_CHUNK_ROWS, afterChunk }: { chunkRows?: number; afterChunk?: (staged: number) => Promise<void> } = {},
): Promise<number> {
  let staged = 0;
  let chunk: StagedRow[] = [];
  const flush = async () => {
    staged += await insertMany(db, "StagedTweet", chunk);
    chunk = [];
    await afterChunk?.(staged);
  };
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length >= chunkRows) await flush();
  }
  if (chunk.length > 0) await flush();
  return staged;
}

/**
 * Inside the import's final transaction: copies the import's staged rows into Tweet in one statement (same ids,
 * same stored values) and returns how many. A clash with a tweet stored meanwhile fails the statement (the
 * unique event + external id), and with it the transaction.
 */
export async function publishStagedTweets(tx: Db, { importId }: { importId: string }): Promise<number> {
  return tx.$executeRaw`INSERT INTO "Tweet" ("id", "eventId", "externalId", "text", "lang", "tweetedAt", "userLocation", "placeName", "placeCountry", "latitude", "longitude", "role", "goldLabel", "sourceLabel", "predictedLabel", "status", "importId", "importLine", "createdAt")
    SELECT "id", "eventId", "externalId", "text", "lang", "tweetedAt", "userLocation", "placeName", "placeCountry", "latitude", "longitude", "role", "goldLabel", "sourceLabel", "predictedLabel", "status", "importId", "importLine", "createdAt"
    FROM "StagedTweet" WHERE "importId" = ${importId}`;
}

/** Deletes an import's staged rows, a bounded number per statement; returns how many. */
export async function clearStagedTweets(db: Db, { importId }: { importId: string }): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.$executeRaw`DELETE FROM "StagedTweet" WHERE "id" IN (SELECT "id" FROM "StagedTweet" WHERE "importId" = ${importId} LIMIT ${CLEAR_CHUNK_ROWS})`;
    total += n;
    if (n < CLEAR_CHUNK_ROWS) return total;
  }
}

/**
 * Deletes the staged rows of imports that no longer run (a worker crashed after staging, and the import ended
 * or its job did): what a crash left behind. An import still queued or running with a live job keeps its rows
 * (its retry clears them itself). Returns the imports cleared.
 */
export async function sweepStagedTweets(db: Db, { except = null }: { except?: string | null } = {}): Promise<string[]> {
  const groups = await db.stagedTweet.groupBy({ by: ["importId"] });
  const ids = groups.map((g) => g.importId).filter((id) => id !== except);
  if (ids.length === 0) return [];
  const batches = await db.importBatch.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, job: { select: { state: true } } } });
  const active = new Set<string>(
    batches
      .filter((b) => (b.status === IMPORT_STATUS.queued || b.status === IMPORT_STATUS.running) && b.job && b.job.state !== JOB_STATE.succeeded && b.job.state !== JOB_STATE.failed && b.job.state !== JOB_STATE.cancelled)
      .map((b) => b.id),
  );
  const stale = ids.filter((id) => !active.has(id));
  for (const importId of stale) await clearStagedTweets(db, { importId });
  return stale;
}
