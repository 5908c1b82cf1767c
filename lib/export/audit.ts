import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { csvLine, csvRows } from "./csv";

/** The audit log as CSV (who did what, to what, and why), oldest first; one event's or all of it. */
export const AUDIT_HEADER = ["at", "actor_type", "actor", "event", "entity_type", "entity_id", "action", "reason", "details"] as const;

const PAGE = 5_000;

export async function* auditCsv(db: Db, { eventId, header = true }: { eventId?: string | null; header?: boolean } = {}): AsyncGenerator<string> {
  if (header) yield csvLine([...AUDIT_HEADER]);
  const where: Prisma.AuditLogWhereInput = eventId ? { eventId } : {};
  let cursor: { at: Date; id: string } | null = null;
  for (;;) {
    const page: Array<{ id: string; at: Date; actorType: string; entityType: string; entityId: string | null; action: string; reason: string | null; details: Prisma.JsonValue; actor: { email: string } | null; event: { slug: string } | null }> =
      await db.auditLog.findMany({
        where: cursor ? { AND: [where, { OR: [{ at: { gt: cursor.at } }, { at: cursor.at, id: { gt: cursor.id } }] }] } : where,
        orderBy: [{ at: "asc" }, { id: "asc" }],
        take: PAGE,
        select: {
          id: true,
          at: true,
          actorType: true,
          entityType: true,
          entityId: true,
          action: true,
          reason: true,
          details: true,
          actor: { select: { email: true } },
          event: { select: { slug: true } },
        },
      });
    if (page.length === 0) return;
    const last = page[page.length - 1];
    cursor = { at: last.at, id: last.id };
    yield csvRows(
      page.map((a) => [
        a.at.toISOString(),
        a.actorType,
        a.actor?.email ?? (a.actorType === "system" ? "accord" : ""),
        a.event?.slug ?? "",
        a.entityType,
        a.entityId,
        a.action,
        a.reason,
        a.details === null || a.details === undefined ? "" : JSON.stringify(a.details),
      ]),
    );
    if (page.length < PAGE) return;
  }
}
