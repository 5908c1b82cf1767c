import { expect, test } from "@playwright/test";

// The browser asks for /favicon.ico on every page: it is served from public/, and the pages link it and the SVG icon.

test("favicon.ico and the app icon are served and linked from every page", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  const bytes = await ico.body();
  expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 3, 0]); // ICO header: type icon, 3 images
  const svg = await request.get("/icon.svg");
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");

  const missing: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await page.goto("/signin");
  await expect(page.locator('link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
  await expect(page.locator('link[rel="icon"][href="/icon.svg"][type="image/svg+xml"]')).toHaveCount(1);
  expect(missing).toEqual([]);
});
