import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, vi } from "vitest";

/**
 * Tests only: points ACCORD_DATA_DIR (where uploads are written, lib/ingest/uploads.ts) at a temporary folder for
 * the test file (vi.stubEnv, undone after it) and removes the folder after it. Returns the folder.
 */
export function tempDataDirForTests(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  beforeAll(() => {
    vi.stubEnv("ACCORD_DATA_DIR", dataDir);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return dataDir;
}
