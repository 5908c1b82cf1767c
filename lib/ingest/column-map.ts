import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { recordSettingChanges } from "@/lib/events/setting-changes";
import type { UploadColumns } from "./columns";
import { uploadColumnsSchema } from "./columns.validation";
import { parseIngestSettings } from "./settings";

/**
 * Saves the event's column mapping (ingest settings `columns`, see columns.ts) from the upload page's column preview
 * or `accord import --columns`, recorded as a SettingChange (scope "ingest") like the label map; every later upload
 * with those columns and every re-run uses it. Returns how many settings changed.
 */
export async function saveUploadColumns(db: Db, { eventId, columns, actor }: { eventId: string; columns: UploadColumns; actor: { id: string; email: string } | null }): Promise<number> {
  const parsed = uploadColumnsSchema.safeParse(columns);
  if (!parsed.success) throw new UserError(`The column mapping is invalid (${parsed.error.issues[0]?.message ?? "bad value"}).`, "columns");
  return db.$transaction(async (tx) => {
    const event = await tx.event.findUnique({ where: { id: eventId }, select: { filters: true } });
    if (!event) throw new UserError("That event does not exist.", "not_found");
    const before = parseIngestSettings(event.filters);
    const raw = (event.filters ?? {}) as Record<string, unknown>;
    const filters = { ...raw, columns: parsed.data };
    const after = parseIngestSettings(filters);
    await tx.event.update({ where: { id: eventId }, data: { filters: filters as Prisma.InputJsonValue } });
    return recordSettingChanges(tx, { eventId, scope: "ingest", before: { columns: before.columns }, after: { columns: after.columns }, actor });
  });
}
