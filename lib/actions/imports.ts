"use server";

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActionUser } from "@/lib/auth/current-user";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { createImport, importKindSchema } from "@/lib/ingest/import-job";
import { cancelImport } from "@/lib/ingest/import-queries";
import { formatBytes } from "@/lib/ingest/limits";
import { parseIngestSettings } from "@/lib/ingest/settings";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/lib/server/private-files";
import { type ActionState, errorState, parseForm } from "./action-state";

/** Where uploads wait for their import job: <data dir>/uploads (ACCORD_DATA_DIR, else ./data). */
function uploadDir(): string {
  return path.join(env().ACCORD_DATA_DIR ?? path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data"), "uploads");
}

const uploadSchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: importKindSchema,
  file: z.instanceof(File, { message: "Choose a file to upload." }).refine((f) => f.size > 0 && f.name !== "", "Choose a file to upload (it must not be empty)."),
});

/** Upload: saves the file under data/uploads/<random> (within the event's size limit) and starts the import job. */
export async function uploadImportAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  let saved: string | null = null;
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(uploadSchema, formData);
    if (!parsed.ok) return { ...parsed.state, values: { kind: String(formData.get("kind") ?? "tweets") } };
    const { eventId, kind, file } = parsed.data;
    const db = getDb();
    const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, filters: true } });
    if (!event) throw new UserError("That event does not exist.");
    const limit = parseIngestSettings(event.filters).limits.maxFileBytes;
    if (file.size > limit) {
      throw new UserError(`"${file.name}" is ${formatBytes(file.size)}, above this event's ${formatBytes(limit)} limit.`, "file_too_large", { file: [`At most ${formatBytes(limit)}.`] });
    }
    const dir = uploadDir();
    ensurePrivateDir(dir);
    saved = path.join(dir, `${randomUUID()}.upload`);
    await pipeline(Readable.fromWeb(file.stream() as unknown as NodeWebReadableStream<Uint8Array>), fs.createWriteStream(saved, { flags: "wx", mode: PRIVATE_FILE_MODE }));
    const result = await createImport({ db, eventId, kind, fileName: path.basename(file.name).slice(0, 200), filePath: saved, userId: user.id });
    saved = null; // the job owns the file now
    revalidatePath(`/events/${event.slug}/data`);
    const note = result.sameFileAs ? ` This file was imported before ("${result.sameFileAs.fileName}"): the import will add nothing new.` : "";
    return { ok: true, message: `Uploaded ${file.name} (${formatBytes(file.size)}); the import is running.${note}`, data: { importId: result.importId, jobId: result.jobId } };
  } catch (err) {
    if (saved) await fs.promises.rm(saved, { force: true }).catch(() => undefined);
    return errorState(err);
  }
}

const cancelSchema = z.object({ importId: z.string().min(1).max(60) });

export async function cancelImportAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    await requireActionUser("edit");
    const parsed = parseForm(cancelSchema, formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    await cancelImport(db, { importId: parsed.data.importId });
    const batch = await db.importBatch.findUnique({ where: { id: parsed.data.importId }, select: { event: { select: { slug: true } } } });
    if (batch) revalidatePath(`/events/${batch.event.slug}/data`);
    return { ok: true, message: "Cancelling: the import stops at its next check and stores nothing." };
  } catch (err) {
    return errorState(err, formData);
  }
}
