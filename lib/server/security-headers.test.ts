import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./security-headers";

describe("security headers", () => {
  it("allows only nonce'd scripts, no framing, no plugins, forms to Accord only", () => {
    const policy = contentSecurityPolicy("abc123");
    const directives = Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives["script-src"]).toBe("'self' 'nonce-abc123' 'strict-dynamic'");
    expect(directives["frame-ancestors"]).toBe("'none'");
    expect(directives["object-src"]).toBe("'none'");
    expect(directives["form-action"]).toBe("'self'");
    expect(policy).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy("abc123", { dev: true })).toContain("'unsafe-eval'");
  });
});
