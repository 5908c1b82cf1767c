import { createDb, type Db } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import { E2E_DB_URL } from "./env";

/** Direct access to the e2e app's database, for tests that seed their own data. */
let db: Db | null = null;
export function e2eDb(): Db {
  db ??= createDb(E2E_DB_URL);
  return db;
}

export async function seedUser({ email, password, role = "researcher", name = "Test User" }: { email: string; password: string; role?: string; name?: string }) {
  return e2eDb().user.upsert({
    where: { email },
    create: { email, name, role, passwordHash: await hashPassword(password) },
    update: { role, passwordHash: await hashPassword(password), disabled: false },
  });
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.org`;
}
