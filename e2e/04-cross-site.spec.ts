import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { E2E_PORT } from "./env";
import { signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 30 item 7: a page on another port of the same host (same site, so the researcher's SameSite=Lax cookie goes
// along) posts a file to the upload route while the researcher is signed in; Accord refuses it and imports nothing.

async function makeEvent(slug: string) {
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  await db.event.deleteMany({ where: { slug } });
  return db.event.create({ data: { slug, name: slug, type: "flood", schemeId, settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object, filters: {}, locations: [] } });
}

const TSV = "tweet_id\ttweet_text\n1900000000000000001\tFlood water rising near the bridge, roads closed\n";

/**
 * The other site: one page whose script first reads a signed-in-only route (to show the cookie goes along), then
 * posts to `target` as the attacker did, and says when it is done.
 */
async function otherSite(probe: string, target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const html = `<!doctype html><title>waiting</title><script>
    const body = new FormData();
    body.set("file", new Blob([${JSON.stringify(TSV)}], { type: "text/tab-separated-values" }), "tweets.tsv");
    fetch(${JSON.stringify(probe)}, { mode: "no-cors", credentials: "include" })
      .then(() => fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", credentials: "include", body }))
      .then(() => { document.title = "sent"; }, (e) => { document.title = "failed: " + e; });
  </script>`;
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  expect(port).not.toBe(E2E_PORT);
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test("a page on another port cannot upload into an event as the signed-in researcher; Accord's own page can", async ({ page }) => {
  const email = uniqueEmail("xsite");
  await seedUser({ email, password: "xsite-password-123", role: "researcher" });
  await signInAs(page, email, "xsite-password-123");
  const event = await makeEvent("e2e_cross_site");
  const uploadUrl = (eventId: string) => `http://127.0.0.1:${E2E_PORT}/api/imports?eventId=${eventId}&kind=tweets&name=tweets.tsv`;

  // The attack: the browser sends the request (with the cookie) and the server answers it: 403.
  const probe = `http://127.0.0.1:${E2E_PORT}/api/jobs/no-such-job`;
  const site = await otherSite(probe, uploadUrl(event.id));
  try {
    const probed = page.waitForResponse((r) => r.url() === probe);
    const answered = page.waitForResponse((r) => r.url().startsWith(uploadUrl(event.id)) && r.request().method() === "POST");
    await page.goto(site.url);
    // 404, not 401: the other port's requests carry the researcher's session (same site, SameSite=Lax).
    expect((await probed).status()).toBe(404);
    expect((await answered).status()).toBe(403);
    await expect(page).toHaveTitle("sent");
  } finally {
    await site.close();
  }
  expect(await e2eDb().importBatch.count({ where: { eventId: event.id } })).toBe(0);
  await page.goto(`/events/${event.slug}/data`);
  await expect(page.getByTestId("import-row")).toHaveCount(0);

  // The control: the same request from Accord's own page is accepted (so the refusal above is the origin check).
  const control = await makeEvent("e2e_cross_site_control");
  const status = await page.evaluate(
    async ([url, tsv]) => (await fetch(url, { method: "POST", credentials: "include", body: tsv })).status,
    [uploadUrl(control.id), TSV] as const,
  );
  expect(status).toBe(201);
  expect(await e2eDb().importBatch.count({ where: { eventId: control.id } })).toBe(1);
});

test("the refusal says why; a request without browser markers (a script, the CLI) is judged by its session alone", async ({ page, request }) => {
  const email = uniqueEmail("xsite-api");
  await seedUser({ email, password: "xsite-password-123", role: "researcher" });
  await signInAs(page, email, "xsite-password-123");
  const event = await makeEvent("e2e_cross_site_api");
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const url = `/api/imports?eventId=${event.id}&kind=tweets&name=tweets.tsv`;
  for (const headers of [{ Origin: "http://127.0.0.1:1" }, { "Sec-Fetch-Site": "same-site" }, { Referer: "http://evil.example/page" }, { Origin: "null" }] as Record<string, string>[]) {
    const res = await request.post(url, { headers: { ...headers, Cookie: cookie }, data: TSV });
    expect(res.status(), JSON.stringify(headers)).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Refused: it came from .*, not from Accord's own pages/);
    expect(res.headers()["x-frame-options"]).toBe("DENY");
  }
  expect(await e2eDb().importBatch.count({ where: { eventId: event.id } })).toBe(0);
  // Without a session the route still answers 401, whatever the origin check says.
  expect((await request.post(url, { headers: { Origin: `http://127.0.0.1:${E2E_PORT}` }, data: TSV })).status()).toBe(401);
});
