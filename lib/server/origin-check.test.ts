import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crossSiteReason, refuseCrossSite } from "./origin-check";

const OWN = { host: "127.0.0.1:3000" };
const reason = (headers: Record<string, string>, env: Record<string, string> = {}) => crossSiteReason(new Headers({ ...OWN, ...headers }), env);

describe("the cross-site check", () => {
  it("lets Accord's own pages through, by Origin, Sec-Fetch-Site or Referer", () => {
    expect(reason({ origin: "http://127.0.0.1:3000" })).toBeNull();
    expect(reason({ origin: "HTTP://127.0.0.1:3000" })).toBeNull();
    expect(reason({ "sec-fetch-site": "same-origin" })).toBeNull();
    expect(reason({ "sec-fetch-site": "none" })).toBeNull();
    expect(reason({ referer: "http://127.0.0.1:3000/events/x/data" })).toBeNull();
    // Behind a proxy: the forwarded host, or the configured public address.
    expect(reason({ origin: "https://accord.example.org", "x-forwarded-host": "accord.example.org" })).toBeNull();
    expect(reason({ origin: "https://accord.example.org" }, { ACCORD_PUBLIC_URL: "https://accord.example.org/" })).toBeNull();
  });

  it("refuses another port of the same host, another site, an opaque origin", () => {
    expect(reason({ origin: "http://127.0.0.1:4000" })).toContain("http://127.0.0.1:4000");
    expect(reason({ origin: "http://evil.example" })).toContain("evil.example");
    expect(reason({ origin: "null" })).toContain("opaque");
    expect(reason({ origin: "not a url" })).toBeTruthy();
    // The Origin decides when present, whatever the other headers say.
    expect(reason({ origin: "http://evil.example", "sec-fetch-site": "same-origin", referer: "http://127.0.0.1:3000/" })).toBeTruthy();
    expect(reason({ "sec-fetch-site": "same-site" })).toContain("same-site");
    expect(reason({ "sec-fetch-site": "cross-site" })).toContain("cross-site");
    expect(reason({ referer: "http://127.0.0.1:4000/page" })).toContain("127.0.0.1:4000");
  });

  it("lets a request without any browser marker through (the CLI, curl: no ambient cookie)", () => {
    expect(reason({})).toBeNull();
  });

  it("answers 403 with a message", async () => {
    const res = refuseCrossSite(new Request("http://127.0.0.1:3000/api/imports", { method: "POST", headers: { origin: "http://127.0.0.1:4000" } }), {});
    expect(res?.status).toBe(403);
    expect(((await res!.json()) as { error: string }).error).toMatch(/^Refused: it came from http:\/\/127\.0\.0\.1:4000, not from Accord's own pages/);
  });
});

/**
 * State-changing route handlers that take no ambient credential, so another site's request can do nothing a direct
 * one could not. Each entry says why; every other POST/PUT/PATCH/DELETE handler must refuse a cross-site request.
 */
const EXEMPT: Record<string, string> = {
  "app/api/prolific/webhook/route.ts": "Prolific's servers call it; the HMAC signature under the workspace's secret is the credential",
  "app/prolific/task/route.ts": "Prolific participants: no cookie; the Prolific ids in the form, checked with Prolific, are the credential",
  "app/prolific/screening/route.ts": "as the task page",
};

function routeFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) routeFiles(p, out);
    else if (/^route\.tsx?$/.test(entry.name)) out.push(p);
  }
  return out;
}

const MUTATING = ["POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe("every state-changing route handler refuses a cross-site request", () => {
  const root = process.cwd();
  const files = routeFiles(path.join(root, "app")).map((f) => path.relative(root, f).split(path.sep).join("/"));

  it("finds the route handlers, and every exemption names one that changes state", async () => {
    expect(files).toContain("app/api/imports/route.ts");
    for (const file of Object.keys(EXEMPT)) {
      expect(files, file).toContain(file);
      const mod = (await import(path.join(root, file))) as Record<string, unknown>;
      expect(MUTATING.some((m) => typeof mod[m] === "function"), file).toBe(true);
    }
  });

  it("answers 403 before the handler runs (no session, no database needed)", async () => {
    const checked: string[] = [];
    for (const file of files.filter((f) => !(f in EXEMPT))) {
      const mod = (await import(path.join(root, file))) as Partial<Record<(typeof MUTATING)[number], Handler>>;
      for (const method of MUTATING) {
        const handler = mod[method];
        if (!handler) continue;
        for (const headers of [{ origin: "http://127.0.0.1:4000" }, { "sec-fetch-site": "cross-site" }, { referer: "http://evil.example/" }] as Record<string, string>[]) {
          const request = new Request("http://127.0.0.1:3000/x?eventId=e&kind=tweets&name=f.tsv", { method, headers: { ...OWN, ...headers }, body: "a\tb" });
          const res = await handler(request, { params: Promise.resolve({ id: "x", slug: "x" }) });
          expect(res.status, `${method} ${file} ${JSON.stringify(headers)}`).toBe(403);
        }
        checked.push(`${method} ${file}`);
      }
    }
    expect(checked).toContain("POST app/api/imports/route.ts");
  });
});
