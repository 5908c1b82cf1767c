import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { readEventSettings } from "./event-settings";
import type { EventLocation } from "./events.validation";

/** What every list and header shows of an event. */
export type EventBasics = {
  id: string;
  slug: string;
  name: string;
  type: string;
  startDate: Date | null;
  endDate: Date | null;
};

export type EventHeader = EventBasics & {
  provider: string;
  budgetCapCents: number | null;
  archived: boolean;
  createdAt: Date;
  locations: EventLocation[];
  settings: ProcedureSettings;
  scheme: { id: string; slug: string; name: string };
};

/** The event a dashboard page is about (by its URL slug), or null. */
export async function findEventBySlug(db: Db, slug: string): Promise<EventHeader | null> {
  const e = await db.event.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      name: true,
      type: true,
      startDate: true,
      endDate: true,
      provider: true,
      budgetCapCents: true,
      archived: true,
      createdAt: true,
      locations: true,
      settings: true,
      scheme: { select: { id: true, slug: true, name: true } },
    },
  });
  if (!e) return null;
  return { ...e, locations: Array.isArray(e.locations) ? (e.locations as EventLocation[]) : [], settings: readEventSettings(e) };
}

export type SchemeLabelInfo = { value: string; name: string; description: string };

/** The labels of a scheme in display order. */
export async function labelsOfScheme(db: Db, schemeId: string): Promise<SchemeLabelInfo[]> {
  return db.label.findMany({ where: { schemeId }, orderBy: { position: "asc" }, select: { value: true, name: true, description: true } });
}

/** The event an action names by id (with what actions need), or a UserError when it does not exist. */
export async function requireEventById(db: Db, eventId: string): Promise<{ id: string; slug: string; name: string; provider: string }> {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, name: true, provider: true } });
  if (!event) throw new UserError("That event does not exist.", "not_found");
  return event;
}

/** Why the event's pages cannot be shown (its stored rule settings do not parse), or null. */
export async function eventSettingsProblem(db: Db, slug: string): Promise<string | null> {
  const event = await db.event.findUnique({ where: { slug }, select: { name: true, settings: true } });
  if (!event) return null;
  try {
    readEventSettings(event);
    return null;
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
}

/** The id of the event with this slug, or null. */
export async function eventIdBySlug(db: Db, slug: string): Promise<string | null> {
  return (await db.event.findUnique({ where: { slug }, select: { id: true } }))?.id ?? null;
}

/** The ids of the events with these slugs; with none given, every event that is not archived. */
export async function eventIdsBySlugs(db: Db, slugs: string[]): Promise<string[]> {
  const rows = await db.event.findMany({ where: slugs.length ? { slug: { in: slugs } } : { archived: false }, select: { id: true } });
  return rows.map((e) => e.id);
}
