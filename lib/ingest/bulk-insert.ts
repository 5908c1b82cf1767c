import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { DbFlavor } from "@/lib/db/url";

/**
 * Bulk inserts for imports. Prisma's createMany goes through its query layer row by row and, on
 * SQLite, runs many small statements (about 2 ms a row on this machine: 100,000 tweets would take
 * minutes); a multi-row INSERT … VALUES pays Prisma's cost per bound parameter. Here each chunk is ONE
 * statement with ONE parameter, a JSON array of rows, expanded by the database itself (SQLite
 * json_each, PostgreSQL json_to_recordset): the fastest path through Prisma measured here. Ids are
 * generated here (the schema's cuid() default is applied by Prisma, not by the database); dates are
 * written as Prisma writes them (ISO 8601 text on SQLite, timestamp(3) in UTC on PostgreSQL).
 */
type Executor = Pick<Db, "$executeRawUnsafe">;

export type TweetInsert = {
  eventId: string;
  importId: string;
  externalId: string;
  text: string;
  lang: string | null;
  tweetedAt: Date | null;
  userLocation: string | null;
  placeName: string | null;
  placeCountry: string | null;
  latitude: number | null;
  longitude: number | null;
  role: "unknown" | "gold";
  goldLabel: string | null;
  sourceLabel: string | null;
  predictedLabel: string | null;
};

export type ImportErrorInsert = { importId: string; line: number; column: string | null; reason: string; raw: string | null };

type Column = { name: string; pg: string };

const TWEET_COLUMNS: Column[] = [
  { name: "id", pg: "text" },
  { name: "eventId", pg: "text" },
  { name: "externalId", pg: "text" },
  { name: "text", pg: "text" },
  { name: "lang", pg: "text" },
  { name: "tweetedAt", pg: "timestamp(3)" },
  { name: "userLocation", pg: "text" },
  { name: "placeName", pg: "text" },
  { name: "placeCountry", pg: "text" },
  { name: "latitude", pg: "double precision" },
  { name: "longitude", pg: "double precision" },
  { name: "role", pg: "text" },
  { name: "goldLabel", pg: "text" },
  { name: "sourceLabel", pg: "text" },
  { name: "predictedLabel", pg: "text" },
  { name: "status", pg: "text" },
  { name: "importId", pg: "text" },
  { name: "createdAt", pg: "timestamp(3)" },
];

const ERROR_COLUMNS: Column[] = [
  { name: "id", pg: "text" },
  { name: "importId", pg: "text" },
  { name: "line", pg: "integer" },
  { name: "column", pg: "text" },
  { name: "reason", pg: "text" },
  { name: "raw", pg: "text" },
];

// Rows per statement: on SQLite each statement runs synchronously, so a chunk is also how long the server's event
// loop waits for it (1,000 rows of tweets: tens of milliseconds).
const CHUNK = 1_000;

const fingerprint = parseInt(randomBytes(4).toString("hex"), 16).toString(36).padStart(4, "0").slice(-4);
let counter = Math.floor(Math.random() * 1_679_616);

/** Random bytes drawn 4 KB at a time: one randomBytes() call per id cost ~1 µs of syscall each in bulk inserts. */
let pool = Buffer.alloc(0);
let poolAt = 0;
function random32(): number {
  if (poolAt + 4 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const v = pool.readUInt32BE(poolAt);
  poolAt += 4;
  return v;
}

/** A collision-resistant id in the style of cuid (c + time + counter + host fingerprint + random). */
export function newId(): string {
  counter = (counter + 1) % 1_679_616;
  const random = random32().toString(36).padStart(6, "0").slice(-6);
  return `c${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}${fingerprint}${random}`;
}

function dateValue(d: Date | null, flavor: DbFlavor): string | null {
  if (!d) return null;
  const iso = d.toISOString();
  return flavor === "sqlite" ? iso.replace("Z", "+00:00") : iso.slice(0, -1); // timestamp(3) without zone: UTC
}

function insertSql(table: string, columns: Column[], flavor: DbFlavor): string {
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  if (flavor === "sqlite") {
    const values = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
    return `INSERT INTO "${table}" (${names}) SELECT ${values} FROM json_each(?)`;
  }
  const types = columns.map((c) => `"${c.name}" ${c.pg}`).join(", ");
  return `INSERT INTO "${table}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS x(${types})`;
}

/** Inserts `rows` chunk by chunk, turning each row into its column values only when its chunk is sent (memory stays flat). */
async function insertChunks<T>(tx: Executor, flavor: DbFlavor, table: string, columns: Column[], rows: readonly T[], values: (row: T) => unknown[]): Promise<number> {
  const sql = insertSql(table, columns, flavor);
  let inserted = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK).map(values);
    const json =
      flavor === "sqlite" ? JSON.stringify(part) : JSON.stringify(part.map((r) => Object.fromEntries(columns.map((c, k) => [c.name, r[k]]))));
    inserted += await tx.$executeRawUnsafe(sql, json);
  }
  return inserted;
}

export async function insertTweets(
  tx: Executor,
  flavor: DbFlavor,
  rows: readonly TweetInsert[],
  { now = new Date() }: { now?: Date } = {},
): Promise<number> {
  const createdAt = dateValue(now, flavor);
  return insertChunks(tx, flavor, "Tweet", TWEET_COLUMNS, rows, (r) => [
    newId(),
    r.eventId,
    r.externalId,
    r.text,
    r.lang,
    dateValue(r.tweetedAt, flavor),
    r.userLocation,
    r.placeName,
    r.placeCountry,
    r.latitude,
    r.longitude,
    r.role,
    r.goldLabel,
    r.sourceLabel,
    r.predictedLabel,
    "pending",
    r.importId,
    createdAt,
  ]);
}

export async function insertImportErrors(tx: Executor, flavor: DbFlavor, rows: readonly ImportErrorInsert[]): Promise<number> {
  return insertChunks(tx, flavor, "ImportError", ERROR_COLUMNS, rows, (r) => [newId(), r.importId, r.line, r.column, r.reason, r.raw]);
}
