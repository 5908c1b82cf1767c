import "server-only";
import type { Db } from "@/lib/db/client";
import { crowdLabel, crowdOf } from "@/lib/crowd/registry";

export type EventCrowd = { kind: string; mode: string | null; label: string; production: boolean; testMode: boolean; /** ISO 4217 code its amounts are in */ currency: string };

/** An event's crowd as its pages show it: the provider, the mode chosen in Settings for it, and whether money is real. */
export async function eventCrowd(db: Db, kind: string): Promise<EventCrowd> {
  const crowd = crowdOf(kind);
  const [mode, testMode, currency] = await Promise.all([crowd.mode(db), crowd.testMode(db), crowd.currency(db)]);
  // A test mode (Prolific's): HITs and screenings are test studies for the test participant, not a live run.
  return { kind, mode, label: crowdLabel(kind, mode), production: crowd.modes.some((m) => m.mode === mode && m.realMoney), testMode, currency };
}
