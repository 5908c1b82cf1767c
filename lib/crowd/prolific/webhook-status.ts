import "server-only";
import { webhookTargetUrl } from "@/lib/crowd/prolific/webhook-subscription";
import type { Db } from "@/lib/db/client";
import { participantBaseUrl, type ProlificSettings } from "@/lib/crowd/prolific/settings";
import { getProlificWebhookRecord, hasProlificWebhookSecret } from "@/lib/crowd/prolific/webhook-settings";

/** What the Settings page says about Prolific's webhooks (never the secret: only whether one is stored). */
export type ProlificWebhookStatus = {
  hasSecret: boolean;
  /** The recorded subscriptions' target and when they were set up, if any. */
  subscription: { targetUrl: string; since: string } | null;
  /** Prolific cannot reach Accord (production needs an https ACCORD_PUBLIC_URL): the sync loop polls. */
  pollingOnly: boolean;
};

export async function getProlificWebhookStatus(db: Db, mode: ProlificSettings["mode"]): Promise<ProlificWebhookStatus> {
  const [hasSecret, record] = await Promise.all([hasProlificWebhookSecret(db), getProlificWebhookRecord(db)]);
  return {
    hasSecret,
    subscription: record ? { targetUrl: record.targetUrl, since: record.at } : null,
    pollingOnly: webhookTargetUrl({ mode, publicUrl: participantBaseUrl() }) === null,
  };
}
