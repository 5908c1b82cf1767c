import "server-only";
import { type BulkWriter, insertMany } from "@/lib/db/bulk";
import type { AuditRow } from "./types";

/** Writes the sync loop's decisions to the audit log (actor: system). */
export async function insertAudits(db: BulkWriter, rows: readonly AuditRow[], at = new Date()): Promise<void> {
  if (rows.length) await insertMany(db, "AuditLog", rows.map((r) => ({ ...r, at, actorType: "system" })));
}
