import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "./env";
import { screenshot, signInAs } from "./helpers";
import { seedUser, uniqueEmail } from "./seed";

// Issue 24 in the browser against Accord's own server (scripts/serve.mjs): security headers with a CSP that the
// pages run under, 414 for over-long URLs, sign-in's `next` kept on the site, and sign-out that ends a copied cookie.

test("pages carry the CSP with a nonce and the framing, sniffing and referrer headers; scripts still run", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await request.get("/signin");
  const h = res.headers();
  expect(h["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("same-origin");
  const nonce = /'nonce-([^']+)'/.exec(h["content-security-policy"])?.[1];
  expect(await res.text()).toContain(`nonce="${nonce}"`);
  // A fresh nonce per request.
  expect((await request.get("/signin")).headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);

  const api = await request.get("/api/jobs/none"); // 401 JSON, signed out
  expect(api.status()).toBe(401);
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(api.headers()["x-frame-options"]).toBe("DENY");

  const email = uniqueEmail("csp");
  await seedUser({ email, password: "csp-password-123", role: "admin" });
  await signInAs(page, email, "csp-password-123");
  for (const path of ["/events", "/workers", "/settings", "/account"]) {
    await page.goto(path);
    // Next's client runtime ran (its scripts were allowed): the router is on window.
    await expect.poll(() => page.evaluate(() => typeof (window as unknown as { next?: unknown }).next)).toBe("object");
  }
  expect(violations).toEqual([]);
});

/** The headers every answer carries, the request guard's own included (lib/server/fixed-headers.mjs). */
function expectSecurityHeaders(h: Record<string, string | string[] | undefined>) {
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("same-origin");
  expect(h["permissions-policy"]).toContain("camera=()");
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
}

// Refused before any page is rendered (a rendered page would answer 200 or redirect to sign-in); how fast is not
// asserted (the machine is shared), only that the answer comes, with the security headers.
test("an over-long URL gets 414, not a page, with the security headers", async ({ request }) => {
  for (const length of [9_000, 16_000]) {
    const res = await request.get(`/events?q=${"a".repeat(length)}`, { maxRedirects: 0 });
    expect(res.status()).toBe(414);
    expectSecurityHeaders(res.headers());
  }
});

/**
 * POSTs a body of `size` bytes (declared, or chunked) without a session, stopping when the server answers; the
 * status ("closed" when it hung up first), the answer's headers and the MB sent by then. headersOnly: no body at all.
 */
function postLarge(path: string, size: number, headers: Record<string, string>, chunked = false, headersOnly = false) {
  return new Promise<{ status: number | "closed"; headers: http.IncomingHttpHeaders; sentMb: number }>((resolve) => {
    let sent = 0;
    let answered = false;
    const req = http.request({ host: "127.0.0.1", port: E2E_PORT, path, method: "POST", agent: false, headers: { ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(size) }), ...headers } }, (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, sentMb: sent / 2 ** 20 });
    });
    req.on("error", () => resolve({ status: "closed", headers: {}, sentMb: sent / 2 ** 20 }));
    if (headersOnly) return void req.flushHeaders();
    const chunk = Buffer.alloc(2 ** 20, 0x61);
    const pump = () => {
      while (sent < size && !answered) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

test("bodies over a path's limit are refused before they are read: five 199 MB server action posts at once, 1 GiB to the participant page", async ({ request }) => {
  await request.get("/signin");
  const action = { "Next-Action": "0".repeat(42), "Content-Type": "multipart/form-data; boundary=x" };
  // Declared and refused on the headers alone: 413 with the security headers, before a byte of the body.
  const headersOnly = await postLarge("/signin", 199 * 2 ** 20, action, false, true);
  expect(headersOnly.status).toBe(413);
  expectSecurityHeaders(headersOnly.headers);
  expect(headersOnly.sentMb).toBe(0);
  // A client that keeps sending sees the 413, or the connection closed under it (the server stops reading).
  const five = await Promise.all(Array.from({ length: 5 }, () => postLarge("/signin", 199 * 2 ** 20, action)));
  for (const res of five) {
    expect(res.status === 413 || res.status === "closed", `status ${res.status}`).toBe(true);
    if (res.status === 413) expectSecurityHeaders(res.headers);
    expect(res.sentMb, "MB sent before the answer").toBeLessThan(50);
  }
  const chunked = await postLarge("/signin", 199 * 2 ** 20, action, true);
  expect(chunked.status === 413 || chunked.status === "closed", `status ${chunked.status}`).toBe(true);
  expect(chunked.sentMb).toBeLessThan(50);
  expect((await postLarge("/prolific/task", 2 ** 30, { "Content-Type": "application/x-www-form-urlencoded" }, false, true)).status).toBe(413);
  for (const isChunked of [false, true]) {
    const task = await postLarge("/prolific/task", 2 ** 30, { "Content-Type": "application/x-www-form-urlencoded" }, isChunked);
    expect(task.status === 413 || task.status === "closed", `status ${task.status}`).toBe(true);
    expect(task.sentMb).toBeLessThan(50);
  }
  // The server is still there and answers pages.
  expect((await request.get("/signin")).status()).toBe(200);
});

test("the participant pages answer a malformed body with 400 and a page that says so", async ({ request }) => {
  const ids = { PROLIFIC_PID: "6000000000000000000000ab", STUDY_ID: "6000000000000000000000cd", SESSION_ID: "6000000000000000000000ef" };
  const multipart = `--b\r\nContent-Disposition: form-data; name="PROLIFIC_PID"\r\n\r\n${ids.PROLIFIC_PID}\r\n--b--\r\n`;
  for (const path of ["/prolific/task", "/prolific/screening"]) {
    for (const [body, contentType] of [
      [multipart.slice(0, 60), "multipart/form-data; boundary=b"],
      [JSON.stringify(ids), "application/json"],
    ]) {
      const res = await request.post(path, { headers: { "Content-Type": contentType! }, data: body, maxRedirects: 0 });
      expect(res.status(), `${path} ${contentType}`).toBe(400);
      expect(await res.text()).toContain("The answers could not be read");
      expectSecurityHeaders(res.headers());
    }
  }
});

test("sign-in keeps `next` on the site: /\\evil.example, a tab, a newline", async ({ page }) => {
  const email = uniqueEmail("next");
  await seedUser({ email, password: "next-password-123" });
  for (const next of ["/\\evil.example", "/\t/evil.example", "/\n/evil.example", "%2F%2Fevil.example"]) {
    await page.context().clearCookies();
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("next-password-123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/events$/);
  }
});

test("a session cookie copied before sign-out is refused after it; a password change ends the other sessions", async ({ page, browser }) => {
  const email = uniqueEmail("copy");
  await seedUser({ email, password: "copy-password-123" });
  await signInAs(page, email, "copy-password-123");
  const copied = (await page.context().cookies()).filter((c) => c.name === "accord_session");
  expect(copied).toHaveLength(1);

  const thief = await browser.newContext();
  await thief.addCookies(copied);
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/events");
  await expect(thiefPage.getByTestId("current-user")).toBeVisible(); // the copy works while the session lives

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await thiefPage.goto("/events");
  await expect(thiefPage).toHaveURL(/\/signin$/);

  // Two browsers signed in; the password changed in one signs the other out.
  await signInAs(page, email, "copy-password-123");
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signInAs(otherPage, email, "copy-password-123");
  await page.goto("/account");
  await page.getByLabel("Current password").fill("copy-password-123");
  await page.getByLabel("New password").fill("copy-password-456");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. 1 other session was signed out.")).toBeVisible();
  await screenshot(page, "account-password-changed");
  await otherPage.goto("/events");
  await expect(otherPage).toHaveURL(/\/signin$/);
  await page.goto("/events");
  await expect(page.getByTestId("current-user")).toBeVisible();
  await thief.close();
  await other.close();
});
