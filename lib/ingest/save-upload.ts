import "server-only";
import fs from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { publicMessage, UserError } from "@/lib/errors";
import { type ColumnPreviewBody, previewColumns } from "./column-preview";
import { saveUploadColumns } from "./column-map";
import { checkColumnsInHeader, mapColumnsRequestSchema } from "./columns.validation";
import { createImport } from "./import-job";
import { uploadQuerySchema } from "./imports.validation";
import { formatBytes } from "./limits";
import { parseIngestSettings } from "./settings";
import { saveUpload, UploadTooLarge, uploadDir } from "./uploads";
import { IMPORT_KIND } from "@/lib/db/enums";


export type UploadReply = { status: number; body: { error: string } | { importId: string; jobId: string; message: string } | ColumnPreviewBody; eventSlug?: string };

const tooLarge = (limit: number): UploadReply => ({ status: 413, body: { error: `The file is larger than this event's ${formatBytes(limit)} limit.` } });

/**
 * The upload route's work (the caller has checked the session and role): the event and its size limit are
 * looked up BEFORE a byte of the body is read; a declared Content-Length over the limit is refused at once
 * (413), and the body is streamed to disk with the limit enforced as it arrives (413, nothing kept). Then the
 * import job starts; on any failure after saving, the file is removed.
 */
export async function saveUploadAndImport(db: Db, request: Request, { userId }: { userId: string }): Promise<UploadReply> {
  const query = uploadQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return { status: 400, body: { error: query.error.issues[0]?.message ?? "Invalid upload." } };
  const { eventId, kind, name, columns: check } = query.data;
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, filters: true } });
  if (!event) return { status: 404, body: { error: "That event does not exist." } };
  const limit = parseIngestSettings(event.filters).limits.maxFileBytes;
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) return tooLarge(limit);
  if (!request.body || declared === 0) return { status: 400, body: { error: "Choose a file to upload (it must not be empty)." } };

  const fileName = path.basename(name).slice(0, 200);
  let saved: { filePath: string; size: number };
  try {
    saved = await saveUpload(request.body, { limit });
  } catch (err) {
    if (err instanceof UploadTooLarge) return tooLarge(limit);
    throw err;
  }
  try {
    if (saved.size === 0) throw new UserError(`"${fileName}" is empty.`, "empty_file");
    // Columns Accord does not recognise (nor the event's saved mapping): the preview, not a refusal.
    const settings = parseIngestSettings(event.filters);
    const preview = await previewColumns(saved.filePath, { fileName, limits: settings.limits, saved: settings.columns }).catch((err: unknown) => {
      if (err instanceof UserError) return null; // the import reports it, as for any unreadable file
      throw err;
    });
    if (preview && (preview.missing.length > 0 || check)) {
      const message = preview.missing.length
        ? `Accord does not recognise the ${preview.missing.map((m) => (m === "id" ? "tweet id" : "tweet text")).join(" and ")} column of ${fileName}: choose its columns below (nothing is imported yet).`
        : `Check the columns of ${fileName} below (nothing is imported yet).`;
      return { status: 200, body: { upload: path.basename(saved.filePath), fileName, kind, preview, message }, eventSlug: event.slug };
    }
    const result = await createImport({ db, eventId, kind, fileName, filePath: saved.filePath, userId });
    const note = result.sameFileAs ? ` This file was imported before ("${result.sameFileAs.fileName}"): the import will add nothing new.` : "";
    const message = `Uploaded ${fileName} (${formatBytes(saved.size)}); the import is running.${note}`;
    return { status: 201, body: { importId: result.importId, jobId: result.jobId, message }, eventSlug: event.slug };
  } catch (err) {
    await rm(saved.filePath, { force: true }).catch(() => undefined);
    if (err instanceof UserError) return { status: 400, body: { error: err.message } };
    console.error("[accord] upload failed:", err);
    return { status: 500, body: { error: publicMessage(err) } };
  }
}

/**
 * The column preview's second step (POST /api/imports/columns): the researcher's columns for a file uploaded before.
 * Validated (zod), checked against the file's header (a column it does not have is refused, by name), saved as the
 * event's column mapping, then the import starts on the kept upload as any other.
 */
export async function importWithColumns(db: Db, input: unknown, { userId, actor }: { userId: string; actor: { id: string; email: string } }): Promise<UploadReply> {
  const parsed = mapColumnsRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] === "columns" && issue.path[1] ? `${String(issue.path[1])} column: ` : "";
    return { status: 400, body: { error: `${field}${issue?.message ?? "Invalid columns."}` } };
  }
  const { eventId, kind, upload, fileName, columns } = parsed.data;
  if (kind === IMPORT_KIND.gold && !columns.label) return { status: 400, body: { error: "label column: a gold file needs the column of its expert labels." } };
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, filters: true } });
  if (!event) return { status: 404, body: { error: "That event does not exist." } };
  const filePath = path.join(uploadDir(), upload);
  if (!fs.existsSync(filePath)) return { status: 400, body: { error: "The uploaded file is gone; choose it again." } };
  try {
    const settings = parseIngestSettings(event.filters);
    const preview = await previewColumns(filePath, { fileName, limits: settings.limits });
    if (!preview) throw new UserError(`"${fileName}" has no header row to map.`, "no_header");
    checkColumnsInHeader(columns, preview.header, fileName);
    await saveUploadColumns(db, { eventId, columns, actor });
    const result = await createImport({ db, eventId, kind, fileName, filePath, userId });
    return { status: 201, body: { importId: result.importId, jobId: result.jobId, message: `Importing ${fileName} with the columns you chose (saved for this event's later uploads); progress is shown under Imports.` }, eventSlug: event.slug };
  } catch (err) {
    if (err instanceof UserError) return { status: 400, body: { error: err.message } };
    console.error("[accord] import with columns failed to start:", err);
    return { status: 500, body: { error: publicMessage(err) } };
  }
}
