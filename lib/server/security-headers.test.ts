import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, prolificReturnOrigins } from "./security-headers";

describe("security headers", () => {
  it("allows only nonce'd scripts, no framing, no plugins, forms to Accord only", () => {
    const policy = contentSecurityPolicy("abc123");
    const directives = Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives["script-src"]).toBe("'self' 'nonce-abc123' 'strict-dynamic'");
    expect(directives["frame-ancestors"]).toBe("'none'");
    expect(directives["object-src"]).toBe("'none'");
    // Accord, and where its Prolific pages send a participant back (a form's redirect is checked too).
    expect(directives["form-action"]).toBe(`'self' ${prolificReturnOrigins().join(" ")}`);
    expect(prolificReturnOrigins("http://127.0.0.1:9520/")).toEqual(["https://app.prolific.com", "http://127.0.0.1:9520"]);
    expect(prolificReturnOrigins("not a url")).toEqual(["https://app.prolific.com"]);
    expect(policy).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy("abc123", { dev: true })).toContain("'unsafe-eval'");
  });
});

describe("the fixed headers", () => {
  it("next.config.js puts the shared list (the request guard's too) on every path, and the deny-all policy on route handlers", async () => {
    const { SECURITY_HEADERS, NOTHING_RENDERED_CSP } = await import("./fixed-headers.mjs");
    const configFile = path.join(process.cwd(), "next.config.js"); // a variable: next.config.js has no types
    const { default: config } = (await import(/* @vite-ignore */ configFile)) as { default: { headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]> } };
    const rules = await config.headers();
    expect(rules.find((r) => r.source === "/:path*")?.headers).toEqual(SECURITY_HEADERS);
    expect(rules.find((r) => r.source === "/api/:path*")?.headers).toEqual([{ key: "Content-Security-Policy", value: NOTHING_RENDERED_CSP }]);
    expect(SECURITY_HEADERS.map((h) => h.key)).toEqual(["X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy", "Permissions-Policy"]);
  });
});
