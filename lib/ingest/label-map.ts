import "server-only";
import { parse } from "csv-parse/sync";
import type { Db, Prisma } from "@/lib/db/client";
import { IMPORT_STATUS } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { recordSettingChanges } from "@/lib/events/setting-changes";
import { enqueueJob } from "@/lib/jobs/queue";
import { JOBS } from "@/lib/jobs/job-types";
import { publishLive } from "@/lib/live/bus";
import { type LabelMap, labelMapSchema } from "./label-map.validation";
import { parseIngestSettings } from "./settings";

/**
 * The event's label map (ingest settings labels.map): saved from the upload page's form or `accord import
 * --label-map FILE`, merged into what was saved before (each change recorded as a SettingChange, scope
 * "ingest"), and reused by every later import. An import paused for a mapping (needs_mapping) then runs again
 * from its stored file.
 */

/** A label-map CSV: `from,to` per line (a `from,to` header is optional); an empty `to` drops the rows. */
export function parseLabelMapCsv(text: string): LabelMap {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ""), { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (err) {
    throw new UserError(`The label map is not valid CSV (${err instanceof Error ? err.message : String(err)}).`, "label_map");
  }
  if (records.length > 0 && records[0][0]?.toLowerCase() === "from" && records[0][1]?.toLowerCase() === "to") records.shift();
  const map: Record<string, string | null> = {};
  records.forEach((r, i) => {
    if (r.length > 2 || !r[0]) throw new UserError(`Line ${i + 1} of the label map should be "from,to" (to empty: drop the rows).`, "label_map");
    map[r[0]] = r[1] ? r[1] : null;
  });
  return checkedMap(map);
}

function checkedMap(map: unknown): LabelMap {
  const parsed = labelMapSchema.safeParse(map);
  if (!parsed.success) throw new UserError(`The label map is invalid (${parsed.error.issues[0]?.message ?? "bad value"}).`, "label_map");
  return parsed.data;
}

/** Merges `map` into the event's saved label map; returns how many settings changed. */
export async function saveLabelMap(
  db: Db,
  { eventId, map, actor }: { eventId: string; map: LabelMap; actor: { id: string; email: string } | null },
): Promise<number> {
  const checked = checkedMap(map);
  return db.$transaction(async (tx) => {
    const event = await tx.event.findUnique({ where: { id: eventId }, select: { filters: true } });
    if (!event) throw new UserError("That event does not exist.", "not_found");
    const before = parseIngestSettings(event.filters);
    const raw = (event.filters ?? {}) as Record<string, unknown>;
    const rawLabels = (raw.labels ?? {}) as Record<string, unknown>;
    const filters = { ...raw, labels: { ...rawLabels, map: { ...before.labels.map, ...checked } } };
    const after = parseIngestSettings(filters);
    await tx.event.update({ where: { id: eventId }, data: { filters: filters as Prisma.InputJsonValue } });
    return recordSettingChanges(tx, { eventId, scope: "ingest", before: { labels: { map: before.labels.map } }, after: { labels: { map: after.labels.map } }, actor });
  });
}

/** Runs an import that waits for a mapping again (a new job reading the same stored file). */
export async function resumeMappedImport(db: Db, { importId, userId = null }: { importId: string; userId?: string | null }): Promise<void> {
  const batch = await db.importBatch.findUnique({ where: { id: importId }, select: { id: true, eventId: true, status: true, job: { select: { payload: true } } } });
  if (!batch) throw new UserError("That import does not exist.", "not_found");
  if (batch.status !== IMPORT_STATUS.needs_mapping) throw new UserError(`The import is ${batch.status.replace(/_/g, " ")}, not waiting for a label mapping.`, "not_waiting");
  const payload = JOBS.import.payloadSchema.safeParse(batch.job?.payload);
  if (!payload.success) throw new UserError("The import's file is no longer known; upload it again.", "file_missing");
  await db.$transaction(async (tx) => {
    // Only one resume wins: the status moves from needs_mapping to queued once.
    const moved = await tx.importBatch.updateMany({ where: { id: importId, status: IMPORT_STATUS.needs_mapping }, data: { status: IMPORT_STATUS.queued, message: "Labels mapped; the import is running again." } });
    if (moved.count === 0) throw new UserError("The import is already running again.", "not_waiting");
    const job = await enqueueJob(tx as unknown as Db, JOBS.import, { payload: payload.data, eventId: batch.eventId, createdById: userId, maxAttempts: 2 });
    await tx.importBatch.update({ where: { id: importId }, data: { jobId: job.id } });
  });
  publishLive({ eventId: batch.eventId, kind: "import", data: { importId, status: IMPORT_STATUS.queued } });
}
