"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { cancelImport } from "@/lib/ingest/import-queries";
import { cancelImportSchema, uploadSchema } from "@/lib/ingest/imports.validation";
import { formatBytes } from "@/lib/ingest/limits";
import { saveUploadAndImport } from "@/lib/ingest/save-upload";
import { formAction } from "./define-action";

/** Upload: saves the file (within the event's size limit) and starts the import job. */
export const uploadImportAction = formAction({ access: "edit", input: uploadSchema }, async ({ user, input: { eventId, kind, file } }) => {
  const result = await saveUploadAndImport(getDb(), { eventId, kind, file, userId: user.id });
  revalidatePath(`/events/${result.eventSlug}/data`);
  const note = result.sameFileAs ? ` This file was imported before ("${result.sameFileAs.fileName}"): the import will add nothing new.` : "";
  return { ok: true, message: `Uploaded ${file.name} (${formatBytes(file.size)}); the import is running.${note}`, data: { importId: result.importId, jobId: result.jobId } };
});

export const cancelImportAction = formAction({ access: "edit", input: cancelImportSchema }, async ({ input: { importId } }) => {
  const db = getDb();
  await cancelImport(db, { importId });
  const batch = await db.importBatch.findUnique({ where: { id: importId }, select: { event: { select: { slug: true } } } });
  if (batch) revalidatePath(`/events/${batch.event.slug}/data`);
  return { ok: true, message: "Cancelling: the import stops at its next check and stores nothing." };
});
