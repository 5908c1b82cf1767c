import "server-only";
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/config/env";
import { ensurePrivateDir } from "@/lib/server/private-files";

/**
 * The server's master secret: ACCORD_SECRET (at least 32 characters) or, when unset, a random one
 * generated once and kept in data/.accord-secret (mode 0600). Several processes sharing one
 * PostgreSQL database must share ACCORD_SECRET. Sub-keys (session cookies, encrypted settings) are
 * derived from it with HKDF, so one secret never serves two purposes.
 */
let cached: Buffer | null = null;

function masterSecret(): Buffer {
  if (cached) return cached;
  const { ACCORD_SECRET: fromEnv, ACCORD_SECRET_FILE } = env();
  if (fromEnv) {
    cached = createHash("sha256").update(fromEnv).digest();
    return cached;
  }
  const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), ACCORD_SECRET_FILE);
  try {
    cached = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
    if (cached.length >= 32) return cached;
  } catch {
    // not there yet
  }
  ensurePrivateDir(path.dirname(file));
  const fresh = randomBytes(32);
  try {
    fs.writeFileSync(file, fresh.toString("hex"), { mode: 0o600, flag: "wx" });
    cached = fresh;
  } catch {
    // Another process wrote it first: use theirs.
    cached = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
  }
  return cached;
}

export function deriveKey(purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", masterSecret(), Buffer.alloc(0), `accord:${purpose}`, length));
}
