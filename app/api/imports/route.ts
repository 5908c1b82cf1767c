import { rm } from "node:fs/promises";
import path from "node:path";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { publicMessage, UserError } from "@/lib/errors";
import { createImport, importKindSchema } from "@/lib/ingest/import-job";
import { formatBytes } from "@/lib/ingest/limits";
import { parseIngestSettings } from "@/lib/ingest/settings";
import { saveUpload, UploadTooLarge } from "@/lib/ingest/uploads";

/**
 * Upload of a tweet file: POST /api/imports?eventId=…&kind=tweets|gold&name=<file name>, the file as the raw
 * body. The session and role are checked, and the event and its size limit looked up, BEFORE a byte of the
 * body is read; a declared Content-Length over the limit is refused at once (413), and the body is streamed
 * to disk with the limit enforced as it arrives (413, nothing kept). Then the import job starts.
 */
const querySchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: importKindSchema,
  name: z.string().trim().min(1, "The file needs a name.").max(500),
});

const tooLarge = (limit: number) => Response.json({ error: `The file is larger than this event's ${formatBytes(limit)} limit.` }, { status: 413 });

export async function POST(request: Request) {
  const user = await requireRouteUser("edit");
  if (user instanceof Response) return user;
  const url = new URL(request.url);
  const query = querySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return Response.json({ error: query.error.issues[0]?.message ?? "Invalid upload." }, { status: 400 });
  const { eventId, kind, name } = query.data;
  const db = getDb();
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, filters: true } });
  if (!event) return Response.json({ error: "That event does not exist." }, { status: 404 });
  const limit = parseIngestSettings(event.filters).limits.maxFileBytes;
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) return tooLarge(limit);
  if (!request.body || declared === 0) return Response.json({ error: "Choose a file to upload (it must not be empty)." }, { status: 400 });

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
    const result = await createImport({ db, eventId, kind, fileName, filePath: saved.filePath, userId: user.id });
    revalidatePath(`/events/${event.slug}/data`);
    const note = result.sameFileAs ? ` This file was imported before ("${result.sameFileAs.fileName}"): the import will add nothing new.` : "";
    return Response.json(
      { importId: result.importId, jobId: result.jobId, message: `Uploaded ${fileName} (${formatBytes(saved.size)}); the import is running.${note}` },
      { status: 201 },
    );
  } catch (err) {
    await rm(saved.filePath, { force: true }).catch(() => undefined);
    if (err instanceof UserError) return Response.json({ error: err.message }, { status: 400 });
    console.error("[accord] upload failed:", err);
    return Response.json({ error: publicMessage(err) }, { status: 500 });
  }
}
