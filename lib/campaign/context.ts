import "server-only";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import type { SchemeLabel } from "@/lib/labels/humaid";
import { readEventSettings } from "@/lib/events/event-settings";
import { type CrowdPolicySettings, parseCrowdPolicySettings } from "@/lib/crowd/policy";
import type { ProcedureSettings } from "@/lib/procedure/settings";

export type EventContext = {
  event: { id: string; slug: string; name: string; provider: string; schemeId: string; budgetCapCents: number | null };
  settings: ProcedureSettings;
  /** The event's settings for its crowd's decision policy (defaults when none are stored). */
  crowdPolicy?: CrowdPolicySettings;
  labels: SchemeLabel[];
};

/** An event with its rule settings (validated, defaults filled) and its scheme's labels in display order. */
export async function loadEventContext(db: Db, eventId: string): Promise<EventContext> {
  const event = await db.event.findUnique({
    where: { id: eventId },
    select: { id: true, slug: true, name: true, provider: true, schemeId: true, budgetCapCents: true, settings: true, crowdPolicy: true },
  });
  if (!event) throw new UserError("This event does not exist (any more).", "not_found");
  const labels = await db.label.findMany({
    where: { schemeId: event.schemeId },
    orderBy: { position: "asc" },
    select: { value: true, name: true, description: true },
  });
  const { settings: stored, crowdPolicy, ...rest } = event;
  return { event: rest, settings: readEventSettings({ name: event.name, settings: stored }), crowdPolicy: parseCrowdPolicySettings(crowdPolicy), labels };
}
