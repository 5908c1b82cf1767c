import { describe, expect, it } from "vitest";
import { pythonJsonDumps } from "./python-json";
import { signWebhook, verifyWebhook } from "./webhook-signature";

// Expected bytes and signature computed with Python 3's json.dumps and hmac (the docs' own example).
const BODY = { resource_id: "64a1", event_type: "submission.status.change", participant_id: "5f0", status: "AWAITING REVIEW", note: "café ☕ \u007f\n\"q\"", n: [1, 2.5, true, null] };
const PY = '{"resource_id": "64a1", "event_type": "submission.status.change", "participant_id": "5f0", "status": "AWAITING REVIEW", "note": "caf\\u00e9 \\u2615 \\u007f\\n\\"q\\"", "n": [1, 2.5, true, null]}';
const PY_SIGNATURE = "i66lp/BvK2GqkjoxnmCKkkIVD6XmH6teC5S39yi7YR0=";
const NOW = 1764620000;

describe("Prolific webhook signatures", () => {
  it("serialises as Python's json.dumps and signs as the docs' example does", () => {
    expect(pythonJsonDumps(BODY)).toBe(PY);
    expect(signWebhook("s3cret", String(NOW), PY)).toBe(PY_SIGNATURE);
  });

  it("accepts a signature over the raw body, and over the json.dumps form of a compact body", () => {
    const raw = Buffer.from(PY);
    expect(verifyWebhook({ rawBody: raw, timestamp: String(NOW), signature: PY_SIGNATURE, secret: "s3cret", nowSeconds: NOW })).toEqual({ ok: true, payload: BODY });
    const compact = Buffer.from(JSON.stringify(BODY));
    expect(verifyWebhook({ rawBody: compact, timestamp: String(NOW), signature: PY_SIGNATURE, secret: "s3cret", nowSeconds: NOW }).ok).toBe(true);
    const own = signWebhook("s3cret", String(NOW), compact);
    expect(verifyWebhook({ rawBody: compact, timestamp: String(NOW), signature: own, secret: "s3cret", nowSeconds: NOW }).ok).toBe(true);
  });

  it("refuses forgeries, other secrets, altered bodies and stale or missing timestamps", () => {
    const raw = Buffer.from(PY);
    const check = (over: Partial<Parameters<typeof verifyWebhook>[0]>) => verifyWebhook({ rawBody: raw, timestamp: String(NOW), signature: PY_SIGNATURE, secret: "s3cret", nowSeconds: NOW, ...over });
    expect(check({ secret: "other" })).toEqual({ ok: false, reason: "signature does not match" });
    expect(check({ rawBody: Buffer.from(PY.replace("AWAITING REVIEW", "APPROVED")) })).toEqual({ ok: false, reason: "signature does not match" });
    expect(check({ signature: PY_SIGNATURE.slice(0, -2) })).toEqual({ ok: false, reason: "signature does not match" });
    expect(check({ nowSeconds: NOW + 301 })).toEqual({ ok: false, reason: "timestamp too old or in the future" });
    expect(check({ nowSeconds: NOW - 301 })).toEqual({ ok: false, reason: "timestamp too old or in the future" });
    expect(check({ timestamp: null }).ok).toBe(false);
    expect(check({ timestamp: "12.5" }).ok).toBe(false);
    expect(check({ rawBody: Buffer.from("not json") })).toEqual({ ok: false, reason: "body is not JSON" });
  });
});
