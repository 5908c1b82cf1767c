import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import type { Funnel } from "@/lib/ingest/funnel";
import { formatBytes } from "@/lib/ingest/limits";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// A researcher uploads a file in CrisisLexT26's own layout and labels: the import pauses on the labels that are not
// in the event's scheme, the researcher maps them in the form (drop, a scheme label, or keep as a new label), and the
// import then runs with every row accounted for and no "label not in scheme" errors.

const FIXTURE = path.resolve("e2e/fixtures/crisislex-t26-sample.csv");

test("a CrisisLexT26 file: labels mapped in the upload form, every row accounted for", async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("mapper");
  const password = "mapper-password-1";
  await seedUser({ email, password, role: "researcher", name: "Mapper" });
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  const slug = `e2e_map_${Date.now()}`;
  await db.event.create({
    data: { slug, name: "Queensland floods (label map test)", type: "flood", locations: [], schemeId, settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object, filters: {} },
  });
  await signInAs(page, email, password);
  await page.goto(`/events/${slug}/data`);

  await page.getByLabel("What is it?").selectOption("tweets");
  await page.locator("input#file").setInputFiles(FIXTURE);
  await page.getByRole("button", { name: "Upload and import" }).click();
  const row = page.getByTestId("import-row").filter({ hasText: "crisislex-t26-sample.csv" }).first();
  await expect(row.getByText("needs mapping", { exact: true })).toBeVisible({ timeout: 60_000 });
  const form = row.getByTestId("label-map-form");
  await expect(form.getByRole("row", { name: /Not labeled\s+13/ })).toBeVisible();
  await expect(form.getByRole("row", { name: /Sympathy and support/ })).toHaveCount(0); // in the scheme already

  await form.getByLabel('Map "Not labeled"').selectOption("drop");
  await form.getByLabel('Map "Not applicable"').selectOption({ label: "Not humanitarian" });
  await form.getByLabel('Map "Other Useful Information"').selectOption({ label: "Other relevant information" });
  await form.getByLabel('Map "Donations and volunteering"').selectOption({ label: "Rescue, volunteering, or donation effort" });
  await form.getByLabel('Map "Infrastructure and utilities"').selectOption({ label: "Infrastructure and utility damage" });
  await form.getByLabel('Map "Affected individuals"').selectOption("keep");
  await screenshot(page, "label-map-form");
  await form.getByRole("button", { name: "Save the label map and import" }).click();

  await expect(row.getByText(/^completed/)).toBeVisible({ timeout: 120_000 });
  const funnel = row.getByTestId("import-funnel");
  await expect(funnel).toContainText("label map");
  await expect(funnel).toContainText('label "Not labeled" mapped to drop: 13');
  await expect(page.getByTestId("filter-settings")).toContainText("Not labeled → drop");

  // Every row accounted for: stored + each step's removed rows (errors included) = rows read; no label errors.
  const batch = await db.importBatch.findFirstOrThrow({ where: { event: { slug } }, include: { errors: true } });
  expect(batch.rowsRead).toBe(36);
  const steps = batch.funnel as unknown as Funnel;
  const removed = steps.filter((s) => s.step !== "read" && s.step !== "stored").reduce((n, s) => n + s.removed, 0);
  expect(batch.rowsStored + removed).toBe(batch.rowsRead);
  expect(steps.find((s) => s.step === "valid")?.removed).toBe(batch.errorCount);
  expect(batch.errors.filter((e) => /not in the/.test(e.reason))).toEqual([]);
  expect(await db.tweet.count({ where: { event: { slug }, sourceLabel: "Affected individuals" } })).toBeGreaterThan(0);
  expect(await db.settingChange.count({ where: { event: { slug }, scope: "ingest" } })).toBe(6);

  // Issue 19: a stricter word count on the Settings page, then "Re-run" from the kept upload: the new funnel, the
  // import's tweets replaced (no second import), the mapped labels reused.
  const wordsBefore = steps.find((s) => s.step === "wordCount")?.removed ?? 0;
  await page.goto(`/events/${slug}/settings`);
  const filtering = page.getByTestId("ingest-settings-form");
  await filtering.getByLabel("Minimum words").fill("12");
  await filtering.getByRole("button", { name: "Save the upload filtering" }).click();
  await expect(filtering.getByRole("status")).toContainText("Saved 1 change to the upload filtering");
  await page.goto(`/events/${slug}/data`);
  await expect(page.getByTestId("filter-settings")).toContainText("Words: at least 12");
  // The kept upload and the disk it takes are named above the list.
  await expect(page.getByTestId("kept-uploads")).toContainText(`1 uploaded file is kept on the server for re-runs (${formatBytes(batch.fileSize)})`);
  await row.getByRole("button", { name: "Re-run with the current settings" }).click();
  await expect(row.getByTestId("import-message")).toContainText("Re-run with the event's current settings:", { timeout: 120_000 });
  const rerun = await db.importBatch.findFirstOrThrow({ where: { event: { slug } } });
  expect(await db.importBatch.count({ where: { event: { slug } } })).toBe(1);
  const rerunSteps = rerun.funnel as unknown as Funnel;
  expect(rerunSteps.find((s) => s.step === "wordCount")?.removed).toBeGreaterThan(wordsBefore);
  expect(rerun.rowsStored).toBeLessThan(batch.rowsStored);
  expect(await db.tweet.count({ where: { importId: rerun.id } })).toBe(rerun.rowsStored);
  await expect(row).toContainText(`36 read → ${rerun.rowsStored} stored`);
  await expect(row.getByTestId("import-funnel")).toContainText('label "Not labeled" mapped to drop: 13');
  await screenshot(page, "import-rerun");
});
