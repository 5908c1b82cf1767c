import "server-only";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { publicMessage, UserError } from "@/lib/errors";
import { createImport } from "./import-job";
import { uploadQuerySchema } from "./imports.validation";
import { formatBytes } from "./limits";
import { parseIngestSettings } from "./settings";
import { saveUpload, UploadTooLarge } from "./uploads";

export type UploadReply = { status: number; body: { error: string } | { importId: string; jobId: string; message: string }; eventSlug?: string };

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
  const { eventId, kind, name } = query.data;
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
