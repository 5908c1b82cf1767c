import { z } from "zod";
import { readBoundedBody } from "@/lib/server/bounded-form";
import { verifyWebhook } from "./webhook-signature";

/** Prolific's deliveries are a few hundred bytes; anything bigger than this is refused unread. */
export const WEBHOOK_MAX_BYTES = 16_384;

/** A verified delivery: what happened to which resource, under Prolific's X-Event-ID (the same on every retry). */
export type WebhookDelivery = { eventId: string; eventType: string; resourceId: string; status: string | null; participantId: string | null };
/** acted: first time seen, acted on; duplicate: this X-Event-ID was handled before; ignored: not about Accord's studies. */
export type WebhookOutcome = "acted" | "duplicate" | "ignored";

export type WebhookReceiverDeps = {
  /** The workspace's signing secret (null: not set up, so nothing can be verified). */
  secret: () => Promise<string | null>;
  /** Acts on a delivery at most once per X-Event-ID (durably). */
  handle: (delivery: WebhookDelivery) => Promise<WebhookOutcome>;
  nowSeconds?: () => number;
  log?: (message: string) => void;
};

const eventIdSchema = z.string().trim().min(1).max(200);
const payloadSchema = z.looseObject({
  event_type: z.string().min(1).max(200),
  resource_id: z.string().min(1).max(200),
  status: z.string().max(100).nullish(),
  participant_id: z.string().max(200).nullish(),
});

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });

/**
 * Accord's end of Prolific's webhooks: the body read up to WEBHOOK_MAX_BYTES, the signature (HMAC-SHA256 over
 * timestamp + raw body, ±5 minutes) checked with the workspace secret, then handled once per X-Event-ID. A refused
 * delivery gets a bare status (no reason: the caller may be anyone); the reason goes to the server log.
 */
export async function receiveProlificWebhook(request: Request, deps: WebhookReceiverDeps): Promise<Response> {
  const log = deps.log ?? ((m: string) => console.warn(`[accord] Prolific webhook: ${m}`));
  const signature = request.headers.get("x-prolific-request-signature");
  const handshake = request.headers.get("x-hook-secret");
  // [?] A confirmation request carrying X-Hook-Secret and no signature gets its token echoed (the documented
  // confirmation is Accord's own POST of that token to Prolific: webhook-subscription.ts).
  if (handshake && !signature) return handshake.length <= 512 ? plain(200, "ok", { "X-Hook-Secret": handshake }) : plain(400, "Bad request");
  let rawBody: Buffer | null;
  try {
    rawBody = await readBoundedBody(request, WEBHOOK_MAX_BYTES);
  } catch {
    return plain(400, "Bad request"); // the body broke off on the way
  }
  if (rawBody === null) return plain(413, "Payload too large");
  const secret = await deps.secret();
  if (!secret) {
    log("a delivery arrived but no webhook secret is stored; Prolific will retry it.");
    return plain(503, "Not accepting deliveries");
  }
  const check = verifyWebhook({ rawBody, timestamp: request.headers.get("x-prolific-request-timestamp"), signature, secret, nowSeconds: deps.nowSeconds?.() });
  if (!check.ok) {
    log(`refused a delivery: ${check.reason}.`);
    return plain(401, "Unauthorized");
  }
  const eventId = eventIdSchema.safeParse(request.headers.get("x-event-id"));
  if (!eventId.success) return plain(400, "Bad request");
  const payload = payloadSchema.safeParse(check.payload);
  if (!payload.success) {
    // Signed by Prolific but not a shape Accord reads: acknowledged so that it is not retried for a day.
    log(`ignored a signed delivery of an unknown shape (event ${eventId.data}).`);
    return plain(200, "ignored");
  }
  try {
    const outcome = await deps.handle({
      eventId: eventId.data,
      eventType: payload.data.event_type,
      resourceId: payload.data.resource_id,
      status: payload.data.status ?? null,
      participantId: payload.data.participant_id ?? null,
    });
    return plain(200, outcome);
  } catch (err) {
    // Not recorded as handled: Prolific retries it with the same X-Event-ID.
    log(`handling event ${eventId.data} failed: ${err instanceof Error ? err.message : String(err)}`);
    return plain(500, "Server error");
  }
}
