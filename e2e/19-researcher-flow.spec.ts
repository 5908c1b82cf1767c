import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { screenshot, signInAs } from "./helpers";
import { crisisLexFile, uploadOnDataTab, writeGoldFile } from "./14-upload-helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 7's acceptance, as a new researcher would do it in a real browser: sign in → create an event → upload
// a CrisisLexT26 CSV and a gold file → see the import funnel → create the qualification test → estimate and
// publish 5 HITs to the simulator → watch decisions arrive on the Overview without reloading → the Agreement
// tab's four measures and charts → download the agreed-labels CSV and the HumAID zip and check them.

test("the researcher flow, from an empty account to downloaded agreed labels", async ({ page }) => {
  test.setTimeout(600_000);
  const email = uniqueEmail("researcher-flow");
  const password = "researcher-flow-pass-1";
  await seedUser({ email, password, role: "researcher", name: "New Researcher" });
  const db = e2eDb();

  // Sign in and create the event.
  await signInAs(page, email, password);
  await page.getByRole("link", { name: "New event" }).click();
  await expect(page).toHaveURL(/\/events\/new$/);
  await expect(page.getByLabel("Tweets per HIT", { exact: true })).toHaveValue("30");
  await page.getByLabel("Name", { exact: true }).fill("Queensland floods 2013 (flow)");
  await page.getByLabel("Type").fill("flood");
  await page.getByLabel("Start date").fill("2013-01-10");
  await page.getByLabel("End date").fill("2013-02-10");
  await page.getByLabel("Target locations", { exact: true }).fill("Queensland | QLD, Brisbane, Bundaberg, Rockhampton\nAustralia | AU");
  await page.getByLabel("Labels in tweet files outside the scheme").selectOption("keep");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page).toHaveURL(/\/events\/queensland_floods_2013_flow\/data$/);
  const event = await db.event.findUniqueOrThrow({ where: { slug: "queensland_floods_2013_flow" }, select: { id: true } });

  // Gold first, then the tweets; each shows its funnel.
  const gold = writeGoldFile(40);
  await uploadOnDataTab(page, { file: gold.file, kind: "gold" });
  const tweets = await uploadOnDataTab(page, { file: crisisLexFile(), kind: "tweets" });
  await expect(tweets.getByTestId("import-funnel")).toContainText("near-duplicates");
  await screenshot(page, "flow-1-import-funnel");
  const unknown = await db.tweet.count({ where: { eventId: event.id, role: "unknown" } });
  expect(unknown).toBeGreaterThanOrEqual(100);

  // Qualification test, then estimate and publish 5 HITs to the simulator.
  await page.getByRole("link", { name: "Overview" }).click();
  // The builder shows the test it will create: the questions and their answer key.
  const preview = page.getByTestId("qualification-preview");
  await preview.locator("summary").click();
  await expect(preview.locator("li")).toHaveCount(10);
  await expect(preview.locator("li").first()).toContainText("Answer key:");
  const previewed = (await preview.locator('input[name="goldTweetIds"]').inputValue()).split(",");
  await page.getByRole("button", { name: "Create the qualification test" }).click();
  await expect(page.getByTestId("qualification-status")).toContainText("Active", { timeout: 60_000 });
  const created = await db.qualificationTest.findFirstOrThrow({ where: { eventId: event.id, status: "active" }, select: { goldTweetIds: true } });
  expect(created.goldTweetIds).toEqual(previewed);
  await page.getByLabel("HITs", { exact: true }).fill("5");
  await page.getByRole("button", { name: "Estimate cost" }).click();
  await expect(page.getByTestId("cost-estimate")).toContainText("5 HITs", { timeout: 30_000 });
  await screenshot(page, "flow-2-estimate");
  await page.getByRole("button", { name: "Publish 5 HITs" }).click();
  await expect.poll(() => db.hit.count({ where: { eventId: event.id, providerHitId: { not: null } } }), { timeout: 120_000 }).toBe(5);
  // The banner follows the job to its end; the form is ready for the next batch (no stale estimate or button).
  await expect(page.getByTestId("publish-progress")).toContainText("5 HITs — done", { timeout: 60_000 });
  await expect(page.getByTestId("cost-estimate")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeDisabled();

  // Decisions arrive on the open Overview without a reload.
  await page.evaluate(() => ((window as unknown as { __noReload?: number }).__noReload = 1));
  const feed = page.getByTestId("decision-feed");
  await expect(feed.locator("tbody tr").first()).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  expect(Number(await page.getByTestId("live-status").getAttribute("data-updates"))).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);
  await expect(feed).toContainText(/gold tweets correct/);
  await screenshot(page, "flow-3-overview-live");

  // Wait for agreed labels, then the Agreement tab.
  await expect.poll(() => db.acceptedLabel.count({ where: { eventId: event.id } }), { timeout: 300_000, intervals: [2_000] }).toBeGreaterThan(0);
  await expect.poll(() => db.metricSnapshot.count({ where: { eventId: event.id, fleissKappa: { not: null } } }), { timeout: 120_000 }).toBeGreaterThan(0);
  await page.getByRole("link", { name: "Agreement" }).click();
  for (const id of ["metric-kappa", "metric-alpha", "metric-observed", "metric-majority"]) await expect(page.getByTestId(id)).toContainText(/-?\d\.\d{3}/);
  await expect(page.getByTestId("agreement-chart").locator(".recharts-wrapper > svg")).toBeVisible();
  await expect(page.getByTestId("label-distribution-chart").locator(".recharts-wrapper > svg")).toBeVisible();
  await expect(page.getByTestId("mv-ds-counts")).toBeVisible({ timeout: 60_000 });
  await screenshot(page, "flow-4-agreement");

  // Download the agreed labels and the HumAID zip, and check them against the database.
  const before = await db.acceptedLabel.count({ where: { eventId: event.id } });
  const menu = page.locator("details").filter({ hasText: "Downloads ▾" });
  await menu.locator("summary").click();
  let waiting = page.waitForEvent("download");
  await page.getByRole("link", { name: "Agreed labels (CSV)" }).click();
  const csv = fs.readFileSync((await (await waiting).path()) as string, "utf8");
  const after = await db.acceptedLabel.count({ where: { eventId: event.id } });
  const rows = parse(csv) as string[][];
  expect(rows[0]).toEqual(["tweet_id", "tweet_text", "class_label", "event", "agreement", "judgments", "votes"]);
  expect(rows.length - 1).toBeGreaterThanOrEqual(before);
  expect(rows.length - 1).toBeLessThanOrEqual(after);
  const goldIds = new Set(gold.ids);
  for (const r of rows.slice(1)) {
    expect(goldIds.has(r[0])).toBe(false);
    expect(r[3]).toBe("queensland_floods_2013_flow");
    expect(Number(r[4])).toBeGreaterThanOrEqual(2 / 3 - 1e-4);
    expect(r[6].split(";")[0]).toBe(`${r[2]}:${r[6].split(";")[0].split(":")[1]}`);
  }
  if (!(await menu.evaluate((d) => (d as HTMLDetailsElement).open))) await menu.locator("summary").click();
  waiting = page.waitForEvent("download");
  await page.getByRole("link", { name: "HumAID format: train/dev/test (zip)" }).click();
  const zip = unzipSync(fs.readFileSync((await (await waiting).path()) as string));
  expect(Object.keys(zip).sort()).toEqual([
    "README.md",
    "events/queensland_floods_2013_flow/queensland_floods_2013_flow_dev.tsv",
    "events/queensland_floods_2013_flow/queensland_floods_2013_flow_test.tsv",
    "events/queensland_floods_2013_flow/queensland_floods_2013_flow_train.tsv",
    "manifest.json",
  ]);
  const readme = strFromU8(zip["README.md"]);
  expect(readme).toContain("### Event: queensland_floods_2013_flow");
  for (const s of ["train", "dev", "test"]) {
    const lines = strFromU8(zip[`events/queensland_floods_2013_flow/queensland_floods_2013_flow_${s}.tsv`]).trimEnd().split("\n");
    expect(lines[0]).toBe("tweet_id\ttweet_text\tclass_label");
    for (const l of lines.slice(1)) expect(l.split("\t")).toHaveLength(3);
  }
  await page.getByRole("link", { name: "HITs" }).click();
  await expect(page.getByTestId("hit-row")).toHaveCount(5);
  await screenshot(page, "flow-5-hits");

  // One clock: on a decided HIT's page every assignment was accepted, then submitted, then decided, and the HIT
  // was decided after its assignments were submitted (the simulator's sped-up times are mapped to real time).
  const decided = await db.hit.findFirstOrThrow({ where: { eventId: event.id, decidedAt: { not: null } }, select: { seq: true } });
  await page.goto(`/events/queensland_floods_2013_flow/hits/${decided.seq}`);
  await expect(page.getByTestId("hit-why")).toBeVisible();
  const at = async (testId: string) => (await page.getByTestId(testId).evaluateAll((els) => els.map((e) => e.getAttribute("data-at")))).map((v) => (v ? Date.parse(v) : NaN));
  const [accepted, submitted, assignmentDecided, hitDecided] = [await at("accepted-at"), await at("submitted-at"), await at("decided-at"), await at("hit-decided-at")];
  expect(accepted.length).toBeGreaterThanOrEqual(1);
  for (let i = 0; i < accepted.length; i++) {
    expect(accepted[i]).toBeLessThanOrEqual(submitted[i]);
    expect(submitted[i]).toBeLessThanOrEqual(assignmentDecided[i]);
    expect(submitted[i]).toBeLessThanOrEqual(hitDecided[0]);
    expect(submitted[i]).toBeLessThanOrEqual(Date.now());
  }
  await screenshot(page, "flow-6-hit-times");
});
