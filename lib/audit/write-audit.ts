import "server-only";
import type { Db, Prisma } from "@/lib/db/client";

export type AuditEntry = {
  actorType: "user" | "system";
  actorId?: string | null;
  eventId?: string | null;
  entityType: string;
  entityId?: string | null;
  action: string;
  reason?: string | null;
  details?: Prisma.InputJsonValue;
};

type AuditWriter = Pick<Db, "auditLog">;

/** Records who did what and why. Every decision and every researcher action writes one. */
export async function writeAudit(db: AuditWriter, entry: AuditEntry) {
  return db.auditLog.create({
    data: {
      actorType: entry.actorType,
      actorId: entry.actorId ?? null,
      eventId: entry.eventId ?? null,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      action: entry.action,
      reason: entry.reason ?? null,
      details: entry.details,
    },
  });
}
