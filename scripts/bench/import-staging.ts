/**
 * How long an import's storing holds SQLite's write lock (issue 30): the longest single transaction, for N tweets,
 *  - one transaction for all rows (the old way: bulk inserts into Tweet, then commit);
 *  - staged chunks, then one final INSERT … SELECT (lib/ingest/staged-tweets.ts, the current way);
 *  - a flag column the alternative would need: rows inserted in chunks as not visible, then one UPDATE making them
 *    visible (measured on Tweet.status, an indexed column as such a flag would be).
 * A fresh SQLite database in a temporary folder, WAL as Accord runs it.
 *
 *   npx tsx scripts/bench/import-staging.ts [--rows 100000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { IMPORT_KIND, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

const { values: args } = parseArgs({ options: { rows: { type: "string", default: "100000" } } });
const N = Number(args.rows);
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "accord-staging-"));
process.env.DATABASE_URL = `file:${path.join(DIR, "accord.db")}`;

async function main() {
  const { createDb, prepareDb } = await import("@/lib/db/client");
  const { migrateDatabase } = await import("@/lib/db/migrate");
  const { ensureHumaidScheme } = await import("@/lib/labels/schemes");
  const { insertMany } = await import("@/lib/db/bulk");
  const { newId } = await import("@/lib/db/ids");
  const { stageTweets, publishStagedTweets, clearStagedTweets } = await import("@/lib/ingest/staged-tweets");
  await migrateDatabase({ url: process.env.DATABASE_URL as string });
  const db = createDb(process.env.DATABASE_URL);
  await prepareDb(db);
  const schemeId = await ensureHumaidScheme(db);
  const now = new Date();
  const rows = (eventId: string, importId: string, status: string = TWEET_STATUS.pending) =>
    Array.from({ length: N }, (_, i) => ({
      id: newId(),
      eventId,
      importId,
      importLine: i + 2,
      externalId: String(100000000000000000n + BigInt(i)),
      text: `flood update ${i}: water is rising near the bridge on main street, stay away from the river`,
      lang: "en",
      role: TWEET_ROLE.unknown,
      status,
      createdAt: now,
    }));
  const setup = async (slug: string) => {
    const event = await db.event.create({ data: { slug, name: slug, type: "flood", schemeId, settings: {}, filters: {}, locations: [] } });
    const batch = await db.importBatch.create({ data: { eventId: event.id, kind: IMPORT_KIND.tweets, fileName: `${slug}.tsv`, fileHash: slug, fileSize: 1 } });
    return { eventId: event.id, importId: batch.id };
  };
  const timed = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };

  const one = await setup("one-transaction");
  const single = await timed(() => db.$transaction((tx) => insertMany(tx, "Tweet", rows(one.eventId, one.importId)), { timeout: 600_000 }));

  const staged = await setup("staged");
  let longestChunk = 0;
  let last = performance.now();
  const stagingTotal = await timed(() =>
    stageTweets(db, rows(staged.eventId, staged.importId), {
      afterChunk: async () => {
        const t = performance.now();
        longestChunk = Math.max(longestChunk, t - last);
        last = t;
      },
    }),
  );
  const final = await timed(() => db.$transaction((tx) => publishStagedTweets(tx as typeof db, { importId: staged.importId }), { timeout: 600_000 }));
  const cleared = await timed(() => clearStagedTweets(db, { importId: staged.importId }));

  const flagged = await setup("flag");
  await insertMany(db, "Tweet", rows(flagged.eventId, flagged.importId, "staging"));
  const flagFinal = await timed(() => db.$transaction((tx) => tx.tweet.updateMany({ where: { importId: flagged.importId }, data: { status: TWEET_STATUS.pending } }), { timeout: 600_000 }));

  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`${N.toLocaleString("en-US")} tweets, longest write transaction:`);
  console.log(`  one transaction (old):            ${ms(single)}`);
  console.log(`  staged (new): chunks of 2,000 at most ${ms(longestChunk)} each (${ms(stagingTotal)} in all), final INSERT … SELECT ${ms(final)}; staged rows deleted afterwards in ${ms(cleared)} (5,000 per statement)`);
  console.log(`  flag column (alternative): final UPDATE ${ms(flagFinal)}`);
  console.log(`(${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")})`);
  await db.$disconnect();
  fs.rmSync(DIR, { recursive: true, force: true });
}

await main();
