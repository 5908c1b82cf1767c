import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_SIGN_IN, safeNext } from "./safe-next";

describe("safeNext", () => {
  it.each([
    "/events/flood-2026",
    "/events/flood-2026/hits?status=published&page=2",
    "/settings#users",
    "/events/caf%C3%A9",
  ])("keeps the same-site path %s", (next) => {
    expect(safeNext(next)).toBe(next);
  });

  it.each([
    ["a backslash after the slash", "/\\evil.example"],
    ["a backslash pair", "\\\\evil.example"],
    ["a tab between the slashes", "/\t/evil.example"],
    ["a newline between the slashes", "/\n/evil.example"],
    ["a carriage return", "/\r/evil.example"],
    ["a newline anywhere", "/events\nSet-Cookie: x=1"],
    ["a NUL", "/events\u0000"],
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with a path", "//evil.example/events"],
    ["three slashes", "///evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["an absolute URL to this path", "http://accord.invalid/events"],
    ["javascript:", "javascript:alert(1)"],
    ["an encoded second slash", "/%2Fevil.example"],
    ["both slashes encoded", "%2F%2Fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["a lowercase encoded backslash", "/%5cevil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["an encoded newline", "/events%0A"],
    ["no leading slash", "events"],
    ["empty", ""],
  ])("refuses %s", (_what, next) => {
    expect(safeNext(next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it.each(["/@evil.example", "/%252F%252Fevil.example"])("keeps %s, a path on this site that only looks odd", (next) => {
    expect(safeNext(next)).toBe(next);
    expect(new URL(safeNext(next), "https://accord.example").origin).toBe("https://accord.example");
  });

  it("falls back when unset", () => {
    expect(safeNext(undefined)).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(safeNext(null)).toBe(DEFAULT_AFTER_SIGN_IN);
  });
});
