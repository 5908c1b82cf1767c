import "server-only";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { publicMessage, UserError } from "@/lib/errors";
import { schemeLabelValues } from "@/lib/labels/schemes";
import { saveLabelMap } from "../label-map";
import { labelMapSchema } from "../label-map.validation";
import { formatBytes } from "../limits";
import { parseIngestSettings } from "../settings";
import { saveUpload, UploadTooLarge, uploadDir } from "../uploads";
import { createJudgmentImport } from "./judgment-import-job";
import { judgmentMappingSchema } from "./mapping";
import { type JudgmentPreview, personalColumnsNote, PREVIEW_BYTES, previewJudgments } from "./preview";
import { CsvError } from "./read-judgments";

/** The first `max` bytes of a file, and whether they are all of it. */
async function readHead(filePath: string, max: number): Promise<{ bytes: Buffer; complete: boolean }> {
  const handle = await fs.promises.open(filePath, "r");
  try {
    const buffer = Buffer.alloc(max + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, n, buffer.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n === buffer.length) break;
    }
    return { bytes: buffer.subarray(0, Math.min(n, max)), complete: n <= max };
  } finally {
    await handle.close();
  }
}

/**
 * The web's two steps (the routes check the session and the origin): the file is uploaded and previewed
 * (format, proposed mapping, labels needing a mapping, the personal columns that are never stored); then the
 * researcher's mapping starts the import job on that upload.
 */
export type Reply = { status: number; body: Record<string, unknown> };

const previewQuery = z.object({ eventId: z.string().min(1).max(60), name: z.string().trim().min(1, "The file needs a name.").max(500) });
/** An upload is named by its file in the upload folder (a UUID): nothing else can be named. */
const uploadToken = z.string().regex(/^[0-9a-f-]{36}\.upload$/, "Unknown upload.");

export const startJudgmentImportSchema = z.object({
  eventId: z.string().min(1).max(60),
  upload: uploadToken,
  fileName: z.string().trim().min(1).max(200),
  mapping: judgmentMappingSchema,
  labelMap: labelMapSchema.default({}),
});

async function labelsOf(db: Db, eventId: string) {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, schemeId: true, filters: true } });
  if (!event) return null;
  const settings = parseIngestSettings(event.filters);
  return { event, limit: settings.limits.maxFileBytes, labels: { scheme: await schemeLabelValues(db, event.schemeId), map: settings.labels.map } };
}

export async function uploadAndPreview(db: Db, request: Request): Promise<Reply> {
  const query = previewQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return { status: 400, body: { error: query.error.issues[0]?.message ?? "Invalid upload." } };
  const found = await labelsOf(db, query.data.eventId);
  if (!found) return { status: 404, body: { error: "That event does not exist." } };
  if (!request.body) return { status: 400, body: { error: "Choose a file to upload (it must not be empty)." } };
  let saved: { filePath: string; size: number };
  try {
    saved = await saveUpload(request.body, { limit: found.limit });
  } catch (err) {
    if (err instanceof UploadTooLarge) return { status: 413, body: { error: `The file is larger than this event's ${formatBytes(found.limit)} limit.` } };
    throw err;
  }
  let preview: JudgmentPreview;
  try {
    // only the file's start is read here (the upload may be hundreds of MB): the job reads and counts it all
    const head = await readHead(saved.filePath, PREVIEW_BYTES);
    preview = previewJudgments(head.bytes, found.labels, { complete: head.complete });
  } catch (err) {
    await fs.promises.rm(saved.filePath, { force: true });
    if (err instanceof CsvError) return { status: 400, body: { error: `The file is not valid CSV (${err.message}).` } };
    console.error("[accord] judgment preview failed:", err);
    return { status: 400, body: { error: "The file could not be read; upload it again." } };
  }
  return {
    status: 200,
    body: { upload: path.basename(saved.filePath), fileName: path.basename(query.data.name).slice(0, 200), preview, personalNote: personalColumnsNote(preview.personalColumns), scheme: found.labels.scheme },
  };
}

export async function startFromUpload(db: Db, input: unknown, { userId, actor }: { userId: string; actor: { id: string; email: string } }): Promise<Reply & { eventSlug?: string }> {
  const parsed = startJudgmentImportSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: parsed.error.issues[0]?.message ?? "Invalid import." } };
  const { eventId, upload, fileName, mapping, labelMap } = parsed.data;
  const found = await labelsOf(db, eventId);
  if (!found) return { status: 404, body: { error: "That event does not exist." } };
  const filePath = path.join(uploadDir(), upload);
  if (!fs.existsSync(filePath)) return { status: 400, body: { error: "The uploaded file is gone; choose it again." } };
  try {
    if (Object.keys(labelMap).length > 0) await saveLabelMap(db, { eventId, map: labelMap, actor });
    const { importId, jobId } = await createJudgmentImport({ db, eventId, fileName, filePath, mapping, userId, via: "web" });
    return { status: 201, body: { importId, jobId, message: `Importing the judgments of ${fileName}; progress is shown under Imports.` }, eventSlug: found.event.slug };
  } catch (err) {
    if (err instanceof UserError) return { status: 400, body: { error: err.message } };
    console.error("[accord] judgment import failed to start:", err);
    return { status: 500, body: { error: publicMessage(err) } };
  }
}
