import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { labelKeys } from "@/lib/task/label-keys";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 20's acceptance over rendered pages: an in-house event whose rules are not the paper's (5 gold + 15 unknown,
// gold ≥ 8/10, label ≥ 3/4, at most 4 judgments, a qualification test of 8 passed at 6) shows its own numbers on every page that states a
// rule — events list, overview (rules, qualification card, publish panel), HITs, a HIT, agreement, data, settings,
// workers, the annotator's qualification test and HIT — and in the HumAID README and manifest, and never one of the
// paper's. Then the researcher changes a rule on the Settings page and finds the change in the history and manifest.

const SETTINGS = { hitSize: 20, goldPerHit: 5, maxJudgmentsPerTweet: 4, assignmentApproval: "8/10", tweetAcceptance: "3/4", qualification: { questions: 8, passCorrect: 6 } };

/** The paper's numbers, as any page would print them; none may appear for this event. */
const PAPER_NUMBERS: Array<[string, RegExp]> = [
  ["2/3", /(?<![\d/.])2\/3(?![\d/])/],
  ["7/10", /(?<![\d/.])7\/10(?!\d)/],
  ["14/20", /(?<![\d/.])14\/20(?!\d)/],
  ["6/10", /(?<![\d/.])6\/10(?!\d)/],
  ["10 gold", /(?<![\d.,])10 gold/],
  ["20 unknown", /(?<![\d.,])20 unknown/],
  ["30 tweets", /(?<![\d.,])30 tweets/],
  // (not a count of rejections, as the gold-rule comparison prints: "7 of 10 rejections")
  ["7 of 10", /(?<![\d.,])7 of (its )?10(?!\d)(?! rejections)/],
  ["6 of 10", /(?<![\d.,])6 of 10(?!\d)(?! rejections)/],
  ["66.7%", /66\.7%/],
  ["3–5 per tweet", /3–5 per tweet/],
  ["up to 5", /up to 5(?!\d)/],
];

async function mainText(page: Page, { without = [] }: { without?: string[] } = {}): Promise<string> {
  return page.locator("main").evaluate((main, drop) => {
    for (const id of drop) for (const el of main.querySelectorAll(`[data-testid="${id}"]`)) el.remove();
    return (main as HTMLElement).innerText;
  }, without);
}

function expectOwnNumbers(text: string, where: string) {
  for (const [name, re] of PAPER_NUMBERS) expect(re.test(text), `${where} prints the paper's "${name}": …${text.slice(Math.max(0, text.search(re) - 80), text.search(re) + 40)}…`).toBe(false);
}

const password = "rule-texts-password-1";
let researcher: string;
let ev: EventFixture;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  researcher = uniqueEmail("rules");
  await seedUser({ email: researcher, password, role: "researcher", name: "Rule Reader" });
  ev = await seedEventFixture(e2eDb(), {
    slug: "e2e_rules_cyclone",
    name: "Rules test cyclone",
    type: "cyclone",
    provider: "local",
    tweets: 400,
    gold: 40,
    idBase: 1_650_000_000_000_000_000n,
    settings: SETTINGS,
    // A crowd of its own: the Workers table shows each worker's odds under the event they worked most in.
    campaign: { hits: 10, seed: 23, crowd: "rule-texts" },
  });
});

test("every page that states a rule prints the event's own numbers, never the paper's", async ({ page }) => {
  test.setTimeout(240_000);
  const base = `/events/${ev.slug}`;
  await signInAs(page, researcher, password);

  await page.goto("/events");
  await expect(page.getByTestId("event-row").filter({ hasText: "Rules test cyclone" })).toHaveCount(1);
  expectOwnNumbers(await mainText(page), "the events list");

  await page.goto(base);
  await expect(page.getByTestId("event-rules")).toContainText("Each HIT has 20 tweets: 5 gold + 15 unknown");
  await expect(page.getByTestId("event-rules")).toContainText("at least 4 of its 5 gold tweets are right (≥ 8/10, 80%)");
  await expect(page.getByTestId("event-rules")).toContainText("at least 3/4 (75%) of the tweet's approved judgments");
  await expect(page.getByTestId("event-rules")).toContainText("at least 11 of its 15 unknown tweets");
  await expect(page.getByTestId("gold-rule-risk")).toContainText("With 4 of 5 gold needed");
  await expect(page.getByText("8 gold tweets of this event; a worker passes with at least 6 correct.")).toBeVisible();
  await expect(page.getByText(/Each HIT: 5 gold \+ 15 unknown tweets\./)).toBeVisible();
  await expect(page.getByText(/an accepted label \(≥ 3\/4 agree\)/)).toBeVisible();
  await expect(page.getByText(/by the gold rule \(≥ 8\/10 correct\)/)).toBeVisible();
  await screenshot(page, "rules-overview-non-default");
  expectOwnNumbers(await mainText(page), "the overview");

  await page.goto(`${base}/hits`);
  await expect(page.getByText(/Each HIT: 5 gold \+ 15 unknown tweets\..*approved at ≥ 11\/15/)).toBeVisible();
  expectOwnNumbers(await mainText(page), "the HITs list");

  await page.goto(`${base}/hits/1`);
  await expect(page.getByRole("heading", { name: "The 20 tweets and every answer" })).toBeVisible();
  await expect(page.getByText(/graded on its 5 gold tweets: approved at ≥ 8\/10 \(4 of 5\) correct/)).toBeVisible();
  await expect(page.getByText(/unknown tweets \(HIT approved at ≥ 11\/15\)/)).toBeVisible();
  await expect(page.getByText(/the accepted label \(≥ 3\/4 of approved answers\)/)).toBeVisible();
  // Vote counts in the tables ("2/3 (67%)": two of a tweet's three votes) are data, not rules: checked without them.
  expectOwnNumbers(await mainText(page, { without: ["hit-items"] }), "a HIT's page");

  await page.goto(`${base}/agreement`);
  await expect(page.getByTestId("metric-alpha")).toContainText("3–4 per tweet");
  // The per-label table's shares ("66.7%": 2 of 3 judgments) are data, not rules.
  expectOwnNumbers(await mainText(page, { without: ["per-label"] }), "the agreement page");
  // The replay runs as a recorded job: the button starts it, the page shows its progress, then its result.
  await expect(page.getByTestId("replay-none")).toBeVisible();
  await page.getByTestId("replay-start").click();
  // The replay compares the event's rules with others (the label rules it tries include the paper's): its own row first.
  const own = page.getByTestId("replay-table").locator("tbody tr").first();
  await expect(own).toContainText("8/10 (this event)", { timeout: 60_000 });
  await expect(page.getByTestId("replay-start")).toBeEnabled();
  await expect(page.getByTestId("replay-when")).toContainText(/^Replayed .+ over \d+ decided HITs, under the rules of then: gold rule ≥ 8\/10 correct, label rule ≥ 3\/4, HIT rule ≥ 11\/15/);
  await expect(page.getByTestId("replay-result")).toHaveAttribute("data-stale", "0");
  await screenshot(page, "rules-agreement-replay");
  await expect(own).toContainText("3/4");
  expectOwnNumbers(await mainText(page, { without: ["replay-table", "per-label"] }), "the agreement page with the replay");

  await page.goto(`${base}/data`);
  await expect(page.getByText(/OTHERWISE-GOOD workers \(≥ 8\/10 on the other gold/)).toBeVisible();
  expectOwnNumbers(await mainText(page, { without: ["tweets-table", "gold-health"] }), "the data page");

  await page.goto(`${base}/settings`);
  await expect(page.getByTestId("procedure-settings-form")).toBeVisible();
  await expect(page.getByLabel("Gold tweets per HIT")).toHaveValue("5");
  await expect(page.getByLabel("Accept a tweet's label at (agreeing share)")).toHaveValue("3/4");
  await expect(page.getByTestId("procedure-settings-form").getByTestId("gold-rule-risk")).toContainText("With 4 of 5 gold needed");
  // Point 5: the whole-record rule is a choice, with what it would have changed among this event's rejections.
  await expect(page.getByLabel("Gold rule that decides assignments")).toHaveValue("per-hit");
  await expect(page.getByTestId("gold-rule-effect")).toContainText(/Of this event's \d+ graded assignments?, the whole-record rule would have changed \d+ of the per-HIT rule's \d+ rejections?/);
  expectOwnNumbers(await mainText(page), "the settings page");

  // The workers table: a worker of this event, with the odds under its gold rule.
  const worker = await e2eDb().assignment.findFirstOrThrow({ where: { hit: { eventId: ev.eventId }, goldTotal: { not: null } }, select: { worker: { select: { externalId: true } } } });
  await page.goto(`/workers?q=${worker.worker.externalId}`);
  await expect(page.getByTestId("worker-odds").first()).toContainText(`≥ 8/10 of 5 gold (${ev.slug})`);
  await expect(page.getByTestId("worker-odds").first()).toContainText(/\d+\.\d% next HIT/);
  // The table's counts ("2/3": two of three assignments approved) are data; its rule column and the page are not.
  expectOwnNumbers(await page.getByTestId("worker-odds").first().innerText(), "the workers table's rule column");
  expectOwnNumbers(await mainText(page, { without: ["workers-table"] }), "the workers page");
});

test("a rule changed on the Settings page is recorded and travels with the exports", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, researcher, password);
  await page.goto(`/events/${ev.slug}/settings`);
  await page.getByLabel("Below the approval threshold").selectOption("hold");
  await page.getByTestId("procedure-settings-form").getByLabel("Why (optional, kept with the change)").fill("pilot: review low gold scores by hand");
  await page.getByRole("button", { name: "Save the rules" }).click();
  await expect(page.getByRole("status")).toContainText("Saved 1 change to the rules of Rules test cyclone.");
  const history = page.getByTestId("setting-changes");
  await expect(history.locator("tbody tr")).toHaveCount(1);
  await expect(history).toContainText("belowThresholdAction");
  await expect(history).toContainText(researcher);
  await expect(history.locator("tbody tr").first().locator("td")).toHaveText([/UTC$/, researcher, "belowThresholdAction", "reject", "hold", "pilot: review low gold scores by hand"]);
  await expect(page.getByTestId("event-rules")).toContainText("below that it is held for a researcher's review");
  await screenshot(page, "rules-settings-changed");
  // The replay of the first test ran under the old rules: the Agreement page keeps it, marked stale.
  await page.goto(`/events/${ev.slug}/agreement`);
  await expect(page.getByTestId("replay-stale")).toContainText("Stale: the event's rules changed since this replay (belowThresholdAction)");
  await page.goto(`/events/${ev.slug}/settings`);

  const menu = page.locator("details").filter({ hasText: "Downloads ▾" });
  await menu.locator("summary").click();
  let waiting = page.waitForEvent("download");
  await page.getByRole("link", { name: "HumAID format: train/dev/test (zip)" }).click();
  const zip = unzipSync(fs.readFileSync((await (await waiting).path()) as string));
  const readme = strFromU8(zip["README.md"]);
  expect(readme).toContain("Each HIT has 20 tweets: 5 gold + 15 unknown");
  expect(readme).toContain("at least 4 of its 5 gold tweets are right (≥ 8/10, 80%)");
  expect(readme).toContain("at least 3/4 (75%)");
  expectOwnNumbers(readme, "the HumAID README");
  const manifest = JSON.parse(strFromU8(zip["manifest.json"]));
  const own = manifest.events.find((e: { slug: string }) => e.slug === ev.slug);
  expect(own.settings).toMatchObject({ goldPerHit: 5, unknownPerHit: 15, assignmentApproval: { num: 8, den: 10 }, tweetAcceptance: { num: 3, den: 4 }, belowThresholdAction: "hold" });
  expect(own.settingChanges.at(-1)).toMatchObject({ by: researcher, scope: "procedure", key: "belowThresholdAction", from: "reject", to: "hold", reason: "pilot: review low gold scores by hand" });

  // A CSV with its manifest: the plain CSV and manifest.json in one zip.
  if (!(await menu.evaluate((d) => (d as HTMLDetailsElement).open))) await menu.locator("summary").click();
  waiting = page.waitForEvent("download");
  await page.getByRole("link", { name: "Agreed labels with the procedure manifest (zip)" }).click();
  const bundle = await waiting;
  expect(bundle.suggestedFilename()).toMatch(/^e2e_rules_cyclone_agreed_labels_\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(fs.readFileSync((await bundle.path()) as string));
  const names = Object.keys(files).sort();
  expect(names).toEqual([bundle.suggestedFilename().replace(/\.zip$/, ".csv"), "manifest.json"]);
  expect(strFromU8(files[names[0]]).split("\n")[0]).toBe("tweet_id,tweet_text,class_label,event,agreement,judgments,votes");
  expect(JSON.parse(strFromU8(files["manifest.json"])).events[0].settingChanges.at(-1).key).toBe("belowThresholdAction");

  // The upload filtering is editable too, for the next upload, and recorded beside the rules.
  const filtering = page.getByTestId("ingest-settings-form");
  await expect(filtering.getByLabel("Minimum words")).toHaveValue("3");
  await filtering.getByLabel("Minimum words").fill("4");
  await filtering.getByLabel("Why (optional, kept with the change)").fill("pilot kept three-word tweets");
  await filtering.getByRole("button", { name: "Save the upload filtering" }).click();
  await expect(filtering.getByRole("status")).toContainText("Saved 1 change to the upload filtering of Rules test cyclone; it applies from the next upload.");
  await expect(history.locator("tbody tr")).toHaveCount(2);
  await expect(history).toContainText("wordCount.minWords");
  await expect(page.getByTestId("ingest-settings-form").getByLabel("Minimum words")).toHaveValue("4");

  // Point 5: the whole-record gold rule chosen on the same page; the rules then say it, from the settings.
  await page.goto(`/events/${ev.slug}/settings`);
  await page.getByLabel("Gold rule that decides assignments").selectOption("whole-record");
  await page.getByLabel(/Whole-record rule: reject when/).fill("90");
  await page.getByRole("button", { name: "Save the rules" }).click();
  await expect(page.getByRole("status")).toContainText("Saved 2 changes to the rules of Rules test cyclone.");
  await expect(history).toContainText("goldRule");
  await expect(page.getByTestId("event-rules")).toContainText("it is held for a researcher's review when, under a uniform prior, the probability that the worker's accuracy is below 8/10 (80%) exceeds 90%");
  await expect(page.getByLabel("Gold rule that decides assignments")).toHaveValue("whole-record");
  expectOwnNumbers(await mainText(page), "the settings page with the whole-record rule");
  // Back to the per-HIT rule for the tests that follow.
  await page.getByLabel("Gold rule that decides assignments").selectOption("per-hit");
  await page.getByRole("button", { name: "Save the rules" }).click();
  await expect(page.getByRole("status")).toContainText("Saved 1 change");
});

test("the annotator's qualification test and HIT say the event's numbers", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const db = e2eDb();
  await signInAs(page, researcher, password);
  await page.goto(`/events/${ev.slug}`);
  await page.getByRole("button", { name: "Create the qualification test" }).click();
  await expect(page.getByTestId("qualification-status")).toContainText("Active", { timeout: 60_000 });
  await expect(page.getByTestId("qualification-status")).toContainText("8 questions");
  await page.getByLabel("HITs", { exact: true }).fill("1");
  await page.getByRole("button", { name: "Estimate cost" }).click();
  await expect(page.getByTestId("cost-estimate")).toContainText("1 HIT", { timeout: 30_000 });
  expectOwnNumbers(await mainText(page), "the publish panel with an estimate");
  const published = () => db.hit.count({ where: { eventId: ev.eventId, providerHitId: { not: null } } });
  const before = await published();
  await page.getByRole("button", { name: /^Publish 1 HIT/ }).click();
  await expect.poll(published, { timeout: 120_000 }).toBe(before + 1);

  const annotator = uniqueEmail("rules-annotator");
  await seedUser({ email: annotator, password: "annotator-password-1", role: "annotator", name: "Rules Annotator" });
  const context = await browser.newContext();
  const worker = await context.newPage();
  await signInAs(worker, annotator, "annotator-password-1");
  // The task list shows every in-house event's test: this event's is named after it.
  await worker.locator("header").filter({ hasText: "Qualification test: Accord Rules test cyclone" }).getByRole("link", { name: "Take the test" }).click();
  await expect(worker.locator("fieldset")).toHaveCount(8);
  await expect(worker.getByText("You need at least 6 of 8 correct answers")).toBeVisible();
  expectOwnNumbers(await mainText(worker), "the qualification test");
  const test_ = await db.qualificationTest.findFirstOrThrow({ where: { eventId: ev.eventId, status: "active" }, select: { goldTweetIds: true } });
  const gold = await db.tweet.findMany({ where: { id: { in: test_.goldTweetIds as string[] } }, select: { id: true, goldLabel: true } });
  const labelOf = new Map(gold.map((g) => [g.id, g.goldLabel as string]));
  const keys = labelKeys(HUMAID_LABELS.length);
  await expect(worker.getByTestId("qualification-form")).toHaveAttribute("data-ready", "true");
  for (const id of test_.goldTweetIds as string[]) await worker.keyboard.press(keys[HUMAID_LABELS.findIndex((l) => l.value === labelOf.get(id))]);
  await worker.getByRole("button", { name: "Submit the test" }).click();
  await expect(worker.getByTestId("test-result").getByRole("heading", { name: "You passed" })).toBeVisible();
  await worker.goto("/task");
  await expect(worker.getByTestId("available-hit").filter({ hasText: "Rules test cyclone" })).toHaveCount(1);
  expectOwnNumbers(await mainText(worker), "the annotator's task list");
  await worker.getByRole("button", { name: "Start the next HIT" }).click();
  await expect(worker.getByTestId("workbench")).toHaveAttribute("data-ready", "true");
  await expect(worker.getByTestId("tweet-position")).toHaveText("Tweet 1 of 20");
  await expect(worker.getByRole("button", { name: "Submit 20 labels" })).toBeVisible();
  await screenshot(worker, "rules-annotator-hit");
  expectOwnNumbers(await mainText(worker), "the annotator's HIT");
  await context.close();
});
