import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { createDb, type Db } from "./client";
import { migrateDatabase } from "./migrate";
import type { DbFlavor } from "./url";

/**
 * Fresh, migrated databases for integration tests. The migrations run once per test run into a
 * template (vitest global setup: scripts/test-global-setup.ts); each test database is a copy of it
 * (a file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL).
 */
export type TestDb = { db: Db; url: string; flavor: DbFlavor; cleanup(): Promise<void> };

const TMP = path.resolve(process.cwd(), ".tmp");

export function sqliteTemplatePath(): string {
  return path.join(TMP, "template.db");
}

export function pgTemplateName(): string {
  return process.env.ACCORD_TEST_PG_TEMPLATE || "accord_test_template";
}

/** Flavors the tests run on: SQLite always, PostgreSQL when DATABASE_URL_PG is set. */
export function testFlavors(): DbFlavor[] {
  return process.env.DATABASE_URL_PG ? ["sqlite", "postgres"] : ["sqlite"];
}

function pgUrlFor(database: string): string {
  const base = new URL(process.env.DATABASE_URL_PG as string);
  base.pathname = `/${database}`;
  return base.toString();
}

async function pgAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrlFor("postgres") });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Builds the templates (called once per test run). */
export async function prepareTestTemplates(): Promise<void> {
  fs.mkdirSync(TMP, { recursive: true });
  // Build beside the template and rename: concurrent test runs never see a half-built file.
  const building = path.join(TMP, `template-${process.pid}-${randomUUID().slice(0, 8)}.db`);
  await migrateDatabase({ url: `file:${building}` });
  fs.renameSync(building, sqliteTemplatePath());
  fs.rmSync(`${building}-journal`, { force: true });
  if (process.env.DATABASE_URL_PG) {
    const name = pgTemplateName();
    await pgAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
    await migrateDatabase({ url: pgUrlFor(name) });
  }
}

export async function createTestDb(flavor: DbFlavor = "sqlite"): Promise<TestDb> {
  const id = randomUUID().replace(/-/g, "").slice(0, 12);
  if (flavor === "sqlite") {
    const file = path.join(TMP, `test-${id}.db`);
    fs.copyFileSync(sqliteTemplatePath(), file);
    const url = `file:${file}`;
    const db = createDb(url);
    return {
      db,
      url,
      flavor,
      async cleanup() {
        await db.$disconnect();
        for (const suffix of ["", "-journal", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
      },
    };
  }
  if (!process.env.DATABASE_URL_PG) throw new Error("DATABASE_URL_PG is not set");
  const name = `accord_test_${id}`;
  await pgAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${pgTemplateName()}"`));
  const url = pgUrlFor(name);
  const db = createDb(url);
  return {
    db,
    url,
    flavor,
    async cleanup() {
      await db.$disconnect();
      await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
