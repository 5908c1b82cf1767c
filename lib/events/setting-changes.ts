import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { leafChanges } from "@/lib/util/leaf-changes";

/**
 * The history of settings: one SettingChange row per changed leaf (old → new, who, when). Any settings JSON can be
 * recorded under its scope: "procedure" (Event.settings), "ingest" (Event.filters), "crowd" (global), …
 */
export type SettingScope = "procedure" | "ingest" | "crowd" | (string & {});

type ChangeWriter = Pick<Db, "settingChange">;

/** A {num, den} ratio: one leaf when settings are compared. */
export const isRatio = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v) && "num" in v && "den" in v;

/** Records the leaves that differ between `before` and `after`; returns how many. Call inside the write's transaction. */
export async function recordSettingChanges(
  db: ChangeWriter,
  { eventId, scope, before, after, actor, reason, at = new Date() }: { eventId: string | null; scope: SettingScope; before: unknown; after: unknown; actor: { id: string; email: string } | null; reason?: string | null; at?: Date },
): Promise<number> {
  const changes = leafChanges(before, after, { isLeaf: isRatio });
  if (changes.length === 0) return 0;
  await db.settingChange.createMany({
    data: changes.map((c) => ({
      at,
      eventId,
      scope,
      key: c.key,
      oldValue: c.oldValue as Prisma.InputJsonValue,
      newValue: c.newValue as Prisma.InputJsonValue,
      actorId: actor?.id ?? null,
      actorEmail: actor?.email ?? null,
      reason: reason || null,
    })),
  });
  return changes.length;
}

export type SettingChangeRow = { id: string; at: Date; scope: string; key: string; oldValue: unknown; newValue: unknown; by: string; reason: string | null };

/** An event's setting changes, oldest first (every one: the manifest lists them all). */
export async function listSettingChanges(db: Db, { eventId }: { eventId: string }): Promise<SettingChangeRow[]> {
  const rows = await db.settingChange.findMany({
    where: { eventId },
    orderBy: [{ at: "asc" }, { key: "asc" }],
    select: { id: true, at: true, scope: true, key: true, oldValue: true, newValue: true, actorEmail: true, actor: { select: { email: true } }, reason: true },
  });
  return rows.map((r) => ({ id: r.id, at: r.at, scope: r.scope, key: r.key, oldValue: r.oldValue, newValue: r.newValue, by: r.actor?.email ?? r.actorEmail ?? "system", reason: r.reason }));
}
