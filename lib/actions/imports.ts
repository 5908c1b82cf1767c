"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActionUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { cancelImport } from "@/lib/ingest/import-queries";
import { type ActionState, errorState, parseForm } from "./action-state";

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
