import { expect, test } from "@playwright/test";
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

test("an over-long URL gets 414 at once", async ({ request }) => {
  for (const length of [9_000, 16_000]) {
    const started = Date.now();
    const res = await request.get(`/events?q=${"a".repeat(length)}`, { timeout: 10_000 });
    expect(res.status()).toBe(414);
    expect(Date.now() - started).toBeLessThan(5_000);
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
