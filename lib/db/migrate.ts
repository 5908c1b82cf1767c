import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir, makeFilePrivate, PRIVATE_FILE_MODE } from "@/lib/server/private-files";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { databaseUrl, dbFlavor, sqliteFilePath } from "./url";

const run = promisify(execFile);

/**
 * Applies the committed migrations of the database that `url` points to (prisma migrate deploy,
 * through the offline schema engine configured in prisma.config.ts). Creates a missing SQLite file or
 * PostgreSQL database. Throws with Prisma's own message when a migration fails.
 */
export async function migrateDatabase({ url = databaseUrl(), cwd = process.cwd() }: { url?: string; cwd?: string } = {}) {
  if (dbFlavor(url) === "sqlite") createSqliteFile(sqliteFilePath(url)); // also validates the scheme with a clear message
  const prismaCli = path.join(cwd, "node_modules", "prisma", "build", "index.js");
  try {
    const { stdout } = await run(process.execPath, [prismaCli, "migrate", "deploy"], {
      cwd,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      maxBuffer: 16 * 1024 * 1024,
    });
    const applied = /(\d+) migrations? found/.exec(stdout)?.[1];
    return { output: stdout, migrationsFound: applied ? Number(applied) : undefined };
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`database migration failed: ${(e.stderr || e.stdout || e.message).trim()}`);
  }
}

/**
 * SQLite's page size for new database files (default 4096): the sync loop's writes land all over the judgment and
 * tweet indexes, and larger pages mean fewer WAL frames per commit (README, benchmark table). Fixed at creation.
 */
export const SQLITE_PAGE_SIZE = 8192;

/** Creates a missing (or empty) SQLite file with SQLITE_PAGE_SIZE pages, before the migrations create tables. */
function createSqliteFile(file: string): void {
  ensurePrivateDir(path.dirname(file));
  if (fs.existsSync(file) && fs.statSync(file).size > 0) {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) makeFilePrivate(f);
    return;
  }
  // Created 0600 before SQLite opens it; its -wal and -shm files take the database file's mode.
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  makeFilePrivate(file);
  const db = new Database(file);
  try {
    db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
    db.exec("VACUUM"); // writes the header: the page size is now the file's
  } finally {
    db.close();
  }
}
