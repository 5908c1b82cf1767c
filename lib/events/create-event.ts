import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { type EventLocation, filtersFromForm, type NewEventForm, parseLocations, slugify } from "./events.validation";
import { settingsFromForm } from "./procedure-form.validation";
import { type ProviderKind } from "@/lib/db/enums";
import { crowdChoices, findCrowd } from "@/lib/crowd/registry";

export type CreateEventInput = {
  name: string;
  slug?: string;
  type: string;
  startDate?: Date | null;
  endDate?: Date | null;
  locations: EventLocation[];
  schemeId: string;
  provider: ProviderKind;
  budgetCapCents?: number | null;
  settings: ProcedureSettings;
  filters?: Record<string, unknown>;
};

/** A slug not used by another event: the wanted one, else with _2, _3, … appended. */
export async function uniqueEventSlug(db: Db, wanted: string): Promise<string> {
  const base = wanted.slice(0, 72);
  const taken = new Set(
    (await db.event.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map((e) => e.slug),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}_${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Creates an event (and its audit entry). With an explicit slug that is taken, refuses instead of renaming. */
export async function createEvent(db: Db, input: CreateEventInput, { userId }: { userId: string | null }) {
  const scheme = await db.labelScheme.findUnique({ where: { id: input.schemeId }, select: { id: true } });
  if (!scheme) throw new UserError("That label scheme does not exist.", "invalid", { schemeId: ["That label scheme does not exist."] });
  let slug: string;
  if (input.slug) {
    if (await db.event.findUnique({ where: { slug: input.slug }, select: { id: true } })) {
      throw new UserError(`An event with the slug "${input.slug}" exists already.`, "exists", { slug: ["This slug is taken; choose another."] });
    }
    slug = input.slug;
  } else {
    slug = await uniqueEventSlug(db, slugify(input.name));
  }
  const event = await db.event.create({
    data: {
      slug,
      name: input.name,
      type: input.type,
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      locations: input.locations,
      schemeId: input.schemeId,
      provider: input.provider,
      settings: input.settings,
      filters: (input.filters ?? {}) as object,
      budgetCapCents: input.budgetCapCents ?? null,
      createdById: userId,
    },
    select: { id: true, slug: true, name: true },
  });
  await writeAudit(db, {
    actorType: userId ? "user" : "system",
    actorId: userId,
    eventId: event.id,
    entityType: "event",
    entityId: event.id,
    action: "create-event",
    details: { slug, type: input.type, provider: input.provider, settings: input.settings },
  });
  return event;
}

/** The "New event" form, validated, as an event: the rule settings are checked by lib/procedure first. */
export async function createEventFromForm(db: Db, form: NewEventForm, { userId }: { userId: string }) {
  const settings = settingsFromForm(form);
  if (!settings.ok) throw new UserError("Please correct the rule settings.", "invalid_settings", settings.fieldErrors);
  if (!findCrowd(form.provider)) {
    const names = crowdChoices().map((c) => c.label);
    throw new UserError("Choose one of the crowds.", "invalid_provider", { provider: [`Choose one of: ${names.join("; ")}.`] });
  }
  return createEvent(
    db,
    {
      name: form.name,
      slug: form.slug,
      type: form.type,
      startDate: form.startDate ? new Date(`${form.startDate}T00:00:00Z`) : null,
      endDate: form.endDate ? new Date(`${form.endDate}T23:59:59.999Z`) : null,
      locations: parseLocations(form.locations).locations,
      schemeId: form.schemeId,
      provider: form.provider as ProviderKind,
      budgetCapCents: form.budgetCapDollars ? Math.round(Number(form.budgetCapDollars) * 100) : null,
      settings: settings.settings,
      filters: filtersFromForm(form),
    },
    { userId },
  );
}
