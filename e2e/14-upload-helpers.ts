import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { writeCrisisLexT26 } from "@/lib/ingest/testing/synthetic-datasets";

/**
 * Tweets for the upload tests: a CrisisLexT26-style event file of 1,200 generated tweets about the 2013
 * Queensland floods (lib/ingest/testing, seeded: the same file every run), and a gold file made from other
 * rows of the same file with their CrisisLex information type mapped to a HumAID label.
 */
let written: string | undefined;

export function crisisLexFile(): string {
  written ??= writeCrisisLexT26(fs.mkdtempSync(path.join(os.tmpdir(), "accord-crisislex-")));
  return written;
}

const TO_HUMAID: Record<string, string> = {
  "Caution and advice": "caution_and_advice",
  "Sympathy and support": "sympathy_and_support",
  "Donations and volunteering": "rescue_volunteering_or_donation_effort",
  "Infrastructure and utilities": "infrastructure_and_utility_damage",
  "Other Useful Information": "other_relevant_information",
  "Not applicable": "not_humanitarian",
};

/** Writes a gold CSV (tweet_id,text,label) of up to `count` distinct original tweets; returns its path and ids. */
export function writeGoldFile(count = 40): { file: string; ids: string[] } {
  const source = crisisLexFile();
  const rows = parse(fs.readFileSync(source, "utf8"), { from_line: 2 }) as string[][];
  const perLabel = new Map<string, number>();
  const seenText = new Set<string>();
  const picked: Array<[string, string, string]> = [];
  for (const [id, text, , type] of rows) {
    const label = TO_HUMAID[type];
    const key = text.toLowerCase().replace(/https?:\/\/\S+/g, "").slice(0, 60);
    if (!label || text.startsWith("RT ") || seenText.has(key) || text.split(/\s+/).length < 6) continue;
    if ((perLabel.get(label) ?? 0) >= Math.ceil(count / 5)) continue;
    seenText.add(key);
    perLabel.set(label, (perLabel.get(label) ?? 0) + 1);
    picked.push([id.replace(/"/g, ""), text, label]);
    if (picked.length >= count) break;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "accord-gold-"));
  const file = path.join(dir, path.basename(source).replace(/-tweets_labeled\.csv$/, "-gold.csv"));
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  fs.writeFileSync(file, ["tweet_id,text,label", ...picked.map((r) => r.map(quote).join(","))].join("\n") + "\n");
  return { file, ids: picked.map((r) => r[0]) };
}

/** Uploads a file on the event's Data tab and waits until its import completed; returns the import's row. */
export async function uploadOnDataTab(page: Page, { file, kind }: { file: string; kind: "tweets" | "gold" }) {
  await page.getByLabel("What is it?").selectOption(kind);
  await page.locator("input#file").setInputFiles(file);
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.getByTestId("upload-form").getByRole("status")).toContainText("the import is running", { timeout: 60_000 });
  const row = page.getByTestId("import-row").filter({ hasText: path.basename(file) }).first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText("completed", { exact: true })).toBeVisible({ timeout: 120_000 });
  return row;
}
