import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sealData } from "iron-session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS_MAX_BODY_BYTES, bodyLimitFor, DEFAULT_MAX_BODY_BYTES, MAX_UPLOAD_BYTES, PARTICIPANT_FORM_MAX_BYTES } from "@/lib/server/body-limits.mjs";
import { SECURITY_HEADERS } from "@/lib/server/fixed-headers.mjs";
// @ts-expect-error: a plain ESM script without types
import { createRequestGuard, MAX_URL_LENGTH, newPeerHeaderName, sessionCookiePassword } from "./request-guard.mjs";

const KB = 1024;
const MB = 1024 * KB;
const SECRET = "a-test-secret-of-at-least-32-characters!";
const password: string = sessionCookiePassword({ ACCORD_SECRET: SECRET });

/** Smaller limits than the real ones, so that the signed-in upload limit can be crossed in a test. */
const UPLOAD_LIMIT = 3 * MB;
const testLimits = (method: string, pathname: string) => (pathname === "/upload" && method === "POST" ? { limit: 256 * KB, signedInLimit: UPLOAD_LIMIT } : pathname === "/form" ? { limit: 64 * KB } : { limit: 1 * MB });

type Seen = { path: string; bytes: number; error?: string; headers: http.IncomingHttpHeaders };

/**
 * Sends a body (declared, or chunked) piece by piece until the server answers; the answer and how much was sent.
 * headersOnly: sends the headers and waits for the answer without a byte of the body.
 */
function send(base: string, urlPath: string, opts: { total: number; chunked?: boolean; headers?: Record<string, string>; expectContinue?: boolean; headersOnly?: boolean }) {
  return new Promise<{ status: number | "closed"; headers: http.IncomingHttpHeaders; body: string; sent: number; continued: boolean }>((resolve) => {
    const url = new URL(urlPath, base);
    const headers: Record<string, string> = { ...(opts.chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(opts.total) }), ...opts.headers };
    if (opts.expectContinue) headers.Expect = "100-continue";
    let sent = 0;
    let answered = false;
    let continued = false;
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent: false }, (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sent, continued }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sent, continued }));
    });
    req.on("error", () => {
      if (!answered) resolve({ status: "closed", headers: {}, body: "", sent, continued });
    });
    const piece = Buffer.alloc(16 * KB, 0x61);
    const pump = () => {
      while (sent < opts.total && !answered) {
        const n = Math.min(piece.length, opts.total - sent);
        sent += n;
        if (!req.write(piece.subarray(0, n))) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    if (opts.headersOnly) req.flushHeaders();
    else if (opts.expectContinue) {
      req.on("continue", () => {
        continued = true;
        pump();
      });
      req.flushHeaders();
    } else pump();
  });
}

function expectSecurityHeaders(headers: http.IncomingHttpHeaders) {
  for (const { key, value } of SECURITY_HEADERS) expect(headers[key.toLowerCase()], key).toBe(value);
  expect(headers["content-security-policy"]).toContain("default-src 'none'");
}

describe("request guard (scripts/serve.mjs)", () => {
  const peerHeader: string = newPeerHeaderName();
  let server: http.Server;
  let base = "";
  const seen: Seen[] = [];
  const lastSeen = () => seen.at(-1);

  beforeAll(async () => {
    // Stands in for Next.js: reads the whole body, answers with what it got.
    const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const record: Seen = { path: req.url ?? "", bytes: 0, headers: req.headers };
      seen.push(record);
      req.on("data", (c: Buffer) => (record.bytes += c.length));
      req.on("error", (e) => (record.error = e.message));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ bytes: record.bytes, headers: req.headers }));
      });
    };
    const guard = createRequestGuard({ peerHeader, handle, sessionPassword: () => password, limits: testLimits });
    server = http.createServer(guard.onRequest);
    server.on("checkContinue", guard.onCheckContinue);
    server.on("clientError", guard.onClientError);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("answers 414 at once for URLs over the limit, with the security headers, and passes those within it", async () => {
    for (const length of [8_200, 12_000, 15_000]) {
      const res = await fetch(`${base}/events?q=${"a".repeat(length)}`, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(414);
      expectSecurityHeaders(Object.fromEntries(res.headers));
      expect(await res.text()).toContain(String(MAX_URL_LENGTH));
    }
    const ok = await fetch(`${base}/events?q=${"a".repeat(4000)}`);
    expect(ok.status).toBe(200);
  });

  it("writes the peer's address under the secret name and drops any client-sent peer header", async () => {
    const res = await fetch(`${base}/`, { headers: { "x-accord-peer": "203.0.113.1", [peerHeader]: "203.0.113.2", "x-forwarded-for": "203.0.113.3" } });
    const { headers } = (await res.json()) as { headers: Record<string, string> };
    expect(headers[peerHeader]).toBe("127.0.0.1");
    expect(headers["x-accord-peer"]).toBeUndefined();
    expect(peerHeader).toMatch(/^x-accord-peer-[0-9a-f]{24}$/);
    expect(newPeerHeaderName()).not.toBe(peerHeader);
  });

  it("refuses a declared Content-Length over the path's limit with 413 before a byte is sent; Next.js never sees it", async () => {
    const before = seen.length;
    for (const [urlPath, total] of [
      ["/signin", 199 * MB],
      ["/form", 64 * KB + 1],
      ["/upload", 2 * MB],
    ] as const) {
      // Answered on the headers alone: not a byte of the body was sent.
      const res = await send(base, urlPath, { total, headersOnly: true });
      expect(res.status, urlPath).toBe(413);
      expect(res.headers.connection).toBe("close");
      expectSecurityHeaders(res.headers);
      expect(res.sent).toBe(0);
    }
    expect((await send(base, "/upload", { total: 2 * MB, headersOnly: true })).body).toContain("without a signed-in session");
    expect(seen.length).toBe(before);
  });

  it("counts a chunked body as it streams and cuts it off at the limit, before Next.js starts", async () => {
    const before = seen.length;
    const res = await send(base, "/signin", { total: 50 * MB, chunked: true, headers: { "Next-Action": "x" } });
    expect(res.status).toBe(413);
    expectSecurityHeaders(res.headers);
    expect(res.body).toContain("at most 1 MB");
    expect(res.sent).toBeLessThan(10 * MB);
    const form = await send(base, "/form", { total: 200 * KB, chunked: true });
    expect(form.status).toBe(413);
    expect(seen.length).toBe(before);
  });

  it("hands bodies within the limit to Next.js whole, declared or chunked", async () => {
    for (const [urlPath, total, chunked] of [
      ["/signin", 1 * MB, false],
      ["/signin", 1 * MB, true],
      ["/form", 64 * KB, true],
      ["/upload", 200 * KB, true],
    ] as const) {
      const res = await send(base, urlPath, { total, chunked });
      expect(res.status, `${urlPath} ${total}`).toBe(200);
      expect((JSON.parse(res.body) as { bytes: number }).bytes).toBe(total);
    }
  });

  it("gives a sealed session the upload route's large limit; a forged or foreign cookie is anonymous", async () => {
    const sealed = await sealData({ token: "live-session-token" }, { password });
    const signedIn = await send(base, "/upload", { total: 2 * MB, headers: { Cookie: `theme=dark; accord_session=${sealed}` } });
    expect(signedIn.status).toBe(200);
    expect((JSON.parse(signedIn.body) as { bytes: number }).bytes).toBe(2 * MB);
    const chunked = await send(base, "/upload", { total: 2 * MB, chunked: true, headers: { Cookie: `accord_session=${sealed}` } });
    expect(chunked.status).toBe(200);
    expect((JSON.parse(chunked.body) as { bytes: number }).bytes).toBe(2 * MB);

    const foreign = await sealData({ token: "t" }, { password: sessionCookiePassword({ ACCORD_SECRET: "another-secret-of-at-least-32-characters" }) });
    const before = seen.length;
    for (const cookie of ["accord_session=Fe26.2**forged**value~2", `accord_session=${foreign}`, "accord_session=%E0%A4%A", `accord_session=${await sealData({}, { password })}`]) {
      const declared = await send(base, "/upload", { total: 2 * MB, headersOnly: true, headers: { Cookie: cookie } });
      expect(declared.status, cookie).toBe(413);
      expect(declared.body).toContain("without a signed-in session");
      const chunked = await send(base, "/upload", { total: 50 * MB, chunked: true, headers: { Cookie: cookie } });
      expect(chunked.status, cookie).toBe(413);
      expect(chunked.body).toContain("without a signed-in session");
      expect(chunked.sent).toBeLessThan(10 * MB);
    }
    expect(seen.length).toBe(before);
    // Within the anonymous limit a forged cookie goes on (the route then refuses it: 401).
    expect((await send(base, "/upload", { total: 100 * KB, chunked: true, headers: { Cookie: "accord_session=forged" } })).status).toBe(200);
  });

  it("cuts a signed-in chunked upload off at its limit while Next.js reads it: 413, and the handler sees an error, not an end", async () => {
    const sealed = await sealData({ token: "live-session-token" }, { password });
    const declared = await send(base, "/upload", { total: UPLOAD_LIMIT + 1, headersOnly: true, headers: { Cookie: `accord_session=${sealed}` } });
    expect(declared.status).toBe(413);
    expect(declared.body).toContain("at most 3 MB here");
    const res = await send(base, "/upload", { total: 20 * MB, chunked: true, headers: { Cookie: `accord_session=${sealed}` } });
    expect(res.status === 413 || res.status === "closed", `status ${res.status}`).toBe(true);
    if (res.status === 413) expectSecurityHeaders(res.headers);
    expect(res.sent).toBeLessThan(10 * MB);
    await expect.poll(() => lastSeen()?.error, { timeout: 60_000 }).toBeTruthy();
    expect(lastSeen()!.bytes).toBeLessThanOrEqual(UPLOAD_LIMIT);
  });

  it("answers Expect: 100-continue only when the body may come", async () => {
    const refused = await send(base, "/signin", { total: 1 * MB + 1, expectContinue: true });
    expect(refused.status).toBe(413);
    expect(refused.continued).toBe(false);
    expectSecurityHeaders(refused.headers);
    const allowed = await send(base, "/signin", { total: 100 * KB, expectContinue: true });
    expect(allowed.continued).toBe(true);
    expect(allowed.status).toBe(200);
  });

  it("answers a request Node's parser rejects with 400 and the security headers", async () => {
    const port = (server.address() as AddressInfo).port;
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"));
      let text = "";
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const headers = Object.fromEntries(
      raw
        .split("\r\n\r\n")[0]!
        .split("\r\n")
        .slice(1)
        .map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    expectSecurityHeaders(headers);
  });
});

describe("the real limits", () => {
  it("anonymous requests stay within the first megabyte everywhere; the upload route takes the largest file an event allows", () => {
    expect(ANONYMOUS_MAX_BODY_BYTES).toBe(1 * MB);
    expect(DEFAULT_MAX_BODY_BYTES).toBeLessThanOrEqual(ANONYMOUS_MAX_BODY_BYTES);
    for (const [method, p] of [
      ["POST", "/signin"],
      ["POST", "/events/x/data"],
      ["PUT", "/api/imports"],
      ["POST", "/api/imports/"],
      ["POST", "/api/%69mports"],
      ["POST", "/prolific/task"],
    ]) {
      const { limit } = bodyLimitFor(method!, p!);
      expect(limit, p).toBeLessThanOrEqual(ANONYMOUS_MAX_BODY_BYTES);
    }
    expect(bodyLimitFor("POST", "/prolific/task").limit).toBe(PARTICIPANT_FORM_MAX_BYTES);
    expect(bodyLimitFor("POST", "/api/imports")).toEqual({ limit: ANONYMOUS_MAX_BODY_BYTES, signedInLimit: MAX_UPLOAD_BYTES });
  });

  it("the upload limit is the largest an event's settings accept", async () => {
    const { parseIngestSettings } = await import("@/lib/ingest/settings");
    expect(parseIngestSettings({ limits: { maxFileBytes: MAX_UPLOAD_BYTES } }).limits.maxFileBytes).toBe(MAX_UPLOAD_BYTES);
    expect(() => parseIngestSettings({ limits: { maxFileBytes: MAX_UPLOAD_BYTES + 1 } })).toThrow();
  });
});

describe("the session cookie's password", () => {
  it("is the app's (lib/secrets/derive-key.ts), from ACCORD_SECRET or from the generated secret file", async () => {
    const saved = process.env.ACCORD_SECRET;
    process.env.ACCORD_SECRET = SECRET;
    try {
      const { deriveKey } = await import("@/lib/secrets/derive-key");
      expect(password).toBe(deriveKey("session-cookie").toString("hex"));
    } finally {
      if (saved === undefined) delete process.env.ACCORD_SECRET;
      else process.env.ACCORD_SECRET = saved;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-guard-"));
    try {
      expect(sessionCookiePassword({}, dir)).toBeNull();
      fs.mkdirSync(path.join(dir, "data"));
      fs.writeFileSync(path.join(dir, "data/.accord-secret"), "ab".repeat(32));
      const fromFile = sessionCookiePassword({}, dir);
      expect(fromFile).toMatch(/^[0-9a-f]{64}$/);
      expect(fromFile).not.toBe(password);
      expect(sessionCookiePassword({ ACCORD_SECRET_FILE: "data/.accord-secret" }, dir)).toBe(fromFile);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
