import "server-only";
import type { Db } from "@/lib/db/client";
import { crowdIsSimulated } from "@/lib/crowd/registry";

/**
 * Whether an event's judgments come from simulated workers (its crowd's simulator, or a generated demo): their labels
 * follow a noise model, not the tweets' meaning, and the dashboard says so.
 */
export async function usesSimulatedWorkers(db: Db, event: { id: string; provider: string }): Promise<boolean> {
  if (await crowdIsSimulated(db, event.provider)) return true;
  return (await db.auditLog.count({ where: { eventId: event.id, action: "seed-demo" } })) > 0;
}
