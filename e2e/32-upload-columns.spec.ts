import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { crowdflowerTweets } from "@/lib/ingest/testing/unrecognised-columns";
import { CF_LABEL_MAP, crowdflowerReport } from "@/lib/ingest/judgments/testing/fixtures";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 33 item 3: a tweet file whose columns Accord does not recognise (a CrowdFlower job's units: _unit_id,
// tweet_no, tweet, …) is previewed on the Data tab instead of refused; the researcher picks the columns and the import
// completes. A TweetEval split's three files chosen together upload as one set and go through the label mapping.

async function newEvent(prefix: string) {
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  const slug = `${prefix}_${Date.now().toString(36)}`;
  await db.event.create({ data: { slug, name: `Columns test ${slug}`, type: "hurricane", locations: [], schemeId, settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object, filters: {} } });
  return { db, slug };
}

test("a file with unrecognised columns: preview, column choice, import completes", async ({ page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("columns");
  const password = "columns-password-1";
  await seedUser({ email, password, role: "researcher", name: "Column mapper" });
  const { db, slug } = await newEvent("e2e_columns");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-columns-e2e-"));
  const file = path.join(dir, "sandy-units.csv");
  fs.writeFileSync(file, crowdflowerTweets({ rows: 6, malformed: true }));

  await signInAs(page, email, password);
  await page.goto(`/events/${slug}/data`);
  await page.locator("input#file").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and import" }).click();
  const preview = page.getByTestId("column-preview");
  await expect(preview).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("upload-form").getByRole("status")).toContainText("does not recognise the tweet id column of sandy-units.csv");
  await expect(preview.getByTestId("column-preview-rows")).toContainText("tweet_no");
  await expect(preview.getByTestId("column-preview-rows")).toContainText("Volunteers needed at the high school shelter");
  expect(await db.importBatch.count({ where: { event: { slug } } })).toBe(0);

  await preview.getByLabel("Tweet id column").selectOption("tweet_no");
  await expect(preview.getByLabel("Tweet text column")).toHaveValue("tweet");
  await preview.getByLabel("Label column").selectOption("choose_one_category");
  await preview.getByLabel("Date column").selectOption("tweet_created");
  await preview.getByLabel("Location column").selectOption("tweet_location");
  await screenshot(page, "32-column-preview");
  await preview.getByRole("button", { name: "Import with these columns" }).click();
  await expect(page.getByTestId("upload-form").getByRole("status")).toContainText("Importing sandy-units.csv with the columns you chose");
  await expect(preview).toHaveCount(0);

  const row = page.getByTestId("import-row").filter({ hasText: "sandy-units.csv" }).first();
  await expect(row.getByText("completed", { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(row.getByTestId("import-funnel")).toContainText("stored");
  const batch = await db.importBatch.findFirstOrThrow({ where: { event: { slug } } });
  expect(batch).toMatchObject({ status: "completed", rowsRead: 7, rowsStored: 6, errorCount: 1 });
  const tweet = await db.tweet.findFirstOrThrow({ where: { event: { slug }, externalId: "263000000000000002" } });
  expect(tweet).toMatchObject({ text: "Volunteers needed at the high school shelter, bring blankets", userLocation: "Hoboken, NJ", sourceLabel: "rescue_volunteering_or_donation_effort" });
  await expect(page.getByTestId("tweets-table")).toContainText("263000000000000002");
  // remembered for the event: the filtering settings name the mapping
  await expect(page.getByTestId("column-mapping")).toContainText("id ← tweet_no, text ← tweet, label ← choose_one_category, date ← tweet_created, location ← tweet_location");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a TweetEval split (text, labels, mapping) uploads as one set and its labels are mapped", async ({ page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("tweeteval");
  const password = "tweeteval-password-1";
  await seedUser({ email, password, role: "researcher", name: "TweetEval uploader" });
  const { db, slug } = await newEvent("e2e_tweeteval");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-tweeteval-e2e-"));
  const texts = ["Power is back on in our street, so grateful to the crews", "This storm is the worst thing that happened to our town", "The bridge reopens on Monday according to the county"];
  fs.writeFileSync(path.join(dir, "val_text.txt"), texts.join("\n") + "\n");
  fs.writeFileSync(path.join(dir, "val_labels.txt"), "2\n0\n1\n");
  fs.writeFileSync(path.join(dir, "mapping.txt"), "0\tnegative\n1\tneutral\n2\tpositive\n");

  await signInAs(page, email, password);
  await page.goto(`/events/${slug}/data`);
  await page.locator("input#file").setInputFiles(["val_text.txt", "val_labels.txt", "mapping.txt"].map((n) => path.join(dir, n)));
  await page.getByLabel("TweetEval task").fill("sentiment");
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.getByTestId("upload-form").getByRole("status")).toContainText("Uploaded the TweetEval split sentiment/val_text.txt+val_labels.txt", { timeout: 60_000 });

  const row = page.getByTestId("import-row").filter({ hasText: "sentiment/val_text.txt+val_labels.txt" }).first();
  await expect(row.getByText("needs mapping", { exact: true })).toBeVisible({ timeout: 60_000 });
  const form = row.getByTestId("label-map-form");
  for (const label of ["negative", "neutral", "positive"]) await form.getByLabel(`Map "${label}"`).selectOption("keep");
  await form.getByRole("button", { name: "Save the label map and import" }).click();
  await expect(row.getByText(/^completed/)).toBeVisible({ timeout: 120_000 });
  const tweets = await db.tweet.findMany({ where: { event: { slug } }, orderBy: { externalId: "asc" }, select: { externalId: true, sourceLabel: true } });
  expect(tweets).toEqual([
    { externalId: "tweeteval:sentiment:val:1", sourceLabel: "positive" },
    { externalId: "tweeteval:sentiment:val:2", sourceLabel: "negative" },
    { externalId: "tweeteval:sentiment:val:3", sourceLabel: "neutral" },
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an imported event's tweets without an accepted label go back to the publish queue from the Overview", async ({ page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("collectmore");
  const password = "collect-more-password-1";
  await seedUser({ email, password, role: "researcher", name: "Collector" });
  const { db, slug } = await newEvent("e2e_collect_more");
  await db.event.update({ where: { slug }, data: { filters: { labels: { map: CF_LABEL_MAP } } } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-collect-more-e2e-"));
  const file = path.join(dir, "sandy-two-workers.csv");
  // two workers per unit, three judgments asked per tweet: none of the 6 non-gold units has an accepted label yet
  fs.writeFileSync(file, crowdflowerReport({ units: 8, workersPerUnit: 2, repeats: 0 }));

  await signInAs(page, email, password);
  await page.goto(`/events/${slug}/data`);
  await page.locator("#judgmentsFile").setInputFiles(file);
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("form", { name: "Judgment import preview" }).getByRole("button", { name: "Import judgments" }).click();
  await expect.poll(async () => (await db.importBatch.findFirst({ where: { event: { slug }, kind: "judgments" }, select: { status: true } }))?.status, { timeout: 120_000 }).toBe("completed");

  await page.goto(`/events/${slug}`);
  await expect(page.getByTestId("imported-from")).toContainText("sandy-two-workers.csv");
  await expect(page.getByTestId("campaign-state")).toHaveCount(0); // no live status for work run elsewhere
  const collect = page.getByTestId("collect-more");
  await expect(collect).toContainText("6 imported tweets have no accepted label");
  await expect(collect).toContainText("A HIT takes 20 tweets to label: lower the HIT size in Settings first.");
  await collect.getByRole("button", { name: "Collect more judgments on a crowd" }).click();
  await expect(collect.getByRole("status")).toContainText("6 tweets without an accepted label are back in the publish queue");
  expect(await db.tweet.count({ where: { event: { slug }, role: "unknown", status: "pending" } })).toBe(6);
  fs.rmSync(dir, { recursive: true, force: true });
});
