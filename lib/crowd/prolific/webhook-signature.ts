import { createHmac, timingSafeEqual } from "node:crypto";
import { pythonJsonDumps } from "./python-json";

/** Prolific documents no replay window: ±5 minutes is Accord's own choice. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** base64(HMAC-SHA256(key = the workspace secret's UTF-8 bytes, msg = timestamp + body)). */
export function signWebhook(secret: string, timestamp: string, body: string | Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.concat([Buffer.from(timestamp, "utf8"), typeof body === "string" ? Buffer.from(body, "utf8") : body]))
    .digest("base64");
}

export type WebhookCheck = { ok: true; payload: unknown } | { ok: false; reason: string };

/**
 * Checks a delivery: a fresh timestamp and a signature over the raw body, or ([?] the docs' own example) over the
 * body re-serialised as Python's json.dumps would write it.
 */
export function verifyWebhook(input: { rawBody: Buffer; timestamp: string | null; signature: string | null; secret: string; nowSeconds?: number; toleranceSeconds?: number }): WebhookCheck {
  const { rawBody, timestamp, signature, secret } = input;
  if (!timestamp || !signature) return { ok: false, reason: "missing signature or timestamp header" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "timestamp is not a UNIX time in seconds" };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return { ok: false, reason: "timestamp too old or in the future" };
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString("utf8"));
  } catch {
    return { ok: false, reason: "body is not JSON" };
  }
  if (sameSignature(signWebhook(secret, timestamp, rawBody), signature)) return { ok: true, payload };
  if (sameSignature(signWebhook(secret, timestamp, pythonJsonDumps(payload)), signature)) return { ok: true, payload };
  return { ok: false, reason: "signature does not match" };
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given.trim());
  return a.length === b.length && timingSafeEqual(a, b);
}
