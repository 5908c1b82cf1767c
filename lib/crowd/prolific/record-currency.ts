import "server-only";
import type { ProlificClient } from "@/lib/crowd/prolific/api-client";
import type { Db } from "@/lib/db/client";
import { saveProlificCurrency } from "@/lib/crowd/prolific/currency";

/**
 * Records the workspace's currency (its balance says it) when the Prolific provider resolves the workspace. A failure
 * is logged, not thrown: pages then keep the last recorded currency, and the next resolution tries again.
 */
export async function recordProlificCurrency(db: Db, client: ProlificClient, workspaceId: string, log: (m: string) => void = (m) => console.warn(`[accord] ${m}`)): Promise<void> {
  try {
    const { currency_code: currency } = await client.getBalance(workspaceId);
    await saveProlificCurrency(db, { workspaceId, currency });
  } catch (err) {
    log(`The Prolific workspace's currency is not recorded (amounts show the last one known): ${err instanceof Error ? err.message : String(err)}`);
  }
}
