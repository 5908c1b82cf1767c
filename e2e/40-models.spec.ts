import { parse } from "csv-parse/sync";
import { expect, test } from "@playwright/test";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { DEMO_EVENTS } from "@/lib/demo/generate";
import { classificationReport } from "@/lib/metrics/classification";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// A researcher trains a baseline classifier on a finished (synthetic) campaign's accepted labels, reads its
// Table-7 scores, per-class scores and confusion matrix, downloads its test split, uploads predictions for
// it and gets the scores per event and overall with the unmatched ids and bad rows reported.

const password = "models-password-123";
let email: string;
let ev: EventFixture;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  email = uniqueEmail("models");
  await seedUser({ email, password, role: "researcher", name: "Model Trainer" });
  ev = await seedEventFixture(e2eDb(), {
    slug: "e2e_models_flood",
    name: "Models test floods",
    type: "flood",
    spec: DEMO_EVENTS[1],
    tweets: 700,
    gold: 30,
    idBase: 1_720_000_000_000_000_000n,
    campaign: { hits: 30, seed: 41 },
  });
});

test("train a model on an event's accepted labels, see its scores, upload predictions for its test split", async ({ page }) => {
  test.setTimeout(180_000);
  const accepted = await e2eDb().acceptedLabel.count({ where: { eventId: ev.eventId, tweet: { role: "unknown" } } });
  expect(accepted).toBeGreaterThan(300);

  await signInAs(page, email, password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Models", exact: true }).click();
  await expect(page).toHaveURL(/\/models$/);
  const form = page.getByTestId("train-form");
  // Nothing chosen: the field error is shown next to the events.
  await form.getByLabel("Model name").fill("e2e-baseline");
  await form.getByRole("button", { name: "Train model" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Choose at least one event." })).toBeVisible();

  await form.getByLabel("Model name").fill("e2e-baseline");
  await form.getByRole("checkbox", { name: /Models test floods/ }).check();
  await form.getByRole("button", { name: "Train model" }).click();
  await expect(form.getByRole("status")).toContainText('Training "e2e-baseline" started');
  // The job runs in the server's worker; the page refreshes itself while it runs.
  const job = page.getByTestId("training-job").filter({ hasText: "e2e-baseline" }).first();
  await expect(job).toHaveAttribute("data-state", "succeeded", { timeout: 90_000 });
  await expect(job).toContainText(/saved e2e-baseline v1: weighted F1 (0\.\d{3}|1\.000) on test/);
  await expect(page.getByTestId("model-row").filter({ hasText: "e2e-baseline v1" })).toContainText("Models test floods");
  await screenshot(page, "models-list");

  await job.getByRole("link", { name: "open model →" }).click();
  await expect(page.getByTestId("model-title")).toHaveText("e2e-baseline v1");
  const modelId = page.url().split("/models/")[1];
  const stored = await e2eDb().classifierModel.findUniqueOrThrow({ where: { id: modelId }, select: { scores: true } });
  const storedF1 = (stored.scores as { overall: { weighted: { f1: number } } }).overall.weighted.f1;
  await expect(page.getByTestId("model-scores")).toContainText(storedF1.toFixed(3));
  await expect(page.getByTestId("model-table7").getByTestId("table7-row")).toHaveCount(1);
  await expect(page.getByTestId("per-class")).toContainText("Weighted average");
  await expect(page.getByTestId("confusion-matrix")).toBeVisible();
  await expect(page.getByTestId("training-data")).toContainText(/\d+ train · \d+ dev · \d+ test/);
  await screenshot(page, "model-detail");

  // The test split, downloaded as CSV, then predictions for it: one in four wrong, plus an id outside the
  // split and a row without a label.
  const download = await page.request.get(`/models/${modelId}/test-split`);
  expect(download.status()).toBe(200);
  const rows = parse(await download.text(), { columns: true }) as Array<{ tweet_id: string; class_label: string }>;
  expect(rows.length).toBeGreaterThan(40);
  const pred = rows.map((r, i) => (i % 4 === 0 ? (r.class_label === "not_humanitarian" ? "sympathy_and_support" : "not_humanitarian") : r.class_label));
  const csv = ["tweet_id,label", ...rows.map((r, i) => `${r.tweet_id},${pred[i]}`), "42,not_humanitarian", "43,"].join("\n");
  const expected = classificationReport({ gold: rows.map((r) => r.class_label), pred }).weighted;

  const evaluate = page.getByTestId("evaluate-form");
  await evaluate.locator('input[type="file"]').setInputFiles({ name: "predictions.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await evaluate.getByRole("button", { name: "Score predictions" }).click();
  const result = page.getByTestId("evaluation-result");
  await expect(result).toBeVisible();
  const overall = result.getByTestId("table7-overall");
  await expect(overall).toContainText(expected.f1.toFixed(3));
  await expect(overall).toContainText(expected.precision.toFixed(3));
  await expect(overall).toContainText(expected.recall.toFixed(3));
  await expect(result.getByTestId("table7-row")).toContainText("Models test floods");
  await expect(result.getByTestId("unmatched")).toContainText("1 predicted tweet id is not in the split");
  await expect(result.getByTestId("unmatched")).toContainText("42");
  await expect(result.getByTestId("row-errors")).toContainText(`line ${rows.length + 3}: the label is empty`);
  await expect(page.getByRole("status").filter({ hasText: "Scored" })).toContainText(`Scored ${rows.length} predictions of predictions.csv`);
  await screenshot(page, "model-predictions-scored");
});
