import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * Tests only: points ACCORD_DATA_DIR (where uploads are written, lib/ingest/uploads.ts) at a temporary folder for
 * the test file, restoring the previous value and removing the folder after it. Returns the folder.
 */
export function tempDataDirForTests(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const previous = process.env.ACCORD_DATA_DIR;
  beforeAll(() => {
    process.env.ACCORD_DATA_DIR = dataDir;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.ACCORD_DATA_DIR;
    else process.env.ACCORD_DATA_DIR = previous;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return dataDir;
}
