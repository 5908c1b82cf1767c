import "server-only";
import type { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { ensureWebhookSubscriptions, webhookTargetUrl, type WebhookSetupStore } from "@/lib/crowd/prolific/webhook-subscription";
import type { Db } from "@/lib/db/client";
import type { ProlificSettings } from "@/lib/crowd/prolific/settings";
import { getProlificWebhookRecord, getProlificWebhookSecret, saveProlificWebhookRecord, saveProlificWebhookSecret } from "@/lib/crowd/prolific/webhook-settings";

/** The webhook secret (sealed) and the subscription record in Accord's settings table. */
export function dbWebhookSetupStore(db: Db): WebhookSetupStore {
  return {
    getSecret: () => getProlificWebhookSecret(db),
    saveSecret: (input) => saveProlificWebhookSecret(db, input),
    getRecord: () => getProlificWebhookRecord(db),
    saveRecord: (record) => saveProlificWebhookRecord(db, record),
  };
}

/**
 * Subscribes the workspace's status events to Accord's webhook route when Prolific can reach it (a public https
 * address, or the simulator); otherwise, or when subscribing fails, the sync loop's polling is all there is.
 */
export function prolificWebhookSetup(db: Db, input: { mode: ProlificSettings["mode"]; publicUrl: string; log?: (m: string) => void }) {
  const log = input.log ?? ((m: string) => console.warn(`[accord] ${m}`));
  return async (client: ProlificClient, workspaceId: string): Promise<void> => {
    const targetUrl = webhookTargetUrl({ mode: input.mode, publicUrl: input.publicUrl });
    if (!targetUrl) return;
    try {
      await ensureWebhookSubscriptions({ client, workspaceId, targetUrl, store: dbWebhookSetupStore(db) });
    } catch (err) {
      log(`Prolific webhooks are not set up (Accord polls instead): ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
