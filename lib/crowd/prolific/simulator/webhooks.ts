import { pythonJsonDumps } from "../python-json";
import { signWebhook } from "../webhook-signature";
import type { SimEvent } from "./service";
import { nextId, type ProlificSimState } from "./state";

/** Prolific retries a failed delivery up to 12 times over 24 h (docs); the simulator keeps the count, not the span. */
export const MAX_DELIVERY_ATTEMPTS = 12;

/** The body Prolific POSTs for each event type (the reference's payload table). */
export function webhookBody(event: SimEvent): Record<string, unknown> {
  const head = { resource_id: event.resource_id, event_type: event.event_type };
  switch (event.event_type) {
    case "submission.status.change":
      return { ...head, participant_id: event.participant_id, status: event.status };
    case "study.status.change":
      return { ...head, metadata: {}, status: event.status };
    case "study.progress.change":
      return head;
    case "study.has_high_return_rate":
      return { ...head, metadata: {} };
  }
}

/** The active signing secret of a workspace (one per workspace; the primary one's is `state.hookSecret`). */
export function workspaceSecret(state: ProlificSimState, workspaceId: string): { id: string; value: string } | null {
  return workspaceId === state.workspace.id ? state.hookSecret : (state.hookSecrets?.[workspaceId] ?? null);
}

/** Queues one delivery per enabled subscription of the event's type in the event's workspace (each keeps its X-Event-ID across retries). */
export function queueDeliveries(state: ProlificSimState, event: SimEvent, nowMs: number): void {
  for (const sub of Object.values(state.subscriptions)) {
    if (!sub.is_enabled || sub.event_type !== event.event_type || sub.workspace_id !== event.workspace_id) continue;
    const at = new Date(nowMs).toISOString();
    state.deliveries.push({ id: nextId(state), subscription_id: sub.id, event_type: event.event_type, resource_id: event.resource_id, body: webhookBody(event), attempts: 0, nextAt: nowMs, status: "PENDING", created_at: at, updated_at: at });
  }
}

/**
 * Sends the due deliveries one after another, signed as Prolific signs them (the body as Python's json.dumps writes
 * it, base64 HMAC-SHA256 over timestamp + body); a non-2xx answer or a network error is retried with back-off.
 */
export async function sendDueDeliveries(state: ProlificSimState, options: { nowMs: number; fetch?: typeof fetch; backoffMs?: number }): Promise<number> {
  const send = options.fetch ?? fetch;
  let sent = 0;
  for (const d of state.deliveries) {
    if (d.status !== "PENDING" || d.nextAt > options.nowMs) continue;
    const sub = state.subscriptions[d.subscription_id];
    const secret = sub && workspaceSecret(state, sub.workspace_id);
    if (!sub || !secret) continue;
    const body = pythonJsonDumps(d.body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    d.attempts++;
    let ok = false;
    try {
      const res = await send(sub.target_url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Prolific-Request-Signature": signWebhook(secret.value, timestamp, body),
          "X-Prolific-Request-Timestamp": timestamp,
          "X-Event-ID": d.id,
          "X-Timestamp": timestamp,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      ok = res.ok;
      await res.body?.cancel();
    } catch {
      ok = false;
    }
    sent++;
    d.updated_at = new Date(options.nowMs).toISOString();
    if (ok) d.status = "SUCCEEDED";
    else if (d.attempts >= MAX_DELIVERY_ATTEMPTS) d.status = "FAILED";
    else d.nextAt = options.nowMs + (options.backoffMs ?? 1000) * 2 ** (d.attempts - 1);
  }
  return sent;
}
