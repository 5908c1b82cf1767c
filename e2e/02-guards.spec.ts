import { expect, test } from "@playwright/test";
import { appRoutes, PUBLIC_PAGES, PUBLIC_ROUTES } from "./routes";

const { pages, handlers } = appRoutes();

test("the app has the pages the guard test must cover", () => {
  expect(pages).toEqual(expect.arrayContaining(["/", "/events", "/workers", "/settings", "/signin", "/setup"]));
});

test("every page refuses a signed-out visitor (redirect to sign-in)", async ({ request }) => {
  const checked: string[] = [];
  for (const url of pages.filter((p) => !PUBLIC_PAGES.has(p))) {
    const res = await request.get(url, { maxRedirects: 0 });
    expect([303, 307, 308], `${url} answered ${res.status()}`).toContain(res.status());
    expect(res.headers()["location"], url).toMatch(/\/signin(\?|$)/);
    checked.push(url);
  }
  expect(checked.length).toBeGreaterThanOrEqual(5);
});

test("every route handler refuses a signed-out request with 401", async ({ request }) => {
  for (const { url, methods } of handlers.filter((h) => !PUBLIC_ROUTES.has(h.url))) {
    for (const method of methods) {
      const res = await request.fetch(url, { method, maxRedirects: 0, data: method === "GET" ? undefined : {} });
      expect(res.status(), `${method} ${url}`).toBe(401);
    }
  }
});

test("a forged session cookie is not accepted", async ({ request }) => {
  const res = await request.get("/events", { maxRedirects: 0, headers: { cookie: "accord_session=Fe26.2**forged**value" } });
  expect(res.status()).toBe(307);
  expect(res.headers()["location"]).toMatch(/\/signin/);
});
