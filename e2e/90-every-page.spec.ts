import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { getLocalCrowdProvider } from "@/lib/crowd/local/db-store";
import { seedEventFixture } from "@/lib/demo/fixture";
import { seedLlmRun } from "@/lib/llm-compare/seed-llm-run";
import { trainModelOnEvents } from "@/lib/models/train-job";
import { E2E_DATA_DIR } from "./env";
import { appRoutes } from "./routes";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";
import { createQualificationType, publishLocalHit } from "./task-fixtures";

// Every page of the app, as a researcher, an admin, an annotator and a signed-out visitor sees it, at desktop
// (1280 px) and phone (390 px) width: no horizontal overflow of the page, no serious or critical axe-core
// violation, and a screenshot of each in e2e/artifacts/screens.

const WIDTHS = [1280, 390] as const;
const password = "every-page-password-1";
// Seeded once per run: a failed test restarts the worker, whose beforeAll then reads what was seeded.
const SEED_FILE = path.join(E2E_DATA_DIR, "every-page-seed.json");
type Seeded = { researcher: string; admin: string; annotator: string; slug: string; modelId: string; typeId: string; workerId: string };
let seeded: Seeded;
const who = { get researcher() { return seeded.researcher; }, get admin() { return seeded.admin; }, get annotator() { return seeded.annotator; } };
const ev = { get slug() { return seeded.slug; } };

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (fs.existsSync(SEED_FILE)) {
    seeded = JSON.parse(fs.readFileSync(SEED_FILE, "utf8")) as Seeded;
    return;
  }
  const db = e2eDb();
  const emails = { researcher: uniqueEmail("pages-researcher"), admin: uniqueEmail("pages-admin"), annotator: uniqueEmail("pages-annotator") };
  await seedUser({ email: emails.researcher, password, role: "researcher", name: "Rita Researcher" });
  await seedUser({ email: emails.admin, password, role: "admin", name: "Ada Admin" });
  const annotator = await seedUser({ email: emails.annotator, password, role: "annotator", name: "Ann Every-Page" });
  // A long address, as a full test run leaves many: the users table must not widen the admin's page.
  await seedUser({ email: uniqueEmail("pages-someone-with-a-rather-long-institutional-address.department"), password, role: "researcher", name: "Maximiliane Longname-Researcher" });
  const event = await seedEventFixture(db, { slug: "e2e_every_page", name: "Every page earthquake", tweets: 700, gold: 30, idBase: 1_760_000_000_000_000_000n, campaign: { hits: 20, seed: 90 } });
  const { model } = await trainModelOnEvents(db, { request: { name: "every-page-model", eventIds: [event.eventId] } });
  // LLM labels and one worker echoing them: the Agreement page's LLM panel and a worker's page with evidence tweets.
  const { echoWorkerIds } = await seedLlmRun(db, { eventId: event.eventId, truth: event.truth, seed: 90, echoWorkers: 1 });
  const tag = `ep${Date.now().toString(36)}`;
  const typeId = await createQualificationType(tag);
  await publishLocalHit({ qualificationTypeId: typeId, tag, n: 12 });
  await getLocalCrowdProvider(db).grantQualification({ qualificationTypeId: typeId, workerId: annotator.id, value: 80 });
  seeded = { ...emails, slug: event.slug, modelId: model.id, typeId, workerId: echoWorkerIds[0] };
  fs.writeFileSync(SEED_FILE, JSON.stringify(seeded));
});

type Violation = { id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown; failureSummary?: string }> };

/**
 * True when the page is laid out as it will stay: fonts loaded, the browser idle (hydration and chart measuring
 * done) and the size unchanged over two frames and another idle moment. Slow machines just take more frames.
 */
async function layoutSettled(): Promise<boolean> {
  const idle = () => new Promise<void>((resolve) => requestIdleCallback(() => resolve()));
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  const size = () => `${document.documentElement.scrollWidth}x${document.documentElement.scrollHeight}`;
  await document.fonts.ready;
  await idle();
  const before = size();
  await frame();
  await frame();
  await idle();
  return size() === before;
}

/** Checks the open page at the current width: no horizontal overflow, no serious or critical axe violation. */
async function checkPage(page: Page, name: string) {
  await expect(page.locator("main, form").first()).toBeVisible();
  // Client charts and tables settle after hydration: wait until the page's size holds still (not for a fixed time).
  await page.waitForLoadState("load");
  await expect.poll(() => page.evaluate(layoutSettled), { timeout: 60_000 }).toBe(true);
  const width = page.viewportSize()?.width ?? 0;
  const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  // Soft: one run lists every page's problems.
  expect.soft(overflow.scroll, `${name} at ${width} px is ${overflow.scroll} px wide`).toBeLessThanOrEqual(overflow.client);
  // Only violations are collected (passes and incomplete results would slow big pages down on a busy machine).
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  const bad = (results.violations as Violation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 4).map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary?.split("\n").slice(1, 2).join(" ") ?? ""}`).join("\n")}`);
  expect.soft(report, `${name} at ${width} px`).toEqual([]);
  await screenshot(page, `page-${name}-${width}`);
}

async function visitAll(page: Page, pages: Array<[string, string]>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, url] of pages) {
      await page.goto(url);
      await checkPage(page, name);
    }
  }
}

test("the pages list covers every page of the app", () => {
  const covered = ["/signin", "/setup", "/forbidden", "/events", "/events/new", "/events/placeholder-x", "/events/placeholder-x/hits", "/events/placeholder-x/hits/placeholder-x", "/events/placeholder-x/agreement", "/events/placeholder-x/data", "/events/placeholder-x/settings", "/compare", "/workers", "/workers/placeholder-x", "/models", "/models/placeholder-x", "/account", "/settings", "/task", "/task/qualification/placeholder-x", "/task/work/placeholder-x", "/"];
  expect(appRoutes().pages.filter((p) => !covered.includes(p))).toEqual([]);
});

test("signed out: the sign-in page", async ({ page }) => {
  await visitAll(page, [["signin", "/signin"]]);
});

// One test per page (both widths), so that a slow page has its own time.
const RESEARCHER_PAGES: Array<[string, () => string]> = [
  ["events", () => "/events"],
  ["event-new", () => "/events/new"],
  ["event-overview", () => `/events/${ev.slug}`],
  ["event-hits", () => `/events/${ev.slug}/hits`],
  ["event-hit", () => `/events/${ev.slug}/hits/1`],
  ["event-agreement", () => `/events/${ev.slug}/agreement`],
  ["event-data", () => `/events/${ev.slug}/data`],
  ["event-settings", () => `/events/${ev.slug}/settings`],
  ["compare", () => "/compare"],
  ["workers", () => "/workers"],
  ["worker", () => `/workers/${seeded.workerId}`],
  ["models", () => "/models"],
  ["model", () => `/models/${seeded.modelId}`],
  ["account", () => "/account"],
  ["forbidden", () => "/forbidden"],
];

for (const [name, url] of RESEARCHER_PAGES) {
  test(`a researcher's page: ${name}`, async ({ page }) => {
    test.setTimeout(420_000);
    await signInAs(page, who.researcher, password);
    await visitAll(page, [[name, url()]]);
  });
}

test("an admin's settings page", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, who.admin, password);
  await visitAll(page, [["settings", "/settings"]]);
});

test("an annotator's task pages: the list, the qualification test and a HIT", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, who.annotator, password);
  await page.goto("/task");
  await page.getByRole("button", { name: "Start the next HIT" }).click();
  await expect(page).toHaveURL(/\/task\/work\/[^/]+$/);
  const work = new URL(page.url()).pathname;
  await visitAll(page, [
    ["task", "/task"],
    ["task-qualification", `/task/qualification/${encodeURIComponent(seeded.typeId)}`],
    ["task-work", work],
  ]);
});
