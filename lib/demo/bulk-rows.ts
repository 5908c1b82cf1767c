import "server-only";
import { randomUUID } from "node:crypto";
import { type Db, flavorOf } from "@/lib/db/client";

/**
 * Fast inserts of generated rows (demo data, test fixtures, the HumAID-scale benchmark database). Prisma's
 * createMany costs about a millisecond per row here; one statement per chunk with ONE parameter — a JSON
 * array of rows that the database expands itself (SQLite json_each, PostgreSQL json_to_recordset) — is two
 * orders of magnitude faster. The same technique as lib/ingest/bulk-insert.ts, for any table: values are
 * written as Prisma writes them (dates as ISO-8601 text on SQLite and timestamp(3) in UTC on PostgreSQL,
 * booleans as 0/1 on SQLite, Json as JSON text / jsonb).
 */
export type ColumnType = "text" | "int" | "float" | "bool" | "date" | "json";

const PG_TYPES: Record<ColumnType, string> = {
  text: "text",
  int: "integer",
  float: "double precision",
  bool: "boolean",
  date: "timestamp(3)",
  json: "jsonb",
};

const CHUNK = 5_000;

function value(v: unknown, type: ColumnType, sqlite: boolean): unknown {
  if (v === undefined || v === null) return null;
  if (type === "date") {
    const iso = (v instanceof Date ? v : new Date(v as string | number)).toISOString();
    return sqlite ? iso.replace("Z", "+00:00") : iso.slice(0, -1);
  }
  if (type === "bool") return sqlite ? (v ? 1 : 0) : Boolean(v);
  return v;
}

/**
 * Inserts rows (objects keyed by column name) into `table`. A missing `id` column value gets a random id;
 * every column listed must exist in the table. Returns the number of rows inserted.
 */
export async function bulkInsert(db: Pick<Db, "$executeRawUnsafe">, table: string, columns: Record<string, ColumnType>, rows: ReadonlyArray<Record<string, unknown>>): Promise<number> {
  if (rows.length === 0) return 0;
  const names = Object.keys(columns);
  for (const n of [table, ...names]) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new Error(`bad identifier ${n}`);
  const sqlite = flavorOf(db as Db) === "sqlite";
  const quoted = names.map((n) => `"${n}"`).join(", ");
  const sql = sqlite
    ? `INSERT INTO "${table}" (${quoted}) SELECT ${names.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`
    : `INSERT INTO "${table}" (${quoted}) SELECT ${quoted} FROM json_to_recordset($1::json) AS x(${names.map((n) => `"${n}" ${PG_TYPES[columns[n]]}`).join(", ")})`;
  let inserted = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK).map((r) => {
      const values = names.map((n) => (n === "id" && (r.id === undefined || r.id === null) ? randomUUID() : value(r[n], columns[n], sqlite)));
      if (sqlite) {
        // json_extract turns a JSON object into its text; a Json column holding a plain string must stay JSON text.
        return values.map((v, k) => (columns[names[k]] === "json" && v !== null && typeof v !== "object" ? JSON.stringify(v) : v));
      }
      return Object.fromEntries(names.map((n, k) => [n, values[k]]));
    });
    inserted += await db.$executeRawUnsafe(sql, JSON.stringify(part));
  }
  return inserted;
}
