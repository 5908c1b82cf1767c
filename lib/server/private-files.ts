import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/config/env";

/**
 * Accord's own files (the SQLite database with password hashes, the master secret, uploads waiting for their import)
 * are readable by the server's user only: files 0600, their folder 0700.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Accord's data folder: ACCORD_DATA_DIR, else ./data. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env().ACCORD_DATA_DIR || "data");
}

/**
 * Creates the folder (and missing parents) 0700. An existing folder is narrowed to 0700 only inside Accord's data
 * folder: a database or secret placed elsewhere (/tmp, the project root) never changes that folder's mode.
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const abs = path.resolve(dir);
  const data = dataDir();
  if (abs === data || abs.startsWith(`${data}${path.sep}`)) narrow(abs, PRIVATE_DIR_MODE);
}

/** Narrows an existing file to 0600 (a file created by an older Accord, or by a library that ignores modes). */
export function makeFilePrivate(file: string): void {
  if (fs.existsSync(file)) narrow(file, PRIVATE_FILE_MODE);
}

function narrow(p: string, mode: number): void {
  const st = fs.statSync(p);
  // Only what the server's user owns; a shared folder someone else set up is left as it is.
  if ((st.mode & 0o777) !== mode && (typeof process.getuid !== "function" || st.uid === process.getuid())) fs.chmodSync(p, mode);
}
