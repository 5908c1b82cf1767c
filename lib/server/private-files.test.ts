import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "@/lib/db/migrate";
import { ensurePrivateDir } from "./private-files";

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("private files", () => {
  let root = "";
  const saved = process.env.ACCORD_DATA_DIR;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "accord-private-"));
    process.env.ACCORD_DATA_DIR = path.join(root, "data");
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.ACCORD_DATA_DIR;
    else process.env.ACCORD_DATA_DIR = saved;
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("creates a new SQLite database 0600 in a 0700 folder, and narrows an old world-readable one", async () => {
    const file = path.join(root, "data", "accord.db");
    await migrateDatabase({ url: `file:${file}` });
    expect(mode(path.join(root, "data"))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    fs.chmodSync(file, 0o644);
    fs.chmodSync(path.join(root, "data"), 0o755);
    await migrateDatabase({ url: `file:${file}` });
    expect(mode(file)).toBe(0o600);
    expect(mode(path.join(root, "data"))).toBe(0o700);
  });

  it("makes upload folders 0700 and leaves a folder outside the data folder as it is", () => {
    const uploads = path.join(root, "data", "uploads");
    ensurePrivateDir(uploads);
    expect(mode(uploads)).toBe(0o700);
    const elsewhere = path.join(root, "elsewhere");
    fs.mkdirSync(elsewhere, { mode: 0o755 });
    fs.chmodSync(elsewhere, 0o755);
    ensurePrivateDir(elsewhere);
    expect(mode(elsewhere)).toBe(0o755);
  });
});
