import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vi } from "vitest";

/** Tests only: a temporary folder to write fixture files into, removed by cleanup(). */
export function tempFiles(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let n = 0;
  return {
    dir,
    /** Writes a file (names are made unique) and returns its path. */
    write(name: string, content: string | Uint8Array): string {
      const p = path.join(dir, `${n++}-${name}`);
      fs.writeFileSync(p, content);
      return p;
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Tests only: captures process.stdout/stderr writes (undo with vi.restoreAllMocks()). */
export function captureOutput() {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  return { out: () => out, err: () => err };
}
