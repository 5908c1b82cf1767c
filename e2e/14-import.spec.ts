import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { screenshot, signInAs } from "./helpers";
import { crisisLexFile, uploadOnDataTab, writeGoldFile } from "./14-upload-helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// A researcher uploads gold tweets and a CrisisLexT26 file on the Data tab: each import runs as a job, then
// shows its funnel (rows read → each filtering step → stored) and a downloadable per-row error report; the
// tweets table fills in; importing the same file again adds nothing and says so.

test("upload gold and a CrisisLexT26 CSV: funnel, row errors, tweets table, same file twice", async ({ page }) => {
  test.setTimeout(300_000);
  const email = uniqueEmail("importer");
  const password = "importer-password-1";
  await seedUser({ email, password, role: "researcher", name: "Importer" });
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  await db.event.create({
    data: {
      slug: "e2e_import_qld",
      name: "Queensland floods 2013 (import test)",
      type: "flood",
      startDate: new Date("2013-01-10T00:00:00Z"),
      endDate: new Date("2013-02-10T23:59:59Z"),
      locations: [{ name: "Queensland", aliases: ["QLD", "Brisbane", "Bundaberg"] }, { name: "Australia", aliases: ["AU"] }],
      schemeId,
      settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object,
      filters: { labels: { outsideScheme: "ignore" } },
    },
  });
  const gold = writeGoldFile(40);
  await signInAs(page, email, password);
  await page.goto("/events/e2e_import_qld/data");

  const goldRow = await uploadOnDataTab(page, { file: gold.file, kind: "gold" });
  await expect(goldRow.getByTestId("import-funnel")).toContainText("stored");
  const storedGold = await db.tweet.count({ where: { event: { slug: "e2e_import_qld" }, role: "gold" } });
  expect(storedGold).toBeGreaterThanOrEqual(30);

  const tweetsRow = await uploadOnDataTab(page, { file: crisisLexFile(), kind: "tweets" });
  await expect(tweetsRow).toContainText("crisislex-csv");
  await expect(tweetsRow).toContainText("1,200 read");
  const funnel = tweetsRow.getByTestId("import-funnel");
  for (const step of ["rows read", "valid rows", "date range", "location", "language", "word count", "near-duplicates", "stored"]) await expect(funnel).toContainText(step);
  await screenshot(page, "import-funnel");

  // The tweets that are also gold are refused row by row; the report downloads as CSV.
  const waiting = page.waitForEvent("download");
  await tweetsRow.getByRole("link", { name: /row errors \(CSV\)/ }).click();
  const report = fs.readFileSync((await (await waiting).path()) as string, "utf8");
  const errors = parse(report) as string[][];
  expect(errors[0]).toEqual(["line", "column", "reason", "raw"]);
  expect(errors.slice(1).filter((e) => /already imported/.test(e[2])).length).toBe(storedGold);

  const stored = await db.tweet.count({ where: { event: { slug: "e2e_import_qld" }, role: "unknown" } });
  await expect(page.getByText(`${(stored + storedGold).toLocaleString("en-US")} matching. Sorted by`)).toBeVisible();
  await expect(page.getByTestId("tweet-row")).toHaveCount(50);

  // The same file again: nothing new, and the page says so.
  const again = await uploadOnDataTab(page, { file: crisisLexFile(), kind: "tweets" });
  await expect(again).toContainText("already imported");
  expect(await db.tweet.count({ where: { event: { slug: "e2e_import_qld" }, role: "unknown" } })).toBe(stored);
  await screenshot(page, "import-twice");
});
