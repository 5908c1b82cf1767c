import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "@/generated/sqlite/client";
import { PrismaClient as PgClient } from "@/generated/postgres/client";
import { databaseUrl, dbFlavor, sqliteFilePath } from "./url";

// Both clients come from identical models (prisma/sqlite vs prisma/postgres), so one type serves.
export type Db = SqliteClient;
export type { Prisma } from "@/generated/sqlite/client";

export function createDb(url: string = databaseUrl()): Db {
  if (dbFlavor(url) === "postgres") {
    return new PgClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
  }
  const file = sqliteFilePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // WAL lets the dashboard read while the sync loop writes; busy timeout waits instead of failing.
  return new SqliteClient({
    adapter: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000 }),
  });
}

const globalForDb = globalThis as unknown as { __accordDb?: Db; __accordDbReady?: Promise<void> };

/** The process-wide client (one instance, shared by server components, actions, jobs and the CLI). */
export function getDb(): Db {
  if (!globalForDb.__accordDb) {
    globalForDb.__accordDb = createDb();
  }
  return globalForDb.__accordDb;
}

/** SQLite pragmas that the adapter does not set; call once per process before heavy work. */
export async function prepareDb(db: Db = getDb()): Promise<void> {
  if (dbFlavor() !== "sqlite") return;
  if (!globalForDb.__accordDbReady) {
    globalForDb.__accordDbReady = (async () => {
      await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
      await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
      await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
    })();
  }
  await globalForDb.__accordDbReady;
}
