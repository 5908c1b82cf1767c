import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { seedEventFixture } from "@/lib/demo/fixture";
import { seedLlmRun } from "@/lib/llm-compare/seed-llm-run";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 32, items 3 and 4 in a browser: a researcher reads the LLM-vs-crowd panel of an event with LLM labels
// (κ with its interval, the confusion table, where they disagree), then the two workers the echo test flags:
// on the Workers page, and on the worker's page with the evidence tweets.

test("the LLM-vs-crowd panel and the workers flagged as echoing the LLM", async ({ page }) => {
  test.setTimeout(300_000);
  const db = e2eDb();
  const email = uniqueEmail("llm-compare");
  const password = "llm-compare-password-1";
  await seedUser({ email, password, role: "viewer", name: "LLM Reader" });
  const ev = await seedEventFixture(db, { slug: "e2e_llm_compare", name: "LLM compare floods", tweets: 600, gold: 30, idBase: 1_680_000_000_000_000_000n, campaign: { hits: 30, seed: 5 } });
  const { echoWorkerIds } = await seedLlmRun(db, { eventId: ev.eventId, truth: ev.truth, seed: 3, echoWorkers: 2 });
  const echo = await db.worker.findMany({ where: { id: { in: echoWorkerIds } }, select: { id: true, externalId: true }, orderBy: { externalId: "asc" } });
  await seedEventFixture(db, { slug: "e2e_llm_none", name: "No LLM yet", tweets: 20, gold: 5, idBase: 1_681_000_000_000_000_000n });

  await signInAs(page, email, password);
  await page.goto(`/events/${ev.slug}/agreement`);
  const panel = page.getByTestId("llm-compare");
  await expect(panel).toBeVisible();
  await expect(page.getByTestId("llm-kappa")).toContainText(/0\.\d{3}/);
  await expect(page.getByTestId("llm-kappa")).toContainText(/95% bootstrap interval 0\.\d{3} – 0\.\d{3}/);
  await expect(page.getByTestId("llm-gold-accuracy")).toContainText(/LLM \d+(\.\d)?%/);
  await expect(page.getByTestId("llm-gold-accuracy")).toContainText("/30 gold tweets");
  await expect(page.getByTestId("llm-cost")).toContainText("USD");
  await expect(page.getByTestId("llm-confusion").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("llm-disagreements").locator("tbody tr").first()).toContainText("→");
  const summary = page.getByTestId("llm-echo-summary");
  await expect(summary).toContainText("2 flagged");
  for (const w of echo) await expect(summary.getByRole("link", { name: w.externalId })).toBeVisible();
  await screenshot(page, "llm-compare-panel");
  // The same report as `accord llm compare --json`, downloaded.
  const waiting = page.waitForEvent("download");
  await page.getByTestId("llm-compare-download").click();
  const download = await waiting;
  expect(download.suggestedFilename()).toMatch(/^e2e_llm_compare_llm_compare_.*\.json$/);
  const json = JSON.parse(fs.readFileSync((await download.path()) as string, "utf8"));
  expect(json.event).toBe(ev.slug);
  expect(json.echo.flagged).toBe(2);

  // The flagged worker on the Workers page, then on their own page with the evidence.
  await summary.getByRole("link", { name: echo[0].externalId }).click();
  await expect(page).toHaveURL(new RegExp(`/workers\\?q=${echo[0].externalId}`));
  const flag = page.getByTestId("worker-echo-flag");
  await expect(flag).toContainText(`${ev.slug}:`);
  await expect(flag).toContainText("p adj.");
  await screenshot(page, "workers-echo-flag");
  await flag.click();
  await expect(page).toHaveURL(new RegExp(`/workers/${echo[0].id}$`));
  const testCard = page.getByTestId("echo-test");
  await expect(testCard).toHaveAttribute("data-flagged", "1");
  await expect(page.getByText("echoes the LLM")).toBeVisible();
  await expect(page.getByTestId("echo-evidence").locator("tbody tr").first()).toBeVisible();
  await screenshot(page, "worker-echo-evidence");

  // An event without an LLM run says how to add one.
  await page.goto("/events/e2e_llm_none/agreement");
  await expect(page.getByTestId("llm-compare-empty")).toContainText("accord llm label --event e2e_llm_none");
});
