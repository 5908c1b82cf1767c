"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { cancelImport } from "@/lib/ingest/import-queries";
import { cancelImportSchema } from "@/lib/ingest/imports.validation";
import { formAction } from "./define-action";

// Uploads go through the streaming route app/api/imports (lib/ingest/save-upload.ts), not a server action.

export const cancelImportAction = formAction({ access: "edit", input: cancelImportSchema }, async ({ input: { importId } }) => {
  const db = getDb();
  await cancelImport(db, { importId });
  const batch = await db.importBatch.findUnique({ where: { id: importId }, select: { event: { select: { slug: true } } } });
  if (batch) revalidatePath(`/events/${batch.event.slug}/data`);
  return { ok: true, message: "Cancelling: the import stops at its next check and stores nothing." };
});
