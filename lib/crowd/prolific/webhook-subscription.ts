import { z } from "zod";
import type { ProlificClient } from "./api-client";
import { hookSecretSchema, hookSubscriptionSchema, type HookSubscription } from "./api-types";

/** The events that make a HIT due for sync (webhook-handlers.ts). */
export const WEBHOOK_EVENT_TYPES = ["submission.status.change", "study.status.change"] as const;
/** Accord's receiving route, under its public address. */
export const WEBHOOK_PATH = "/api/prolific/webhook";

/** Where Accord keeps the signing secret (sealed) and what it subscribed (lib/crowd/prolific/settings.ts). */
export type WebhookSetupStore = {
  getSecret(): Promise<{ secret: string; workspaceId: string } | null>;
  saveSecret(input: { secret: string; workspaceId: string }): Promise<void>;
  getRecord(): Promise<{ targetUrl: string; subscriptions: Record<string, string> } | null>;
  saveRecord(record: { workspaceId: string; targetUrl: string; subscriptions: Record<string, string>; at: string }): Promise<void>;
};

/**
 * Where Prolific can deliver to, or null (polling only): Accord's public https address, or any address in simulator
 * mode (the simulator runs beside Accord and may use http). Prolific requires a public https target_url.
 */
export function webhookTargetUrl(input: { mode: "simulator" | "production"; publicUrl: string | undefined }): string | null {
  if (!input.publicUrl) return null;
  const url = new URL(input.publicUrl);
  if (input.mode === "production" && url.protocol !== "https:") return null;
  return `${input.publicUrl.replace(/\/+$/, "")}${WEBHOOK_PATH}`;
}

/**
 * Makes sure the workspace has a signing secret Accord knows and one enabled subscription per event type to
 * `targetUrl`, looking Prolific's subscriptions up first so that a restart (or a second Accord process) reuses them:
 * an enabled one is kept; a disabled one is re-enabled (Prolific disables a target after days of failures), and
 * replaced when that does not take; a subscription Accord recorded for an older target URL is moved to the new one;
 * only a missing one is created and confirmed with its `X-Hook-Secret`. Returns the subscription ids by event type.
 */
export async function ensureWebhookSubscriptions(input: { client: ProlificClient; workspaceId: string; targetUrl: string; store: WebhookSetupStore }): Promise<Record<string, string>> {
  const { client, workspaceId, targetUrl, store } = input;
  await ensureSecret(client, workspaceId, store);
  const previous = await store.getRecord();
  const existing = await client.listAll("hooks/subscriptions", hookSubscriptionSchema, "listing the webhook subscriptions", { workspace_id: workspaceId });
  const subscriptions: Record<string, string> = {};
  for (const eventType of WEBHOOK_EVENT_TYPES) {
    const ours = existing.filter((s) => s.event_type === eventType && s.target_url === targetUrl);
    const moved = previous && previous.targetUrl !== targetUrl ? existing.find((s) => s.id === previous.subscriptions[eventType] && s.event_type === eventType) : undefined;
    let sub: HookSubscription | null = ours.find((s) => s.is_enabled) ?? ours[0] ?? null;
    if (!sub && moved) sub = await patch(client, moved.id, { target_url: targetUrl, is_enabled: true });
    if (sub && !sub.is_enabled) sub = await patch(client, sub.id, { is_enabled: true });
    if (sub && !sub.is_enabled) {
      await client.request("DELETE", `hooks/subscriptions/${sub.id}`, { operation: "removing a disabled webhook subscription", retry: "safe" });
      sub = null;
    }
    if (!sub) {
      const created = await client.createHookSubscription(workspaceId, eventType, targetUrl);
      if (!created.confirmationSecret) throw new Error(`Prolific did not send the X-Hook-Secret confirming the ${eventType} subscription.`);
      sub = await client.confirmHookSubscription(created.subscription.id, created.confirmationSecret);
    }
    subscriptions[eventType] = sub.id;
  }
  await store.saveRecord({ workspaceId, targetUrl, subscriptions, at: new Date().toISOString() });
  return subscriptions;
}

/**
 * Makes Accord hold the workspace's active signing secret: the one Prolific lists (adopted when it differs from
 * Accord's, e.g. replaced by another tool); if Prolific lists one without its value ([?]), the one Accord holds; if
 * there is none, a new one (POST replaces the workspace's secret, so only then), read back so that of two processes
 * creating one at once both keep the one that stayed active.
 */
async function ensureSecret(client: ProlificClient, workspaceId: string, store: WebhookSetupStore): Promise<void> {
  const held = await store.getSecret();
  const listed = await listSecrets(client, workspaceId);
  const active = listed.find((s) => s.value)?.value;
  if (active) {
    if (held?.secret !== active || held.workspaceId !== workspaceId) await store.saveSecret({ secret: active, workspaceId });
    return;
  }
  if (listed.length > 0 && held && (held.workspaceId === workspaceId || held.workspaceId === "")) {
    if (held.workspaceId === "") await store.saveSecret({ secret: held.secret, workspaceId });
    return;
  }
  const created = (await client.createHookSecret(workspaceId)).value;
  const after = (await listSecrets(client, workspaceId)).find((s) => s.value)?.value;
  await store.saveSecret({ secret: after ?? created, workspaceId });
}

async function listSecrets(client: ProlificClient, workspaceId: string) {
  const listed = await client.request("GET", "hooks/secrets", {
    operation: "reading the webhook secret",
    query: { workspace_id: workspaceId },
    schema: z.looseObject({ results: z.array(hookSecretSchema.partial({ value: true })) }),
    retry: "safe",
  });
  return listed.body.results.filter((s) => (s.workspace_id ?? workspaceId) === workspaceId);
}

async function patch(client: ProlificClient, id: string, body: { target_url?: string; is_enabled?: boolean }): Promise<HookSubscription> {
  return (await client.request("PATCH", `hooks/subscriptions/${id}`, { operation: "updating a webhook subscription", body, schema: hookSubscriptionSchema, retry: "safe" })).body;
}
