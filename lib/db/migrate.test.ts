import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, SQLITE_PAGE_SIZE } from "./migrate";

describe("migrateDatabase on SQLite", () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-migrate-"));
    dirs.push(dir);
    return path.join(dir, "sub", "accord.db");
  };
  const inspect = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      return { pageSize: db.pragma("page_size", { simple: true }), tables };
    } finally {
      db.close();
    }
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it("creates a new database file with larger pages, then every table", async () => {
    expect(SQLITE_PAGE_SIZE).not.toBe(4096); // SQLite's default: the point is to differ from it
    const file = tempFile();
    await migrateDatabase({ url: `file:${file}` });
    const { pageSize, tables } = inspect(file);
    expect(pageSize).toBe(SQLITE_PAGE_SIZE);
    expect(tables).toEqual(expect.arrayContaining(["_prisma_migrations", "Tweet", "Judgment", "Assignment", "AssignmentAnswer"]));
  });

  it("leaves an existing file's page size as it is (a database made by an earlier Accord), and migrates it", async () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = new Database(file);
    old.pragma("page_size = 4096");
    old.exec("VACUUM"); // an initialised file without tables
    old.close();
    await migrateDatabase({ url: `file:${file}` });
    const { pageSize, tables } = inspect(file);
    expect(pageSize).toBe(4096);
    expect(tables).toEqual(expect.arrayContaining(["_prisma_migrations", "Judgment"]));
  });
});
