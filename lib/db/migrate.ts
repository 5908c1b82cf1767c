import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { databaseUrl, dbFlavor } from "./url";

const run = promisify(execFile);

/**
 * Applies the committed migrations of the database that `url` points to (prisma migrate deploy,
 * through the offline schema engine configured in prisma.config.ts). Creates a missing SQLite file or
 * PostgreSQL database. Throws with Prisma's own message when a migration fails.
 */
export async function migrateDatabase({ url = databaseUrl(), cwd = process.cwd() }: { url?: string; cwd?: string } = {}) {
  dbFlavor(url); // validates the scheme with a clear message
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
