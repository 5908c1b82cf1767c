import { expect, test } from "@playwright/test";
import { seedEventFixture } from "@/lib/demo/fixture";
import { requestGoldChange } from "@/lib/gold/gold-requests";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 19 item 2, in a browser: an event whose upload carries labels → "make gold from labelled tweets" N per class
// (previewed, then confirmed) → mark and unmark one tweet in the Data tab → the qualification test built from that
// gold on the Overview, without leaving the app. The pool notice uses the event's own sizes (8 questions + 5 per HIT).

const SETTINGS = { hitSize: 20, goldPerHit: 5, qualification: { questions: 8, passCorrect: 6 } };
const PER_CLASS = 3;

test("make gold N per class, mark and unmark a tweet, then build the qualification test from it", async ({ page }) => {
  test.setTimeout(300_000);
  const db = e2eDb();
  const email = uniqueEmail("make-gold");
  const password = "make-gold-password-1";
  await seedUser({ email, password, role: "researcher", name: "Gold Maker" });
  const ev = await seedEventFixture(db, { slug: "e2e_make_gold", name: "Make gold floods", provider: "local", tweets: 150, gold: 0, idBase: 1_660_000_000_000_000_000n, settings: SETTINGS });
  // The tweets came with labels from their file (an upload's sourceLabel), none of them gold yet.
  const upload = await db.importBatch.create({
    data: { eventId: ev.eventId, kind: "tweets", fileName: "labelled-floods.csv", fileHash: "e2e-make-gold", fileSize: 1, status: "completed", rowsRead: 150, rowsStored: 150, finishedAt: new Date() },
  });
  for (const [id, label] of ev.truth) await db.tweet.update({ where: { id }, data: { importId: upload.id, sourceLabel: label } });
  const classes = new Map<string, number>();
  for (const label of ev.truth.values()) classes.set(label, (classes.get(label) ?? 0) + 1);
  const expected = [...classes.values()].reduce((s, n) => s + Math.min(n, PER_CLASS), 0);

  await signInAs(page, email, password);
  await page.goto(`/events/${ev.slug}/data`);
  await expect(page.getByTestId("gold-pool-small")).toContainText("the qualification test takes 8 and every HIT 5 more, so at least 13 are needed; there are 0");

  // Make gold: preview the per-class pick, then confirm it.
  const form = page.getByTestId("make-gold");
  await form.getByLabel("Per class").fill(String(PER_CLASS));
  await form.getByLabel("Seed").fill("7");
  await form.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByTestId("make-gold-preview");
  await expect(preview).toContainText(`${expected} become gold; ${150 - expected} of the upload's unknown tweets stay to annotate.`);
  await expect(preview.locator("tbody tr")).toHaveCount(classes.size);
  await screenshot(page, "make-gold-1-preview");
  await preview.getByRole("button", { name: `Make ${expected} gold tweets` }).click();
  await expect(preview.getByRole("status")).toContainText(`${expected} marked as gold`);
  expect(await db.tweet.count({ where: { eventId: ev.eventId, role: "gold" } })).toBe(expected);
  const perLabel = await db.tweet.groupBy({ by: ["goldLabel"], where: { eventId: ev.eventId, role: "gold" }, _count: { _all: true } });
  expect(Math.max(...perLabel.map((g) => g._count._all))).toBeLessThanOrEqual(PER_CLASS);
  // Gold health and the pool notice see it at once.
  await expect(page.getByTestId("gold-pool")).toContainText(`Active gold: ${expected}`);
  await expect(page.getByTestId("gold-row")).toHaveCount(Math.min(expected, 25));

  // Mark one unknown tweet gold from the table, then unmark it (never in a HIT: it goes back to annotate).
  const target = await db.tweet.findFirstOrThrow({ where: { eventId: ev.eventId, role: "unknown" }, orderBy: { externalId: "asc" }, select: { id: true, externalId: true, sourceLabel: true } });
  await page.getByLabel("Search text or tweet id").fill(target.externalId);
  await page.getByRole("button", { name: "Filter" }).click();
  const row = page.getByTestId("tweet-row");
  await expect(row).toHaveCount(1);
  await row.getByLabel("Expert label").selectOption("not_humanitarian");
  await row.getByRole("button", { name: "Mark gold", exact: true }).click();
  await expect(row.getByRole("button", { name: "Unmark gold" })).toBeVisible();
  await expect(row).toContainText("(expert)");
  expect(await db.tweet.findUniqueOrThrow({ where: { id: target.id }, select: { role: true, goldLabel: true } })).toEqual({ role: "gold", goldLabel: "not_humanitarian" });
  await expect(page.getByTestId("gold-pool")).toContainText(`Active gold: ${expected + 1}`);
  await screenshot(page, "make-gold-2-marked");
  await row.getByRole("button", { name: "Unmark gold" }).click();
  await expect(row.getByRole("button", { name: "Mark gold", exact: true })).toBeVisible();
  await expect(row).not.toContainText("(expert)");
  expect(await db.tweet.findUniqueOrThrow({ where: { id: target.id }, select: { role: true, goldLabel: true, status: true } })).toEqual({ role: "unknown", goldLabel: null, status: "pending" });
  const audit = await db.auditLog.findMany({ where: { eventId: ev.eventId, entityId: target.id }, orderBy: { at: "asc" }, select: { action: true } });
  expect(audit.map((a) => a.action)).toEqual(["mark-gold", "unmark-gold"]);

  // The qualification test, built from this gold on the Overview.
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("gold-pool")).toContainText(`Active gold: ${expected}`);
  await page.getByRole("button", { name: "Create the qualification test" }).click();
  await expect(page.getByTestId("qualification-status")).toContainText("Active", { timeout: 60_000 });
  await expect(page.getByTestId("qualification-status")).toContainText("8 questions");
  const qt = await db.qualificationTest.findFirstOrThrow({ where: { eventId: ev.eventId, status: "active" }, select: { goldTweetIds: true } });
  const goldIds = new Set((await db.tweet.findMany({ where: { eventId: ev.eventId, role: "gold" }, select: { id: true } })).map((t) => t.id));
  expect((qt.goldTweetIds as string[]).every((id) => goldIds.has(id))).toBe(true);
  await screenshot(page, "make-gold-3-qualification");

  // A bulk change large enough to run as a recorded job (the inline limit set to 0 here): the Data tab shows the
  // job that the server's runner picked up, and its finished result.
  const rest = await db.tweet.count({ where: { eventId: ev.eventId, role: "unknown", status: "pending" } });
  const queued = await requestGoldChange(db, { eventId: ev.eventId, actorId: null, request: { kind: "filter", mode: "mark", goldLabel: null, filter: { role: "unknown" } } }, 0);
  expect(queued.queued).toBe(true);
  await page.goto(`/events/${ev.slug}/data`);
  const job = page.getByTestId("gold-job").first();
  await expect(job).toContainText("mark as gold: tweets matching the filters");
  await expect(async () => {
    await page.reload();
    await expect(job.getByTestId("gold-job-result")).toHaveText(`${rest} marked as gold.`, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(job).toContainText("succeeded");
});
