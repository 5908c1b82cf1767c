import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types
import { guardRequest, MAX_URL_LENGTH, newPeerHeaderName } from "./request-guard.mjs";

describe("request guard (scripts/serve.mjs)", () => {
  const peerHeader: string = newPeerHeaderName();
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!guardRequest(req, res, peerHeader)) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(req.headers));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("answers 414 at once for URLs over the limit, and passes those within it", async () => {
    for (const length of [8_200, 12_000, 16_000]) {
      const res = await fetch(`${base}/events?q=${"a".repeat(length)}`, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(414);
      expect(await res.text()).toContain(String(MAX_URL_LENGTH));
    }
    const ok = await fetch(`${base}/events?q=${"a".repeat(4000)}`);
    expect(ok.status).toBe(200);
  });

  it("writes the peer's address under the secret name and drops any client-sent peer header", async () => {
    const res = await fetch(`${base}/`, { headers: { "x-accord-peer": "203.0.113.1", [peerHeader]: "203.0.113.2", "x-forwarded-for": "203.0.113.3" } });
    const seen = (await res.json()) as Record<string, string>;
    expect(seen[peerHeader]).toBe("127.0.0.1");
    expect(seen["x-accord-peer"]).toBeUndefined();
    expect(peerHeader).toMatch(/^x-accord-peer-[0-9a-f]{24}$/);
    expect(newPeerHeaderName()).not.toBe(peerHeader);
  });
});
