import "server-only";
import { rm } from "node:fs/promises";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { publicMessage, UserError } from "@/lib/errors";
import { createImport } from "./import-job";
import { importKindSchema } from "./imports.validation";
import { formatBytes } from "./limits";
import type { UploadReply } from "./save-upload";
import { parseIngestSettings } from "./settings";
import { tweetEvalFileName, tweetEvalSet, tweetEvalTsv } from "./tweeteval";
import { saveUpload, UploadTooLarge } from "./uploads";

/**
 * A TweetEval split uploaded from the Data tab as one set (POST /api/imports/tweeteval?eventId=…&kind=…&task=…, the
 * three files as multipart form data under "files"): paired by the same code as `accord import --tweeteval`
 * (tweeteval.ts), kept as one upload (re-runs read it again) and imported by the ordinary import job; labels outside
 * the event's scheme pause it for the label mapping, as any upload.
 */
export const tweetEvalQuerySchema = z.object({
  eventId: z.string().min(1).max(60),
  kind: importKindSchema,
  task: z
    .string()
    .trim()
    .min(1, "Name the TweetEval task (e.g. sentiment).")
    .max(60)
    .regex(/^[A-Za-z0-9_.-]+$/, "The task name takes letters, digits, _ . and - (e.g. sentiment)."),
});

export async function uploadTweetEvalSet(db: Db, request: Request, { userId }: { userId: string }): Promise<UploadReply> {
  const query = tweetEvalQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return { status: 400, body: { error: query.error.issues[0]?.message ?? "Invalid upload." } };
  const { eventId, kind, task } = query.data;
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, filters: true } });
  if (!event) return { status: 404, body: { error: "That event does not exist." } };
  const limit = parseIngestSettings(event.filters).limits.maxFileBytes;
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  // The form is read whole: a missing or too large length is refused before a byte is read.
  if (!(declared > 0)) return { status: 411, body: { error: "The upload has no declared size." } };
  if (declared > limit) return { status: 413, body: { error: `The files are larger than this event's ${formatBytes(limit)} limit.` } };
  let filePath: string | null = null;
  try {
    let files: File[];
    try {
      files = (await request.formData()).getAll("files").filter((f): f is File => typeof f !== "string");
    } catch {
      throw new UserError("The upload is not a form with files.", "bad_form");
    }
    const set = tweetEvalSet(files.map((f) => f.name));
    const [texts, labels, mapping] = await Promise.all([files[set.text].text(), files[set.labels].text(), files[set.mapping].text()]);
    const tsv = tweetEvalTsv({ texts, labels, mapping }, { task, split: set.split });
    filePath = (await saveUpload(new Blob([tsv]).stream(), { limit })).filePath;
    const fileName = tweetEvalFileName({ task, split: set.split });
    const result = await createImport({ db, eventId, kind, fileName, filePath, userId });
    const note = result.sameFileAs ? ` This split was imported before ("${result.sameFileAs.fileName}"): the import will add nothing new.` : "";
    return { status: 201, body: { importId: result.importId, jobId: result.jobId, message: `Uploaded the TweetEval split ${fileName}; the import is running.${note}` }, eventSlug: event.slug };
  } catch (err) {
    if (filePath) await rm(filePath, { force: true }).catch(() => undefined);
    if (err instanceof UploadTooLarge) return { status: 413, body: { error: `The split is larger than this event's ${formatBytes(limit)} limit.` } };
    if (err instanceof UserError) return { status: 400, body: { error: err.message } };
    console.error("[accord] TweetEval upload failed:", err);
    return { status: 500, body: { error: publicMessage(err) } };
  }
}
