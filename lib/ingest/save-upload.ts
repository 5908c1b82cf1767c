import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/lib/server/private-files";
import { createImport } from "./import-job";
import type { ImportKind } from "./imports.validation";
import { formatBytes } from "./limits";
import { parseIngestSettings } from "./settings";

/** Where uploads wait for their import job: <data dir>/uploads (ACCORD_DATA_DIR, else ./data). */
function uploadDir(): string {
  return path.join(env().ACCORD_DATA_DIR ?? path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data"), "uploads");
}

/** Saves an uploaded file under data/uploads/<random> (within the event's size limit) and starts its import job. */
export async function saveUploadAndImport(db: Db, { eventId, kind, file, userId }: { eventId: string; kind: ImportKind; file: File; userId: string }) {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { slug: true, filters: true } });
  if (!event) throw new UserError("That event does not exist.", "not_found");
  const limit = parseIngestSettings(event.filters).limits.maxFileBytes;
  if (file.size > limit) {
    throw new UserError(`"${file.name}" is ${formatBytes(file.size)}, above this event's ${formatBytes(limit)} limit.`, "file_too_large", { file: [`At most ${formatBytes(limit)}.`] });
  }
  const dir = uploadDir();
  ensurePrivateDir(dir);
  const saved = path.join(dir, `${randomUUID()}.upload`);
  try {
    await pipeline(Readable.fromWeb(file.stream() as unknown as NodeWebReadableStream<Uint8Array>), fs.createWriteStream(saved, { flags: "wx", mode: PRIVATE_FILE_MODE }));
    const result = await createImport({ db, eventId, kind, fileName: path.basename(file.name).slice(0, 200), filePath: saved, userId });
    return { ...result, eventSlug: event.slug };
  } catch (err) {
    // Until the job owns the file, a failure removes it.
    await fs.promises.rm(saved, { force: true }).catch(() => undefined);
    throw err;
  }
}
