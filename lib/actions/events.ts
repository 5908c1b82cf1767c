"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { requestEventAnalysis } from "@/lib/events/analysis";
import { createEventFromForm } from "@/lib/events/create-event";
import { setEventArchived } from "@/lib/events/event-admin";
import { requireEventById } from "@/lib/events/event-lookup";
import { archiveEventSchema, newEventFormInput, requestAnalysisSchema, startReplaySchema } from "@/lib/events/events.validation";
import { editIngestSettingsSchema } from "@/lib/events/ingest-form.validation";
import { editProcedureSettingsInput } from "@/lib/events/procedure-form.validation";
import { startReplay } from "@/lib/events/replay-job";
import { updateIngestSettings } from "@/lib/events/update-ingest-settings";
import { updateProcedureSettings } from "@/lib/events/update-procedure-settings";
import { formAction } from "./define-action";

/** "New event": validate the form (zod, the procedure's own rules), create the event, open it. */
export const createEventAction = formAction({ access: "edit", input: newEventFormInput }, async ({ user, input }) => {
  const event = await createEventFromForm(getDb(), input, { userId: user.id });
  revalidatePath("/events");
  redirect(`/events/${event.slug}/data`);
});

/** Asks for a fresh agreement analysis (majority vote vs Dawid–Skene) of an event; viewers may too. */
export const requestAnalysisAction = formAction({ access: "view", input: requestAnalysisSchema }, async ({ user, input }) => {
  const db = getDb();
  const event = await requireEventById(db, input.eventId);
  const queued = await requestEventAnalysis(db, { eventId: event.id, userId: user.id, force: input.force === "1" });
  return { ok: true, message: queued ? "Analysis queued." : "The analysis is up to date or already running." };
});

/** Starts a replay of the event's recorded work under its current rules (a recorded job); viewers may too, it changes nothing. */
export const startReplayAction = formAction({ access: "view", input: startReplaySchema }, async ({ user, input }) => {
  const db = getDb();
  const event = await requireEventById(db, input.eventId);
  await startReplay(db, { eventId: event.id, userId: user.id });
  revalidatePath(`/events/${event.slug}/agreement`);
  return { ok: true, message: "Replay started." };
});

/** Archives (hides from the list) or restores an event. */
export const setEventArchivedAction = formAction({ access: "edit", input: archiveEventSchema }, async ({ user, input }) => {
  const archived = input.archived === "true";
  const event = await setEventArchived(getDb(), { eventId: input.eventId, archived, actorId: user.id });
  revalidatePath("/events");
  revalidatePath(`/events/${event.slug}`);
  return { ok: true, message: archived ? `Archived ${event.name}.` : `Restored ${event.name}.` };
});

/** The event's Settings page: changes its procedure settings, each change recorded (who, when, old → new). */
export const updateProcedureSettingsAction = formAction({ access: "edit", input: editProcedureSettingsInput }, async ({ user, input }) => {
  const r = await updateProcedureSettings(getDb(), input, { actor: { id: user.id, email: user.email } });
  revalidatePath(`/events/${r.slug}`, "layout");
  return { ok: true, message: `Saved ${r.changed} change${r.changed === 1 ? "" : "s"} to the rules of ${r.name}.` };
});

/** The event's Settings page: changes how the next uploads are filtered, each change recorded (scope "ingest"). */
export const updateIngestSettingsAction = formAction({ access: "edit", input: editIngestSettingsSchema }, async ({ user, input }) => {
  const r = await updateIngestSettings(getDb(), input, { actor: { id: user.id, email: user.email } });
  revalidatePath(`/events/${r.slug}`, "layout");
  return { ok: true, message: `Saved ${r.changed} change${r.changed === 1 ? "" : "s"} to the upload filtering of ${r.name}; it applies from the next upload.` };
});
