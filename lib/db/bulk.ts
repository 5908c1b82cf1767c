import "server-only";
import type { Prisma } from "@/generated/sqlite/client";
import type { Db } from "./client";
import { newId } from "./ids";
import type { DbFlavor } from "./url";

/**
 * Typed bulk writes for any Prisma model: rows are the generated client's CreateManyInput objects, columns and
 * their types come from the client's data model (read once per model). Each chunk is ONE statement with ONE
 * parameter, a JSON array of rows expanded by the database (SQLite json_each, PostgreSQL json_to_recordset):
 * Prisma's createMany costs about a millisecond of CPU per row here, this costs about one query per chunk.
 * Values are written as Prisma writes them: dates as ISO 8601 text on SQLite and timestamp(3) in UTC on PostgreSQL,
 * booleans as 0/1 on SQLite, Json as JSON text / jsonb. A missing `id` gets newId() (cuid() is Prisma's default,
 * not the database's); a column no row of a chunk gives is left to the database's default.
 */
export type ModelName = Prisma.ModelName;
type ModelTypes<M extends ModelName> = Prisma.TypeMap["model"][M];
/** One row to insert: the generated client's `<Model>CreateManyInput`. */
export type BulkRow<M extends ModelName> = Exclude<ModelTypes<M>["operations"]["createMany"]["args"]["data"], readonly unknown[]>;
type Scalars<M extends ModelName> = ModelTypes<M>["payload"]["scalars"];
/** One row to update: its id and the columns to set. */
export type BulkUpdate<M extends ModelName> = { id: string } & Partial<Omit<Scalars<M>, "id">>;

/** What bulk writes need of a client or a transaction. */
export type BulkWriter = Pick<Db, "$executeRawUnsafe" | "$queryRawUnsafe">;

type FieldType = "String" | "Int" | "Float" | "Boolean" | "DateTime" | "Json" | "BigInt" | "Bytes";
type Field = { name: string; type: FieldType };
type ModelInfo = { table: string; fields: Field[] };
type RuntimeDataModel = { models: Record<string, { dbName: string | null; fields: Array<{ name: string; kind: string; type: string }> }> };

const PG_TYPES: Record<FieldType, string> = {
  String: "text",
  Int: "integer",
  Float: "double precision",
  Boolean: "boolean",
  DateTime: "timestamp(3)",
  Json: "jsonb",
  BigInt: "bigint",
  Bytes: "bytea",
};

/** Cells per statement: bounds a statement's parameter (and, on SQLite, how long it holds the event loop). */
const CELLS_PER_STATEMENT = 20_000;

const models = new Map<string, ModelInfo>();

/** The client's flavour and data model (Prisma keeps them on every client and transaction; bulk.test.ts checks). */
function clientOf(db: BulkWriter): { flavor: DbFlavor; dataModel: RuntimeDataModel } {
  const c = db as unknown as { _activeProvider?: string; _runtimeDataModel?: RuntimeDataModel };
  if (!c._runtimeDataModel || !c._activeProvider) throw new Error("bulk writes need a Prisma client or transaction (no data model found)");
  return { flavor: c._activeProvider === "postgresql" ? "postgres" : "sqlite", dataModel: c._runtimeDataModel };
}

/** The model's table and scalar columns, derived once from the generated client's data model. */
export function modelInfo(db: BulkWriter, model: ModelName): ModelInfo {
  let info = models.get(model);
  if (!info) {
    const m = clientOf(db).dataModel.models[model];
    if (!m) throw new Error(`unknown model ${model}`);
    const fields = m.fields.filter((f) => f.kind === "scalar" || f.kind === "enum");
    for (const f of fields) if (!(f.type in PG_TYPES)) throw new Error(`bulk writes do not support ${model}.${f.name} (${f.type})`);
    info = { table: m.dbName ?? model, fields: fields.map((f) => ({ name: f.name, type: f.type as FieldType })) };
    models.set(model, info);
  }
  return info;
}

/**
 * How a column's values are written, or null when they go as they are. A date converter remembers its last
 * Date: a batch's rows mostly share one (`now`), and toISOString per cell was measurable at 333,000 judgments.
 */
function converter(type: FieldType, flavor: DbFlavor): ((v: unknown) => unknown) | null {
  if (type === "DateTime") {
    let last: unknown = null;
    let text: string | null = null;
    return (v) => {
      if (v === null || v === undefined) return null;
      if (v !== last) {
        const iso = (v instanceof Date ? v : new Date(v as string)).toISOString();
        text = flavor === "sqlite" ? iso.replace("Z", "+00:00") : iso.slice(0, -1); // timestamp(3) without zone: UTC
        last = v;
      }
      return text;
    };
  }
  if (type === "Boolean" && flavor === "sqlite") return (v) => (v === null || v === undefined ? null : v ? 1 : 0);
  // json_extract turns a nested object into its JSON text, but a plain string or number would lose its quotes.
  if (type === "Json" && flavor === "sqlite") return (v) => (v === null || v === undefined ? null : typeof v === "object" ? v : JSON.stringify(v));
  // Binary values do not travel in a JSON parameter (the only Bytes column, a classifier's model, is written by Prisma).
  if (type === "Bytes") return () => {
    throw new Error("bulk writes do not support Bytes columns");
  };
  if (type === "BigInt") return (v) => (v === null || v === undefined ? null : String(v));
  return null;
}

/** The columns some row of `rows` gives (the id always, when the model has one). */
function presentColumns(fields: Field[], rows: ReadonlyArray<Record<string, unknown>>, withId: boolean): Field[] {
  return fields.filter((f) => (withId && f.name === "id") || rows.some((r) => r[f.name] !== undefined));
}

/** One JSON parameter: arrays on SQLite (json_extract by position), objects on PostgreSQL (json_to_recordset). */
function encode(rows: ReadonlyArray<Record<string, unknown>>, columns: Field[], flavor: DbFlavor, fill: (c: Field, row: Record<string, unknown>) => unknown): string {
  const convert = columns.map((c) => converter(c.type, flavor));
  const out = rows.map((r) => {
    const cells: unknown[] | Record<string, unknown> = flavor === "sqlite" ? new Array<unknown>(columns.length) : {};
    for (let k = 0; k < columns.length; k++) {
      const raw = fill(columns[k], r);
      const f = convert[k];
      const v = f ? f(raw) : (raw ?? null);
      if (Array.isArray(cells)) cells[k] = v;
      else cells[columns[k].name] = v;
    }
    return cells;
  });
  return JSON.stringify(out);
}

const sqlCache = new Map<string, string>();
function cached(key: string, build: () => string): string {
  let sql = sqlCache.get(key);
  if (sql === undefined) sqlCache.set(key, (sql = build()));
  return sql;
}

function insertSql(table: string, columns: Field[], flavor: DbFlavor, ignoreConflicts: boolean): string {
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  // "WHERE true" keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
  const conflict = ignoreConflicts ? (flavor === "sqlite" ? " WHERE true ON CONFLICT DO NOTHING" : " ON CONFLICT DO NOTHING") : "";
  return flavor === "sqlite"
    ? `INSERT INTO "${table}" (${names}) SELECT ${columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)${conflict}`
    : `INSERT INTO "${table}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS x(${columns.map((c) => `"${c.name}" ${PG_TYPES[c.type]}`).join(", ")})${conflict}`;
}

/**
 * Inserts `rows` into `model`'s table, chunk by chunk (an iterable is read one chunk at a time, so a lazily mapped
 * list keeps memory flat); returns the rows inserted. `onConflict: "ignore"` skips rows that would break a unique
 * key (another process stored them first).
 */
export async function insertMany<M extends ModelName>(
  db: BulkWriter,
  model: M,
  rows: Iterable<BulkRow<M>>,
  { onConflict }: { onConflict?: "ignore" } = {},
): Promise<number> {
  const { flavor } = clientOf(db);
  const { table, fields } = modelInfo(db, model);
  const hasId = fields.some((f) => f.name === "id" && f.type === "String");
  const chunkRows = Math.max(1, Math.floor(CELLS_PER_STATEMENT / fields.length));
  const fill = (c: Field, r: Record<string, unknown>) => (c.name === "id" && hasId ? (r.id ?? newId()) : r[c.name]);
  let inserted = 0;
  const send = async (chunk: Array<Record<string, unknown>>) => {
    const columns = presentColumns(fields, chunk, hasId);
    const sql = cached(`i:${flavor}:${table}:${onConflict ?? ""}:${columns.map((c) => c.name).join(",")}`, () => insertSql(table, columns, flavor, onConflict === "ignore"));
    inserted += await db.$executeRawUnsafe(sql, encode(chunk, columns, flavor, fill));
  };
  let chunk: Array<Record<string, unknown>> = [];
  for (const row of rows) {
    chunk.push(row as Record<string, unknown>);
    if (chunk.length >= chunkRows) {
      await send(chunk);
      chunk = [];
    }
  }
  if (chunk.length) await send(chunk);
  return inserted;
}

/** Equalities (or IS NULL) a row must also meet to be updated: a compare-and-set over many rows. */
export type BulkWhere<M extends ModelName> = Partial<{ [K in keyof Omit<Scalars<M>, "id">]: string | number | null }>;

function literal(v: string | number): string {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`bad number ${v}`);
    return String(v);
  }
  return `'${v.replace(/'/g, "''")}'`;
}

/** The statement of updateManyById (exported for its query-plan test). */
export function updateSql(flavor: DbFlavor, table: string, columns: ReadonlyArray<Field>, where: Record<string, string | number | null> = {}): string {
  const conds = Object.entries(where).map(([k, v]) => (v === null ? `T."${k}" IS NULL` : `T."${k}" = ${literal(v)}`));
  const cond = conds.length ? conds.join(" AND ") : "true";
  // On SQLite the condition is wrapped in a unary +: without statistics the planner took e.g. `"status" = 'draft'`
  // (an index) as the outer loop and matched every draft against every JSON row; rows are found by id instead.
  return flavor === "sqlite"
    ? `UPDATE "${table}" AS T SET ${columns.map((c, i) => `"${c.name}" = json_extract(x.value, '$[${i + 1}]')`).join(", ")}
         FROM json_each(?) AS x WHERE T."id" = json_extract(x.value, '$[0]') AND +(${cond}) RETURNING "id" AS id`
    : `UPDATE "${table}" AS T SET ${columns.map((c) => `"${c.name}" = x."${c.name}"`).join(", ")}
         FROM json_to_recordset($1::json) AS x("id" text, ${columns.map((c) => `"${c.name}" ${PG_TYPES[c.type]}`).join(", ")})
        WHERE T."id" = x."id" AND (${cond}) RETURNING T."id" AS id`;
}

/**
 * Updates many rows by id in ONE statement per chunk, each row with its own values (rows that set different
 * columns go in statements of their own); only rows that also match `where` change. Returns the ids updated, so a
 * compare-and-set over many rows tells which it won.
 */
export async function updateManyById<M extends ModelName>(db: BulkWriter, model: M, rows: ReadonlyArray<BulkUpdate<M>>, { where }: { where?: BulkWhere<M> } = {}): Promise<string[]> {
  if (rows.length === 0) return [];
  const { flavor } = clientOf(db);
  const { table, fields } = modelInfo(db, model);
  const groups = new Map<string, { columns: Field[]; rows: Array<Record<string, unknown>> }>();
  for (const row of rows as ReadonlyArray<Record<string, unknown>>) {
    const columns = fields.filter((f) => f.name !== "id" && row[f.name] !== undefined);
    const key = columns.map((c) => c.name).join(",");
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { columns, rows: [] }));
    g.rows.push(row);
  }
  const w = (where ?? {}) as Record<string, string | number | null>;
  const updated: string[] = [];
  for (const [key, { columns, rows: group }] of groups) {
    if (columns.length === 0) throw new Error(`updateManyById(${model}): a row sets no column`);
    const sql = cached(`u:${flavor}:${table}:${JSON.stringify(w)}:${key}`, () => updateSql(flavor, table, columns, w));
    const chunkRows = Math.max(1, Math.floor(CELLS_PER_STATEMENT / (columns.length + 1)));
    for (let i = 0; i < group.length; i += chunkRows) {
      const json = encode(group.slice(i, i + chunkRows), [ID_FIELD, ...columns], flavor, (c, r) => r[c.name]);
      for (const row of await db.$queryRawUnsafe<Array<{ id: string }>>(sql, json)) updated.push(row.id);
    }
  }
  return updated;
}

const ID_FIELD: Field = { name: "id", type: "String" };
