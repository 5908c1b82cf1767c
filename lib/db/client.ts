import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "@/generated/sqlite/client";
import { PrismaClient as PgClient } from "@/generated/postgres/client";
import { databaseUrl, type DbFlavor, dbFlavor, sqliteFilePath } from "./url";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/lib/server/private-files";

// Both clients come from identical models (prisma/sqlite vs prisma/postgres), so one type serves.
export type Db = SqliteClient;
export type { Prisma } from "@/generated/sqlite/client";

const flavors = new WeakMap<object, DbFlavor>();

export function createDb(url: string = databaseUrl()): Db {
  const flavor = dbFlavor(url);
  let db: Db;
  if (flavor === "postgres") {
    db = new PgClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
  } else {
    const file = sqliteFilePath(url);
    ensurePrivateDir(path.dirname(file));
    if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
    // The busy timeout makes a writer wait for the lock instead of failing at once.
    db = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 10_000 }) });
  }
  flavors.set(db, flavor);
  return db;
}

/** Which database a client talks to (raw SQL differs between the two). */
export function flavorOf(db: Db): DbFlavor {
  return flavors.get(db) ?? dbFlavor();
}

// Kept on globalThis (one of the two globals Accord keeps): Next.js loads this module once per bundle (instrumentation,
// routes) and again after each dev reload, and all of them must share one client and its connection pool.
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
  if (flavorOf(db) !== "sqlite") return;
  if (db !== globalForDb.__accordDb) return setPragmas(db);
  globalForDb.__accordDbReady ??= setPragmas(db);
  await globalForDb.__accordDbReady;
}

async function setPragmas(db: Db): Promise<void> {
  // WAL lets the dashboard read while the sync loop writes (it persists in the file).
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  // A 64 MB page cache (the default is 2 MB): at HumAID scale the judgment and tweet indexes no longer fit in
  // 2 MB, and every sync pass re-read them from the OS. Checkpoints every ~40 MB of WAL instead of ~4 MB write
  // the hot index pages back once instead of ten times.
  await db.$queryRawUnsafe("PRAGMA cache_size = -65536");
  await db.$queryRawUnsafe("PRAGMA wal_autocheckpoint = 10000");
}
