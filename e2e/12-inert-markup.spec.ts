import { expect, test } from "@playwright/test";
import { seedEventFixture } from "@/lib/demo/fixture";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Tweet text is untrusted: markup and script in it must show as text on every page and never run.

const PAYLOADS = [
  `<script>window.__xss = "script"; alert("xss")</script> Shelter at the school needs water`,
  `Bridge closed <img src=x onerror="window.__xss='img'; alert('img')"> near Route 9 tonight`,
  `<iframe src="javascript:window.__xss='iframe'"></iframe> power lines down on Market Street`,
  `<a href="javascript:window.__xss='link'">click</a> <b>bold</b> families evacuated from Riverton`,
];

test("markup in tweets is shown inert on the tweets table, gold health, a HIT and the Agreement tab", async ({ page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("xss");
  const password = "xss-password-1234";
  await seedUser({ email, password, role: "researcher", name: "Careful Reader" });
  const db = e2eDb();
  const ev = await seedEventFixture(db, {
    slug: "e2e_markup",
    name: "Markup test <b>event</b>",
    tweets: 200,
    gold: 20,
    idBase: 1_650_000_000_000_000_000n,
    textOf: (i, text) => (i < 40 ? `${PAYLOADS[i % PAYLOADS.length]} #${i}` : text),
    campaign: { hits: 8, seed: 21 },
  });
  // A gold tweet with markup too.
  const gold = await db.tweet.findFirstOrThrow({ where: { eventId: ev.eventId, role: "gold" }, orderBy: { externalId: "asc" } });
  await db.tweet.update({ where: { id: gold.id }, data: { text: `${PAYLOADS[1]} (gold)` } });
  const hitWithMarkup = await db.hitItem.findFirstOrThrow({ where: { hit: { eventId: ev.eventId }, tweet: { text: { contains: "<script>" } } }, select: { hit: { select: { seq: true } } } });

  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await signInAs(page, email, password);
  const check = async (url: string, shot: string) => {
    await page.goto(url);
    await expect(page.locator("body")).toContainText("<script>");
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.locator("main script:not([src])").filter({ hasText: "__xss" }).count()).toBe(0);
    expect(await page.locator("main img[src='x']").count()).toBe(0);
    expect(await page.locator("main iframe").count()).toBe(0);
    await screenshot(page, shot);
  };
  await check(`/events/${ev.slug}/data?q=${encodeURIComponent("<script>")}`, "inert-tweets-table");
  await expect(page.getByTestId("tweet-row").first()).toContainText(`window.__xss = "script"`);
  await expect(page.getByTestId("event-name")).toHaveText("Markup test <b>event</b>");
  await expect(page.getByTestId("gold-health")).toContainText(`onerror="window.__xss='img'; alert('img')"`);
  await check(`/events/${ev.slug}/hits/${hitWithMarkup.hit.seq}`, "inert-hit-detail");
  await page.goto(`/events/${ev.slug}/agreement`);
  await expect(page.getByTestId("mv-ds-counts")).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  await page.goto("/events");
  await expect(page.getByTestId("events-table")).toContainText("Markup test <b>event</b>");
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
});
