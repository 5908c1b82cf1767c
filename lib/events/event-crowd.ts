import "server-only";
import type { Db } from "@/lib/db/client";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { getProlificSettings } from "@/lib/crowd/prolific/settings";
import { crowdLabel } from "./crowd-label";
import { crowdCurrency } from "./event-currency";

export type EventCrowd = { kind: string; mode: string | null; label: string; production: boolean; testMode: boolean; /** ISO 4217 code its amounts are in */ currency: string };

/** An event's crowd as its pages show it: the provider, the mode chosen in Settings for it, and whether money is real. */
export async function eventCrowd(db: Db, kind: string): Promise<EventCrowd> {
  const prolific = kind === PROVIDER_KIND.prolific ? await getProlificSettings(db) : null;
  const mode = kind === PROVIDER_KIND.local ? null : prolific ? prolific.mode : (await getCrowdSettings(db)).mode;
  // Prolific's test mode: HITs and screenings are test studies for the test participant, not a live run.
  return { kind, mode, label: crowdLabel(kind, mode), production: mode === "production", testMode: prolific?.testMode ?? false, currency: await crowdCurrency(db, kind) };
}
