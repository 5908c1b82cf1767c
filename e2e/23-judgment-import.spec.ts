import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { crowdflowerReport } from "@/lib/ingest/judgments/testing/fixtures";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// A researcher imports a CrowdFlower-style full report into a new event: the preview names the format and the
// personal columns that are never stored, the labels outside the scheme are mapped there, the import runs as a
// job, and the Overview and the Agreement tab (Table 3, Dawid–Skene against majority vote, the replay) read the imported work.

test("import a CrowdFlower report: preview, label mapping, Table 3, Dawid–Skene, replay", async ({ page }) => {
  test.setTimeout(300_000);
  const email = uniqueEmail("judgments");
  const password = "judgments-password-1";
  await seedUser({ email, password, role: "researcher", name: "Judgment importer" });
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  const slug = `e2e_judgments_${Date.now().toString(36)}`;
  await db.event.create({
    data: { slug, name: "Hurricane Sandy (imported)", type: "hurricane", locations: [], schemeId, settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object, filters: {} },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-judgments-e2e-"));
  const file = path.join(dir, "sandy-full-report.csv");
  fs.writeFileSync(file, crowdflowerReport({ units: 16 }));

  await signInAs(page, email, password);
  await page.goto(`/events/${slug}/data`);
  await page.locator("#judgmentsFile").setInputFiles(file);
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("form", { name: "Judgment import preview" });
  await expect(preview).toContainText("CrowdFlower / Figure Eight / Appen full report");
  await expect(preview.getByTestId("personal-columns-note")).toHaveText("Personal columns are never stored: _country, _region, _city, _ip are left out of the import.");
  await expect(preview).not.toContainText("192.0.2.");
  await preview.getByLabel("Map Infrastructure damage").selectOption("infrastructure_and_utility_damage");
  await preview.getByLabel("Map Rescue / volunteering").selectOption("rescue_volunteering_or_donation_effort");
  await preview.getByLabel("Map Not related").selectOption("not_humanitarian");
  await preview.getByLabel("Repeat judgments (a worker judged a tweet twice)").selectOption("first");
  await screenshot(page, "23-judgment-import-preview");
  await preview.getByRole("button", { name: "Import judgments" }).click();
  await expect(page.getByText(/Importing the judgments of sandy-full-report\.csv/)).toBeVisible();

  await expect.poll(async () => (await db.importBatch.findFirst({ where: { event: { slug }, kind: "judgments" }, select: { status: true } }))?.status, { timeout: 120_000 }).toBe("completed");
  const ips = await db.tweet.count({ where: { event: { slug }, text: { contains: "192.0.2." } } });
  expect(ips).toBe(0);

  await page.goto(`/events/${slug}`);
  await expect(page.getByTestId("imported-from")).toContainText("Imported from CrowdFlower / Figure Eight / Appen full report sandy-full-report.csv (48 judgments)");

  await page.goto(`/events/${slug}/agreement`);
  await expect(page.getByTestId("metric-kappa")).not.toContainText("–");
  await expect(page.getByTestId("table3")).toContainText("Fleiss κ");
  // Dawid–Skene against majority vote, from the background analysis (the page refreshes when it is done)
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("mv-ds-counts")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000 });
  await expect(page.getByTestId("mv-ds-counts")).toContainText("Tweets");
  // the replay of the imported work under other thresholds (a recorded job)
  await page.getByTestId("replay-start").click();
  await expect(page.getByTestId("replay-table").locator("tbody tr").first()).toContainText("(this event)", { timeout: 60_000 });
  await expect(page.getByTestId("replay-when")).toContainText(/over \d+ decided HITs/);
  await screenshot(page, "23-judgment-import-agreement");
  fs.rmSync(dir, { recursive: true, force: true });
});
