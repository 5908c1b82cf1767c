import "server-only";
import type { Db } from "@/lib/db/client";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { getProlificSettings } from "@/lib/crowd/prolific/settings";
import { PROVIDER_KIND } from "@/lib/db/enums";

/**
 * Whether an event's judgments come from simulated workers (the MTurk or Prolific simulator, or a generated demo): their labels
 * follow a noise model, not the tweets' meaning, and the dashboard says so.
 */
export async function usesSimulatedWorkers(db: Db, event: { id: string; provider: string }): Promise<boolean> {
  if (event.provider === PROVIDER_KIND.local) return false;
  if (event.provider === PROVIDER_KIND.mturk && (await getCrowdSettings(db)).mode === "simulator") return true;
  if (event.provider === PROVIDER_KIND.prolific && (await getProlificSettings(db)).mode === "simulator") return true;
  return (await db.auditLog.count({ where: { eventId: event.id, action: "seed-demo" } })) > 0;
}
