import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/lib/server/private-files";

export const DEMO_ADMIN_EMAIL = "admin@accord.demo";

/**
 * Demo mode: creates an admin with a random password on an empty database, keeps the password in
 * data/.demo-admin (mode 0600) and returns the credentials so start-up can print them. Returns null
 * when the demo admin's password was changed (then it is no longer printed).
 */
export async function ensureDemoAdmin(db: Db): Promise<{ email: string; password: string } | null> {
  const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data/.demo-admin");
  const existing = await db.user.findUnique({ where: { email: DEMO_ADMIN_EMAIL } });
  if (existing) {
    try {
      const password = fs.readFileSync(file, "utf8").trim();
      if (await verifyPassword(existing.passwordHash, password)) return { email: DEMO_ADMIN_EMAIL, password };
    } catch {
      // no saved password
    }
    return null;
  }
  if ((await db.user.count()) > 0) return null; // a real installation: never add a demo account to it
  const password = randomBytes(9).toString("base64url");
  await db.user.create({
    data: { email: DEMO_ADMIN_EMAIL, name: "Demo Admin", role: "admin", passwordHash: await hashPassword(password) },
  });
  ensurePrivateDir(path.dirname(file));
  fs.writeFileSync(file, password, { mode: PRIVATE_FILE_MODE });
  return { email: DEMO_ADMIN_EMAIL, password };
}
