import { expect, test } from "@playwright/test";

// Prolific's webhook route is public (the signature is the credential): reachable without a session, bare refusals.
test("the Prolific webhook route answers Prolific without a session and refuses forged or oversized deliveries", async ({ request }) => {
  const hello = await request.post("/api/prolific/webhook", { headers: { "X-Hook-Secret": "e2e-confirm" }, maxRedirects: 0 });
  expect(hello.status()).toBe(200);
  expect(hello.headers()["x-hook-secret"]).toBe("e2e-confirm");

  const body = JSON.stringify({ resource_id: "0123456789abcdef01234567", event_type: "study.status.change", metadata: {}, status: "ACTIVE" });
  const forged = await request.post("/api/prolific/webhook", {
    headers: { "content-type": "application/json", "X-Prolific-Request-Signature": "Zm9yZ2Vk", "X-Prolific-Request-Timestamp": String(Math.floor(Date.now() / 1000)), "X-Event-ID": "e2e-forged" },
    data: body,
    maxRedirects: 0,
  });
  // 401 with a secret stored, 503 before Accord has subscribed; never a page or a reason.
  expect([401, 503]).toContain(forged.status());
  expect(await forged.text()).toMatch(/^(Unauthorized|Not accepting deliveries)$/);

  const big = await request.post("/api/prolific/webhook", { headers: { "content-type": "application/json", "X-Prolific-Request-Signature": "x" }, data: "x".repeat(20_000), maxRedirects: 0 });
  expect(big.status()).toBe(413);
});
