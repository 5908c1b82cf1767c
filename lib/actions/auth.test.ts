import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import type { TestDb } from "@/lib/db/test-db";
import { actionTestDb, TEST_PEER_HEADER, testBrowser } from "./test-browser";

// One browser at a time (./test-browser.ts): its cookie jar and the request headers Accord's server would pass.
const PEER = TEST_PEER_HEADER;
type Jar = Map<string, string>;
vi.mock("next/headers", async () => (await import("./test-browser")).nextHeadersMock());
vi.mock("next/navigation", async () => (await import("./test-browser")).nextNavigationMock());
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { signIn, signOut, changePassword } = await import("./auth");
const { updateUser } = await import("./users");
const { getCurrentUser } = await import("@/lib/auth/current-user");

function browser(peer: string, forwardedFor?: string, cookies: Jar = new Map()) {
  testBrowser.jar = cookies;
  testBrowser.headers = new Headers({ [PEER]: peer, ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) });
  return cookies;
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

/** Signs in; returns where the action redirected, or its message. */
async function attempt(email: string, password: string, next?: string): Promise<string> {
  try {
    const state = await signIn({ ok: false }, form({ email, password, ...(next !== undefined ? { next } : {}) }));
    return `message: ${state.message}`;
  } catch (err) {
    const m = /^NEXT_REDIRECT (.*)$/s.exec((err as Error).message);
    if (!m) throw err;
    return `redirect: ${m[1]}`;
  }
}

let t: TestDb;
const ADMIN = "admin@example.org";
const RITA = "rita@example.org";
beforeAll(async () => {
  t = await actionTestDb();
  const passwordHash = await hashPassword("admin-password");
  await t.db.user.create({ data: { email: ADMIN, name: "Admin", passwordHash, role: "admin" } });
  await t.db.user.create({ data: { email: RITA, name: "Rita", passwordHash: await hashPassword("rita-password"), role: "researcher" } });
  return () => t.cleanup();
});
beforeEach(async () => {
  delete process.env.ACCORD_TRUST_PROXY;
  await t.db.loginThrottle.deleteMany();
});
afterAll(() => {
  delete process.env.ACCORD_PEER_HEADER;
});

describe("sign-in action", () => {
  it("follows `next` only to a same-site path; a newline is no error", async () => {
    browser("192.0.2.1");
    expect(await attempt(ADMIN, "admin-password", "/workers?page=2")).toBe("redirect: /workers?page=2");
    for (const next of ["/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/events\r\nX: 1", "//evil.example", "https://evil.example", "%2F%2Fevil.example", "/%5Cevil.example", "/%2F/evil.example"]) {
      browser("192.0.2.1");
      expect(await attempt(ADMIN, "admin-password", next), JSON.stringify(next)).toBe("redirect: /events");
    }
  });

  it("ignores X-Forwarded-For without ACCORD_TRUST_PROXY: rotating it does not escape the throttle", async () => {
    for (let i = 0; i < 3; i++) {
      browser("192.0.2.7", `203.0.113.${i}`);
      expect(await attempt(RITA, "wrong-password")).toBe("message: Wrong email or password.");
    }
    browser("192.0.2.7", "203.0.113.99");
    expect(await attempt(RITA, "rita-password")).toMatch(/^message: Too many failed sign-ins/);
    const keys = (await t.db.loginThrottle.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys).toContain(`email:${RITA}|ip:192.0.2.7`);
    expect(keys.some((k) => k.includes("203.0.113."))).toBe(false);
  });

  it("with ACCORD_TRUST_PROXY=1 the proxy's X-Forwarded-For entry is the client address", async () => {
    process.env.ACCORD_TRUST_PROXY = "1";
    for (let i = 0; i < 3; i++) {
      browser("10.0.0.2", `198.51.100.66, 203.0.113.${i}`);
      await attempt(RITA, "wrong-password");
    }
    const keys = (await t.db.loginThrottle.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining([`ip:203.0.113.0`, `ip:203.0.113.1`, `ip:203.0.113.2`]));
    expect(keys.some((k) => k.includes("198.51.100.66") || k.includes("10.0.0.2"))).toBe(false);
  });

  it("19 failures from another address do not lock the admin out", async () => {
    for (let i = 0; i < 19; i++) {
      browser("203.0.113.50");
      await attempt(ADMIN, `guess-${i}`);
    }
    browser("203.0.113.50");
    expect(await attempt(ADMIN, "admin-password")).toMatch(/^message: Too many failed sign-ins/);
    browser("192.0.2.1");
    expect(await attempt(ADMIN, "admin-password")).toBe("redirect: /events");
  });

  it("past the account's cap, the admin's known device still signs in; an unknown browser waits", async () => {
    const device = browser("192.0.2.1");
    expect(await attempt(ADMIN, "admin-password")).toBe("redirect: /events");
    expect(device.get("accord_device")).toBeTruthy();
    for (let i = 0; i < 60; i++) {
      browser(`2001:db8::${(i + 1).toString(16)}`);
      await attempt(ADMIN, `guess-${i}`);
    }
    browser("192.0.2.200");
    expect(await attempt(ADMIN, "admin-password")).toMatch(/^message: Too many failed sign-ins/);
    browser("192.0.2.200", undefined, new Map([["accord_device", device.get("accord_device") as string]]));
    expect(await attempt(ADMIN, "admin-password")).toBe("redirect: /events");
  });
});

describe("sessions end on the server", () => {
  async function signedInJar(email: string, password: string): Promise<Jar> {
    const cookies = browser("192.0.2.1");
    expect(await attempt(email, password)).toMatch(/^redirect:/);
    return new Map(cookies);
  }
  async function userWith(cookies: Jar) {
    testBrowser.jar = new Map(cookies);
    return getCurrentUser();
  }

  it("a cookie copied before sign-out is refused after it", async () => {
    const cookies = await signedInJar(RITA, "rita-password");
    const copy = new Map(cookies);
    expect((await userWith(copy))?.email).toBe(RITA);
    testBrowser.jar = cookies;
    await expect(signOut()).rejects.toThrow(/NEXT_REDIRECT \/signin/);
    expect(await userWith(copy)).toBeNull();
  });

  it("a role change ends the user's sessions", async () => {
    const rita = await signedInJar(RITA, "rita-password");
    const admin = await signedInJar(ADMIN, "admin-password");
    const ritaId = (await t.db.user.findUniqueOrThrow({ where: { email: RITA } })).id;
    testBrowser.jar = admin;
    expect((await updateUser({ ok: false }, form({ userId: ritaId, role: "viewer" }))).ok).toBe(true);
    expect(await userWith(rita)).toBeNull();
    expect((await userWith(admin))?.email).toBe(ADMIN);
  });

  it("a password change ends the user's other sessions, not the one that made it", async () => {
    const phone = await signedInJar(RITA, "rita-password");
    const laptop = await signedInJar(RITA, "rita-password");
    testBrowser.jar = laptop;
    const wrong = await changePassword({ ok: false }, form({ currentPassword: "nope", newPassword: "a-new-password-1" }));
    expect(wrong.fieldErrors?.currentPassword).toEqual(["That is not your current password."]);
    const state = await changePassword({ ok: false }, form({ currentPassword: "rita-password", newPassword: "a-new-password-1" }));
    expect(state).toMatchObject({ ok: true, message: "Password changed. 1 other session was signed out." });
    expect(await userWith(phone)).toBeNull();
    expect((await userWith(laptop))?.email).toBe(RITA);
    browser("192.0.2.1");
    expect(await attempt(RITA, "rita-password")).toBe("message: Wrong email or password.");
    expect(await attempt(RITA, "a-new-password-1")).toBe("redirect: /events");
  });
});
