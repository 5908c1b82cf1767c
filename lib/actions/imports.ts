"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { cancelImport } from "@/lib/ingest/import-queries";
import { cancelImportSchema, collectMoreSchema, importActionSchema } from "@/lib/ingest/imports.validation";
import { reopenUnresolvedImported } from "@/lib/ingest/judgments/collect-more";
import { deleteImportFile, requestImportRerun } from "@/lib/ingest/rerun-import";
import { resumeMappedImport, saveLabelMap } from "@/lib/ingest/label-map";
import { labelMapFromForm, mapLabelsFormSchema } from "@/lib/ingest/label-map.validation";
import { UserError } from "@/lib/errors";
import { formatInt } from "@/lib/text/format";
import { formAction } from "./define-action";

// Uploads go through the streaming route app/api/imports (lib/ingest/save-upload.ts), not a server action.

export const cancelImportAction = formAction({ access: "edit", input: cancelImportSchema }, async ({ input: { importId } }) => {
  const db = getDb();
  await cancelImport(db, { importId });
  const batch = await db.importBatch.findUnique({ where: { id: importId }, select: { event: { select: { slug: true } } } });
  if (batch) revalidatePath(`/events/${batch.event.slug}/data`);
  return { ok: true, message: "Cancelling: the import stops at its next check and stores nothing." };
});

/** The upload page's mapping form: saves the event's label map (reused by later uploads), then runs the paused import again. */
export const mapImportLabelsAction = formAction({ access: "edit", input: mapLabelsFormSchema }, async ({ input, user }) => {
  const db = getDb();
  const batch = await db.importBatch.findUnique({ where: { id: input.importId }, select: { eventId: true, fileLabels: true, event: { select: { slug: true } } } });
  if (!batch) throw new UserError("That import does not exist.", "not_found");
  const map = labelMapFromForm(input);
  const missing = Object.keys((batch.fileLabels ?? {}) as Record<string, number>).filter((l) => !(l in map));
  if (missing.length > 0) throw new UserError(`Choose what to do with ${missing.map((l) => `"${l}"`).join(", ")}.`, "label_map");
  await saveLabelMap(db, { eventId: batch.eventId, map, actor: { id: user.id, email: user.email } });
  await resumeMappedImport(db, { importId: input.importId, userId: user.id });
  revalidatePath(`/events/${batch.event.slug}/data`);
  return { ok: true, message: "Label map saved for this event; the import is running again." };
});

const revalidateData = async (eventId: string) => {
  const event = await getDb().event.findUnique({ where: { id: eventId }, select: { slug: true } });
  if (event) revalidatePath(`/events/${event.slug}/data`);
};

/** The Data tab's "Re-run with the current settings": a new job reads the import's kept file again. */
export const rerunImportAction = formAction({ access: "edit", input: importActionSchema }, async ({ input, user }) => {
  const done = await requestImportRerun(getDb(), { importId: input.importId, userId: user.id });
  await revalidateData(done.eventId);
  return { ok: true, message: `Re-running "${done.fileName}" with the event's current settings; its tweets are replaced when it completes.` };
});

/** Deletes an import's kept upload (it can no longer be re-run). */
export const deleteImportFileAction = formAction({ access: "edit", input: importActionSchema }, async ({ input, user }) => {
  const done = await deleteImportFile(getDb(), { importId: input.importId, userId: user.id });
  await revalidateData(done.eventId);
  return { ok: true, message: `The kept file of "${done.fileName}" was deleted.` };
});

/** An imported event's Overview: its unresolved imported tweets go back to the publish queue for a crowd's extra judgments. */
export const collectMoreImportedAction = formAction({ access: "edit", input: collectMoreSchema }, async ({ input, user }) => {
  const db = getDb();
  const { reopened } = await reopenUnresolvedImported(db, { eventId: input.eventId, actorId: user.id });
  const event = await db.event.findUnique({ where: { id: input.eventId }, select: { slug: true } });
  if (event) {
    revalidatePath(`/events/${event.slug}`);
    revalidatePath(`/events/${event.slug}/publish`);
  }
  return { ok: true, message: `${formatInt(reopened)} tweet${reopened === 1 ? "" : "s"} without an accepted label ${reopened === 1 ? "is" : "are"} back in the publish queue: publish HITs on the Publish tab to collect more judgments; they count together with the imported ones.` };
});
