import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 19's upload page, in a browser with a slow uplink: a progress bar and a "leave this page?" guard while bytes go
// up (and none after), the import listed on a reload as soon as the server has the file, and an amber badge with a
// warning, not a green one, when more than half of the rows were dropped.

const ROWS = 20_000;

/** A TSV where four rows in five have two words (the word-count step drops them): about 1.2 MB. */
function mostlyShortFile(): string {
  const lines = ["tweet_id\ttweet_text"];
  for (let i = 0; i < ROWS; i++) lines.push(`${1_700_000_000_000_000_000n + BigInt(i)}\t${i % 5 === 0 ? `Water is rising near street ${i} in the north district` : "ok thanks"}`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "accord-e2e-upload-")), "mostly-short.tsv");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

test("upload progress and leave guard, the import on a reload once the server has the file, amber when most rows are dropped", async ({ page }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("uploader");
  const password = "uploader-password-1";
  await seedUser({ email, password, role: "researcher", name: "Uploader" });
  const db = e2eDb();
  const schemeId = await ensureHumaidScheme(db);
  const slug = `e2e_progress_${Date.now()}`;
  // Only the word count filters: the outcome does not depend on language detection, dates or near-duplicates.
  const filters = { date: { enabled: false }, location: { enabled: false }, language: { enabled: false }, duplicates: { enabled: false } };
  await db.event.create({ data: { slug, name: "Upload progress floods", type: "flood", locations: [], schemeId, settings: DEFAULT_PROCEDURE_SETTINGS as unknown as object, filters } });
  await signInAs(page, email, password);
  await page.goto(`/events/${slug}/data`);

  // A slow uplink (Chromium's network emulation): about 10 s for the file.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 120 * 1024 });
  const leaveGuarded = () =>
    page.evaluate(() => {
      const e = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    });

  await page.getByLabel("What is it?").selectOption("tweets");
  await page.locator("input#file").setInputFiles(mostlyShortFile());
  const uploaded = page.waitForResponse((r) => r.url().includes("/api/imports?") && r.request().method() === "POST", { timeout: 120_000 });
  await page.getByRole("button", { name: "Upload and import" }).click();
  const progress = page.getByTestId("upload-progress");
  await expect(progress).toBeVisible();
  await expect(progress.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Uploading…" })).toBeDisabled();
  expect(await leaveGuarded()).toBe(true);
  await screenshot(page, "upload-progress");

  expect((await uploaded).status()).toBe(201);
  await expect(progress).toHaveCount(0);
  expect(await leaveGuarded()).toBe(false);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // The server has the file: a reload lists the import at once, whatever its state.
  await page.reload();
  const row = page.getByTestId("import-row").filter({ hasText: "mostly-short.tsv" });
  await expect(row).toHaveCount(1);

  await expect(row.getByTestId("import-warning")).toContainText(`of ${ROWS.toLocaleString("en-US")} rows were stored (more than half were dropped)`, { timeout: 120_000 });
  const badge = row.getByText("completed", { exact: true });
  await expect(badge).toHaveClass(/amber/);
  await expect(badge).not.toHaveClass(/emerald/);
  const batch = await db.importBatch.findFirstOrThrow({ where: { event: { slug } } });
  expect(batch.rowsStored).toBe(ROWS / 5);
});
