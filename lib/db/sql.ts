import "server-only";
import { Prisma } from "@/generated/sqlite/client";
import { type Db, flavorOf } from "@/lib/db/client";

/**
 * Small helpers for the dashboard's aggregate queries. Both databases accept the same SQL for plain
 * GROUP BY / COUNT / SUM with double-quoted identifiers; where they differ (time arithmetic) the helpers
 * below pick the right expression. COUNT/SUM come back as bigint on PostgreSQL and sometimes on SQLite.
 */
export function num(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  if (value && typeof value === "object" && "toNumber" in value && typeof (value as { toNumber: unknown }).toNumber === "function") {
    return (value as { toNumber(): number }).toNumber();
  }
  return 0;
}

/** A `"table"."column"` (or `"column"`) identifier as raw SQL; names are code constants, never user input. */
export function ident(...parts: string[]): Prisma.Sql {
  for (const p of parts) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) throw new Error(`bad identifier ${p}`);
  return Prisma.raw(parts.map((p) => `"${p}"`).join("."));
}

/** SQL for the epoch second of a DateTime column (SQLite stores ISO-8601 text; PostgreSQL a timestamp). */
export function epochSeconds(db: Db, column: Prisma.Sql): Prisma.Sql {
  return flavorOf(db) === "postgres"
    ? Prisma.sql`CAST(FLOOR(EXTRACT(EPOCH FROM ${column})) AS BIGINT)`
    : Prisma.sql`unixepoch(${column})`;
}

/** SQL bucket number (floor(epochSeconds / bucketSeconds)) of a DateTime column. */
export function timeBucket(db: Db, column: Prisma.Sql, bucketSeconds: number): Prisma.Sql {
  const size = Math.max(1, Math.floor(bucketSeconds));
  return flavorOf(db) === "postgres"
    ? Prisma.sql`CAST(FLOOR(EXTRACT(EPOCH FROM ${column}) / ${Prisma.raw(String(size))}) AS BIGINT)`
    : Prisma.sql`(unixepoch(${column}) / ${Prisma.raw(String(size))})`;
}

/** A boolean literal both databases accept. */
export function sqlBool(value: boolean): Prisma.Sql {
  return Prisma.raw(value ? "TRUE" : "FALSE");
}

const NICE_BUCKETS = [10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/** The smallest "nice" bucket size (seconds) that covers [from, to] in at most `maxBuckets` buckets. */
export function chooseBucketSeconds(fromMs: number, toMs: number, maxBuckets = 120): number {
  const span = Math.max(1, (toMs - fromMs) / 1000);
  for (const b of NICE_BUCKETS) if (span / b <= maxBuckets) return b;
  return Math.ceil(span / maxBuckets / 86400) * 86400;
}
