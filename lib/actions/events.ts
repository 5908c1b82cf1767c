"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { requireActionUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { requestEventAnalysis } from "@/lib/events/analysis";
import { createEvent } from "@/lib/events/create-event";
import { filtersFromForm, newEventFormSchema, parseLocations, settingsFromForm } from "@/lib/events/event-input";
import { UserError } from "@/lib/errors";
import { type ActionState, errorState, formValues, isNavigationSignal, parseForm } from "./action-state";

/** "New event": validate the form (zod, the procedure's own rules), create the event, open it. */
export async function createEventAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  let slug: string;
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(newEventFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const form = parsed.data;
    const settings = settingsFromForm(form);
    if (!settings.ok) {
      return { ok: false, message: "Please correct the rule settings.", fieldErrors: settings.fieldErrors, values: formValues(formData) };
    }
    const event = await createEvent(
      getDb(),
      {
        name: form.name,
        slug: form.slug,
        type: form.type,
        startDate: form.startDate ? new Date(`${form.startDate}T00:00:00Z`) : null,
        endDate: form.endDate ? new Date(`${form.endDate}T23:59:59.999Z`) : null,
        locations: parseLocations(form.locations).locations,
        schemeId: form.schemeId,
        provider: form.provider,
        budgetCapCents: form.budgetCapDollars ? Math.round(Number(form.budgetCapDollars) * 100) : null,
        settings: settings.settings,
        filters: filtersFromForm(form),
      },
      { userId: user.id },
    );
    slug = event.slug;
    revalidatePath("/events");
  } catch (err) {
    if (isNavigationSignal(err)) throw err;
    return errorState(err, formData);
  }
  redirect(`/events/${slug}/data`);
}

const eventIdSchema = z.object({ eventId: z.string().min(1).max(60) });

/** Asks for a fresh agreement analysis (majority vote vs Dawid–Skene) of an event; viewers may too. */
export async function requestAnalysisAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("view");
    const parsed = parseForm(eventIdSchema.extend({ force: z.enum(["1", "0"]).optional() }), formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    const event = await db.event.findUnique({ where: { id: parsed.data.eventId }, select: { id: true } });
    if (!event) throw new UserError("That event does not exist.");
    const queued = await requestEventAnalysis(db, { eventId: event.id, userId: user.id, force: parsed.data.force === "1" });
    return { ok: true, message: queued ? "Analysis queued." : "The analysis is up to date or already running." };
  } catch (err) {
    return errorState(err, formData);
  }
}

/** Archives (hides from the list) or restores an event. */
export async function setEventArchivedAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(eventIdSchema.extend({ archived: z.enum(["true", "false"]) }), formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    const archived = parsed.data.archived === "true";
    const event = await db.event.update({ where: { id: parsed.data.eventId }, data: { archived }, select: { id: true, slug: true, name: true } });
    await writeAudit(db, { actorType: "user", actorId: user.id, eventId: event.id, entityType: "event", entityId: event.id, action: archived ? "archive" : "unarchive" });
    revalidatePath("/events");
    revalidatePath(`/events/${event.slug}`);
    return { ok: true, message: archived ? `Archived ${event.name}.` : `Restored ${event.name}.` };
  } catch (err) {
    return errorState(err, formData);
  }
}
