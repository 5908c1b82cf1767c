import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { insertMany } from "@/lib/db/bulk";
import type { ProlificProviderStore, ProlificScope } from "@/lib/crowd/prolific/provider-store";

/**
 * The Prolific provider's records (lib/crowd/prolific/provider-store.ts) in Accord's database: rows of the
 * LocalCrowdRecord table under the `prolific-*` scopes, so no table of its own is needed. `insert` relies on the
 * (scope, key) primary key: of two processes recording the same intent, one row wins and both read it back.
 */
export function dbProlificStore(db: Db): ProlificProviderStore {
  const fromJson = (data: unknown) => (typeof data === "string" ? JSON.parse(data) : data) as Record<string, unknown>;
  const toJson = (data: Record<string, unknown>) => JSON.parse(JSON.stringify(data)) as Prisma.InputJsonObject;
  return {
    async get(scope: ProlificScope, key: string) {
      const row = await db.localCrowdRecord.findUnique({ where: { scope_key: { scope, key } }, select: { data: true } });
      return row ? fromJson(row.data) : null;
    },
    async list(scope: ProlificScope, prefix: string) {
      const rows = await db.localCrowdRecord.findMany({ where: { scope, key: { startsWith: prefix } }, select: { key: true, data: true }, orderBy: { key: "asc" } });
      return rows.map((r) => ({ key: r.key, data: fromJson(r.data) }));
    },
    async insert(scope: ProlificScope, key: string, data: Record<string, unknown>) {
      return (await insertMany(db, "LocalCrowdRecord", [{ scope, key, data: toJson(data), createdAt: new Date() }], { onConflict: "ignore" })) === 1;
    },
    async put(scope: ProlificScope, key: string, data: Record<string, unknown>) {
      await db.localCrowdRecord.upsert({ where: { scope_key: { scope, key } }, create: { scope, key, data: toJson(data) }, update: { data: toJson(data) } });
    },
  };
}
