import { expect, test } from "@playwright/test";
import { seedEventFixture } from "@/lib/demo/fixture";
import { LLM_RUN_STATUS, TWEET_ROLE } from "@/lib/db/enums";
import { E2E_LLM_SIMULATOR_PORT } from "./env";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 32 in a browser: an admin enters the language model endpoint in Settings (its key never appears again), then
// a researcher adds LLM labels to an event from its Data tab: the job is queued, its progress shows, and the run's
// summary (model, gold accuracy, no answers, tokens, cost) is shown. The endpoint is the app's embedded simulator.

const BASE_URL = `http://127.0.0.1:${E2E_LLM_SIMULATOR_PORT}/v1`;

test("an admin sets the LLM endpoint with a write-only key; a researcher adds LLM labels and sees the run's summary", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const db = e2eDb();
  const admin = { email: uniqueEmail("llm-admin"), password: "llm-admin-password-1" };
  const researcher = { email: uniqueEmail("llm-researcher"), password: "llm-researcher-password-1" };
  await seedUser({ ...admin, role: "admin", name: "LLM Admin" });
  await seedUser({ ...researcher, role: "researcher", name: "LLM Researcher" });
  const key = "sk-e2e-LLM-key-never-shown-0123456789";

  await signInAs(page, admin.email, admin.password);
  await page.goto("/settings");
  const form = page.getByTestId("llm-form");
  await expect(form.getByLabel("Base URL")).toHaveValue(BASE_URL);
  await expect(form.getByLabel("Model")).toHaveValue("accord-sim-1");
  await form.getByLabel("API key").fill(key);
  await form.getByLabel("Price per million input tokens").fill("2.5");
  await form.getByLabel("Price per million output tokens").fill("10");
  await form.getByRole("button", { name: "Save and check connection" }).click();
  // The embedded simulator restarts with the new key, and the check gets through with it.
  await expect(form.getByRole("status")).toContainText(`Connected to ${BASE_URL}: model "accord-sim-1" is available.`);
  await page.reload();
  await expect(page.getByTestId("llm-form").getByLabel("API key")).toHaveValue("");
  await expect(page.getByTestId("llm-form")).toContainText("A key is saved.");
  expect(await page.content()).not.toContain(key);
  const stored = await db.setting.findUniqueOrThrow({ where: { key: "llm.apiKey" } });
  expect(stored.secret).toBeTruthy();
  expect(stored.secret).not.toContain(key);
  await screenshot(page, "llm-settings");

  const ev = await seedEventFixture(db, { slug: "e2e_llm_labels", name: "LLM labels floods", provider: "local", tweets: 400, gold: 23, idBase: 1_670_000_000_000_000_000n });
  const context = await browser.newContext();
  const rpage = await context.newPage();
  await signInAs(rpage, researcher.email, researcher.password);
  await rpage.goto(`/events/${ev.slug}/data`);
  const card = rpage.getByTestId("add-llm-labels");
  await card.getByRole("button", { name: "Add LLM labels" }).click();
  await expect(card.getByRole("status")).toContainText("LLM labelling queued");
  const run = rpage.getByTestId("llm-run").first();
  await expect(run).toBeVisible();
  // Progress: while the run is queued or running the card says so and refreshes itself; it ends done.
  await expect(run).toHaveAttribute("data-status", /queued|running|done/);
  await expect(run).toHaveAttribute("data-status", LLM_RUN_STATUS.done, { timeout: 180_000 });
  await screenshot(rpage, "llm-run-done");

  const row = await db.llmRun.findFirstOrThrow({ where: { eventId: ev.eventId }, orderBy: { createdAt: "desc" } });
  expect(row.status).toBe(LLM_RUN_STATUS.done);
  const unknown = await db.tweet.count({ where: { eventId: ev.eventId, role: TWEET_ROLE.unknown } });
  expect(row.tweetsLabelled).toBe(row.tweetsTotal);
  expect(row.tweetsTotal).toBe(unknown + 20);
  expect(row.promptTokens).toBeGreaterThan(0);
  await expect(run.getByTestId("llm-run-model")).toHaveText("accord-sim-1");
  await expect(run.getByTestId("llm-run-gold")).toContainText(`(${row.goldCorrect}/${row.goldTotal})`);
  await expect(run.getByTestId("llm-run-no-answer")).toHaveText(String(row.noAnswer));
  await expect(run.getByTestId("llm-run-tokens")).toContainText(`${row.promptTokens.toLocaleString("en-US")} in, ${row.completionTokens.toLocaleString("en-US")} out`);
  const entry = await db.costEntry.findUniqueOrThrow({ where: { reference: `llm:${row.id}` } });
  expect(entry.amountCents).toBeGreaterThan(0);
  await expect(run.getByTestId("llm-run-cost")).toHaveText(`$${(entry.amountCents / 100).toFixed(2)}`);
  expect(await rpage.content()).not.toContain(key);
  await context.close();
});
