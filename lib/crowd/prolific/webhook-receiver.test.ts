import { describe, expect, it } from "vitest";
import { receiveProlificWebhook, WEBHOOK_MAX_BYTES, type WebhookDelivery, type WebhookOutcome } from "./webhook-receiver";
import { signWebhook } from "./webhook-signature";
import { webhookTargetUrl } from "./webhook-subscription";

const SECRET = "workspace-secret-value";
const NOW = 1_800_000_000;
const BODY = JSON.stringify({ resource_id: "sub-1", event_type: "submission.status.change", participant_id: "p1", status: "AWAITING REVIEW" });

/** A receiver whose "handling" is a set of X-Event-IDs: it acts the first time only, as the database record does. */
function receiver() {
  const seen = new Set<string>();
  const acted: WebhookDelivery[] = [];
  const logs: string[] = [];
  const deps = {
    secret: async () => SECRET,
    handle: async (d: WebhookDelivery): Promise<WebhookOutcome> => {
      if (seen.has(d.eventId)) return "duplicate";
      seen.add(d.eventId);
      acted.push(d);
      return "acted";
    },
    nowSeconds: () => NOW,
    log: (m: string) => logs.push(m),
  };
  return { deps, acted, logs, post: (req: Request) => receiveProlificWebhook(req, deps) };
}

function delivery({ eventId = "evt-1", body = BODY, ts = NOW, key = SECRET, headers = {} }: { eventId?: string; body?: string; ts?: number; key?: string; headers?: Record<string, string> } = {}) {
  return new Request("https://accord.example.org/api/prolific/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Prolific-Request-Signature": signWebhook(key, String(ts), body), "X-Prolific-Request-Timestamp": String(ts), "X-Event-ID": eventId, ...headers },
    body,
  });
}

describe("Accord's receiver of Prolific webhooks", () => {
  it("acts on a signed delivery once: the same X-Event-ID again is acknowledged without acting", async () => {
    const r = receiver();
    const first = await r.post(delivery());
    expect([first.status, await first.text()]).toEqual([200, "acted"]);
    expect(r.acted).toEqual([{ eventId: "evt-1", eventType: "submission.status.change", resourceId: "sub-1", status: "AWAITING REVIEW", participantId: "p1" }]);
    const replay = await r.post(delivery({ ts: NOW + 30 }));
    expect([replay.status, await replay.text()]).toEqual([200, "duplicate"]);
    expect(r.acted).toHaveLength(1);
  });

  it("refuses a forged signature and a timestamp 10 minutes old or ahead with a bare 401, acting on nothing", async () => {
    const r = receiver();
    for (const req of [delivery({ key: "guessed" }), delivery({ ts: NOW - 600 }), delivery({ ts: NOW + 600 }), delivery({ headers: { "X-Prolific-Request-Signature": "" } })]) {
      const res = await r.post(req);
      expect([res.status, await res.text()]).toEqual([401, "Unauthorized"]);
    }
    expect(r.acted).toEqual([]);
    expect(r.logs.join("\n")).toMatch(/signature does not match[\s\S]*too old or in the future/);
    // A body changed after signing is forged too.
    const tampered = delivery();
    const res = await r.post(new Request(tampered.url, { method: "POST", headers: tampered.headers, body: BODY.replace("AWAITING REVIEW", "APPROVED") }));
    expect(res.status).toBe(401);
  });

  it("checks the body as Prolific's own example signs it (Python json.dumps) as well as the raw bytes", async () => {
    const r = receiver();
    const python = '{"resource_id": "sub-2", "event_type": "submission.status.change", "participant_id": "p1", "status": "RETURNED"}';
    const res = await r.post(delivery({ eventId: "evt-2", body: python }));
    expect([res.status, await res.text()]).toEqual([200, "acted"]);
  });

  it("refuses a body over the cap unread, a delivery without X-Event-ID, and answers 503 while no secret is stored", async () => {
    const r = receiver();
    const big = BODY.padEnd(WEBHOOK_MAX_BYTES + 1, " ");
    expect((await r.post(delivery({ body: big }))).status).toBe(413);
    const declared = new Request("https://a/x", { method: "POST", headers: { "content-length": "50000000", "X-Prolific-Request-Signature": "x" }, body: "{}" });
    expect((await r.post(declared)).status).toBe(413);
    const noId = delivery();
    noId.headers.delete("X-Event-ID");
    expect((await r.post(noId)).status).toBe(400);
    const none = await receiveProlificWebhook(delivery(), { ...r.deps, secret: async () => null });
    expect(none.status).toBe(503);
    expect(r.acted).toEqual([]);
  });

  it("echoes a confirmation request's X-Hook-Secret; a failure while acting is a 500 so that Prolific retries", async () => {
    const r = receiver();
    const hello = await r.post(new Request("https://a/x", { method: "POST", headers: { "X-Hook-Secret": "confirm-123" } }));
    expect([hello.status, hello.headers.get("X-Hook-Secret")]).toEqual([200, "confirm-123"]);
    const failing = await receiveProlificWebhook(delivery(), { ...r.deps, handle: async () => Promise.reject(new Error("database down")) });
    expect([failing.status, await failing.text()]).toEqual([500, "Server error"]);
  });

  it("subscribes only where Prolific can deliver: https, or anything for the simulator", () => {
    expect(webhookTargetUrl({ mode: "production", publicUrl: "https://accord.example.org/" })).toBe("https://accord.example.org/api/prolific/webhook");
    expect(webhookTargetUrl({ mode: "production", publicUrl: "http://localhost:3000" })).toBeNull();
    expect(webhookTargetUrl({ mode: "production", publicUrl: undefined })).toBeNull();
    expect(webhookTargetUrl({ mode: "simulator", publicUrl: "http://localhost:3000" })).toBe("http://localhost:3000/api/prolific/webhook");
  });

  it("answers a body that breaks off on the way, or a signed body that is not JSON, with a 4xx, never a 500", async () => {
    const r = receiver();
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"resource_id": "sub'));
        controller.error(new Error("aborted"));
      },
    });
    const headers = delivery().headers;
    const cut = await r.post(new Request("https://a/x", { method: "POST", headers, body: broken, duplex: "half" } as RequestInit));
    expect([cut.status, await cut.text()]).toEqual([400, "Bad request"]);
    const notJson = await r.post(delivery({ eventId: "evt-nj", body: '{"resource_id": "sub' }));
    expect(notJson.status).toBe(401);
    expect(r.acted).toEqual([]);
  });
});
