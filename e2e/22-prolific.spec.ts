import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, test } from "@playwright/test";
import { screenshot, signInAs } from "./helpers";
import { crisisLexFile, uploadOnDataTab, writeGoldFile } from "./14-upload-helpers";
import { E2E_DATA_DIR, E2E_PROLIFIC_SIMULATOR_PORT } from "./env";
import { prolificDiagnosis } from "./prolific-diagnosis";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 23's dashboard part in a browser: the admin's Prolific settings (connection check, write-only token), then a
// researcher creates a Prolific event in the New event form, uploads tweets and gold, builds the qualification
// (a screening study), publishes to the app's embedded Prolific simulator and watches the HITs get decided live:
// the simulated participants take the screening and the batch's study on Accord's own participant pages over HTTP,
// where each is given one HIT of the batch.

const SIMULATOR = `http://127.0.0.1:${E2E_PROLIFIC_SIMULATOR_PORT}`;

/** A study's submissions as the embedded simulator last wrote its state file. */
function simulatorSubmissions(studyId: string): Array<{ id: string; status: string }> {
  const file = path.join(E2E_DATA_DIR, "prolific-simulator-state.json");
  if (!fs.existsSync(file)) return [];
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as { submissions: Record<string, { id: string; study_id: string; status: string }> };
  return Object.values(state.submissions).filter((s) => s.study_id === studyId);
}

/**
 * A participant takes part in the screening study on the simulator and lands on Accord's screening page, which names
 * no tweet (the gold's ids are nowhere in it); they answer and are sent back to Prolific. A second attempt (the page
 * again, and a post of answers) is refused with the same words whatever the first result was.
 */
async function takeScreeningTwice(browser: Browser, eventId: string, groupId: string) {
  const db = e2eDb();
  const record = await db.localCrowdRecord.findUniqueOrThrow({ where: { scope_key: { scope: "prolific-qualification", key: groupId } }, select: { data: true } });
  const { screeningStudyId } = (typeof record.data === "string" ? JSON.parse(record.data) : record.data) as { screeningStudyId: string };
  const tweetIds = (await db.tweet.findMany({ where: { eventId }, select: { externalId: true } })).map((t) => t.externalId);
  const context = await browser.newContext(); // a participant: not signed in to Accord
  try {
    const p = await context.newPage();
    const participant = `e2e${Date.now().toString(16)}`.padEnd(24, "0").slice(0, 24);
    await p.goto(`${SIMULATOR}/participant/take-part?participant=${participant}&study=${screeningStudyId}`);
    await expect(p).toHaveURL(/\/prolific\/screening\?/);
    const screeningUrl = p.url();
    await expect(p.locator("fieldset")).toHaveCount(10);
    const html = await p.content();
    expect(tweetIds.filter((id) => html.includes(id))).toEqual([]);
    expect(html).not.toContain("data-tweet-id");
    for (const fieldset of await p.locator("fieldset").all()) await fieldset.locator("input[type=radio]").first().check();
    await p.getByRole("button", { name: "Submit and return to Prolific" }).click();
    // Passed: back to Prolific with the code; failed: asked, on the page, to return the study (never rejected).
    await expect(p.getByText(/Submission complete|Please return this study/).first()).toBeVisible();

    const TAKEN = "You have already taken this screening test: it can be taken once only.";
    await p.goto(screeningUrl);
    await expect(p.getByText(TAKEN)).toBeVisible();
    await expect(p.locator("form")).toHaveCount(0);
    // Answers posted again (from Accord's own page, as the form would): the same refusal, no completion code.
    const params = Object.fromEntries(new URL(screeningUrl).searchParams);
    await Promise.all([
      p.waitForNavigation(),
      p.evaluate((fields) => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = window.location.pathname;
        for (const [name, value] of Object.entries(fields)) form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
        document.body.append(form);
        form.submit();
      }, { ...params, ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`gold-${i + 1}`, "caution_and_advice"])) }),
    ]);
    await expect(p).toHaveURL(/\/prolific\/screening/);
    await expect(p.getByText(TAKEN)).toBeVisible();
  } finally {
    await context.close();
  }
}

test("the admin's Prolific settings check the connection and never show the token", async ({ page }) => {
  const email = uniqueEmail("prolific-admin");
  const password = "prolific-admin-pass-1";
  await seedUser({ email, password, role: "admin", name: "Prolific Admin" });
  await signInAs(page, email, password);
  await page.goto("/settings");
  const form = page.getByTestId("prolific-form");
  await expect(form.getByLabel("Prolific mode")).toHaveValue("simulator");
  await expect(form.getByLabel("Simulator URL")).toHaveValue(SIMULATOR);

  // A workspace the token does not see: saved, and the researcher is told what to fix.
  await form.getByLabel("Workspace id").fill("aaaaaaaaaaaaaaaaaaaaaaaa");
  await form.getByRole("button", { name: "Save and check connection" }).click();
  await expect(form.getByRole("alert").first()).toContainText("The token does not see workspace aaaaaaaaaaaaaaaaaaaaaaaa");
  // Not an id at all: refused by the form's validation.
  await form.getByLabel("Workspace id").fill("not an id");
  await form.getByRole("button", { name: "Save and check connection" }).click();
  await expect(form.getByText("A Prolific id: the hexadecimal id")).toBeVisible();

  // Back to the token's first workspace: connected to the embedded simulator.
  await form.getByLabel("Workspace id").fill("");
  await form.getByRole("button", { name: "Save and check connection" }).click();
  await expect(form.getByRole("status").first()).toContainText(`Connected to the Prolific simulator at ${SIMULATOR}: workspace`);
  await expect(form.getByLabel("API token")).toHaveValue("");
  await screenshot(page, "prolific-1-settings");
  const audit = await e2eDb().auditLog.findFirstOrThrow({ where: { action: "update-prolific-settings" }, orderBy: { at: "desc" } });
  expect(audit.details).toMatchObject({ mode: "simulator", tokenChanged: false });
});

test("the Prolific form shows the webhooks without the secret, and test mode refused by the workspace stays off", async ({ page }) => {
  const email = uniqueEmail("prolific-testmode");
  const password = "prolific-testmode-pass-1";
  await seedUser({ email, password, role: "admin", name: "Prolific Test Mode Admin" });
  await signInAs(page, email, password);
  await page.goto("/settings");
  const form = page.getByTestId("prolific-form");
  await expect(form.getByTestId("prolific-webhook-status")).toContainText(/^(Subscribed: Prolific delivers status changes to http.+\/api\/prolific\/webhook since|Not subscribed yet|Polling only \(needs an https ACCORD_PUBLIC_URL\))/);
  const stored = Boolean((await e2eDb().setting.findUnique({ where: { key: "prolific.webhookSecret" } }))?.secret);
  await expect(form.getByTestId("prolific-webhook-secret-state")).toHaveText(stored ? "A webhook signing secret is stored." : "No webhook signing secret is stored.");
  await expect(form.getByLabel("Webhook secret")).toHaveAttribute("type", "password");
  await expect(form.getByLabel("Webhook secret")).toHaveValue("");

  // The embedded simulator's workspace has no test participants (as Prolific's default): the admin is told who enables them.
  await form.getByLabel(/Prolific test mode/).check();
  await form.getByLabel("Test participant email").fill("not an email");
  await form.getByRole("button", { name: "Save and check connection" }).click();
  await expect(form.getByText("An email address, e.g. tester@example.org.")).toBeVisible();
  await form.getByLabel("Test participant email").fill(`tester-${Date.now()}@example.org`);
  await form.getByRole("button", { name: "Save and check connection" }).click();
  await expect(form.getByRole("alert").first()).toContainText("Test participants are enabled per workspace by Prolific's support");
  await page.goto("/settings");
  await expect(page.getByTestId("prolific-form").getByLabel(/Prolific test mode/)).not.toBeChecked();
  const audit = await e2eDb().auditLog.findFirstOrThrow({ where: { action: "update-prolific-settings" }, orderBy: { at: "desc" } });
  expect(audit.details).toMatchObject({ testMode: true, webhookSecretChanged: false });
  expect(JSON.stringify(audit.details)).not.toContain("example.org");
});

test("a Prolific event from the New event form to HITs decided live on the simulator", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const email = uniqueEmail("prolific-flow");
  const password = "prolific-flow-pass-1";
  await seedUser({ email, password, role: "researcher", name: "Prolific Researcher" });
  const db = e2eDb();

  await signInAs(page, email, password);
  await page.getByRole("link", { name: "New event" }).click();
  await expect(page).toHaveURL(/\/events\/new$/);
  await expect(page.getByLabel("Tweets per HIT", { exact: true })).toHaveValue("30");
  await page.getByLabel("Name", { exact: true }).fill("Queensland floods on Prolific (e2e)");
  await page.getByLabel("Type").fill("flood");
  await page.getByLabel("Crowd").selectOption("prolific");
  await page.getByLabel("Labels in tweet files outside the scheme").selectOption("keep");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page).toHaveURL(/\/events\/queensland_floods_on_prolific_e2e\/data$/);
  const event = await db.event.findUniqueOrThrow({ where: { slug: "queensland_floods_on_prolific_e2e" }, select: { id: true, provider: true } });
  expect(event.provider).toBe("prolific");
  await expect(page.getByTestId("event-crowd")).toHaveText("Prolific");

  await uploadOnDataTab(page, { file: writeGoldFile(40).file, kind: "gold" });
  await uploadOnDataTab(page, { file: crisisLexFile(), kind: "tweets" });

  // The Overview names the crowd and its mode; the qualification becomes a screening study on the simulator.
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByText("Provider: Prolific simulator.")).toBeVisible();
  // Amounts are in the workspace's currency (the simulator's GBP), not dollars.
  await expect(page.getByText("Amounts in GBP.")).toBeVisible();
  await expect(page.getByTestId("simulated-badge")).toBeVisible();
  await page.getByRole("button", { name: "Create the qualification test" }).click();
  await expect(page.getByTestId("qualification-status")).toContainText("Active", { timeout: 60_000 });
  const qualification = await db.qualificationTest.findFirstOrThrow({ where: { eventId: event.id, status: "active" }, select: { provider: true, providerQualTypeId: true } });
  expect(qualification.provider).toBe("prolific");
  expect(qualification.providerQualTypeId).toMatch(/^[0-9a-f]{24}$/);
  await takeScreeningTwice(browser, event.id, qualification.providerQualTypeId as string);

  // Prolific refuses less than its hourly minimum (the simulator's £6): £2.50 for the estimated 20 minutes.
  await page.getByLabel("HITs", { exact: true }).fill("2");
  await page.getByLabel("Reward per assignment (minor units of GBP)").fill("250");
  await page.getByRole("button", { name: "Estimate cost" }).click();
  await expect(page.getByTestId("cost-estimate")).toContainText("2 HITs", { timeout: 30_000 });
  await expect(page.getByTestId("cost-estimate")).toContainText("£2.50 reward");
  await expect(page.getByTestId("cost-estimate")).not.toContainText("$");
  await expect(page.getByTestId("publish-why")).toContainText(/may cost up to £\d+\.\d{2}/);
  await page.getByRole("button", { name: "Publish 2 HITs" }).click();
  await expect.poll(() => db.hit.count({ where: { eventId: event.id, providerHitId: { not: null } } }), { timeout: 120_000 }).toBe(2);
  await expect(page.getByTestId("publish-progress")).toContainText("2 HITs — done", { timeout: 60_000 });
  // The batch is one study on the embedded simulator (each HIT is `<study id>:<hit id>`), open to the screening's participant group.
  const hits = await db.hit.findMany({ where: { eventId: event.id }, select: { id: true, provider: true, providerHitId: true } });
  const studies = new Set(hits.map((h) => h.providerHitId?.split(":")[0]));
  expect(studies.size).toBe(1);
  for (const h of hits) {
    expect(h.provider).toBe("prolific");
    expect(h.providerHitId).toMatch(new RegExp(`^[0-9a-f]{24}:${h.id}$`));
  }

  // Participants work on Accord's page; their submissions are decided and the Overview shows it without a reload.
  await page.evaluate(() => ((window as unknown as { __noReload?: number }).__noReload = 1));
  const feed = page.getByTestId("decision-feed");
  await expect(feed.locator("tbody tr").first())
    .toBeVisible({ timeout: 400_000 })
    .catch(async (err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- where the Prolific loop stood:\n${await prolificDiagnosis(event.id)}`);
    });
  await expect(feed).toContainText(/gold tweets correct/);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);
  await screenshot(page, "prolific-2-overview-live");
  const decided = await db.assignment.findMany({ where: { hit: { eventId: event.id }, decision: { not: null } }, select: { worker: { select: { provider: true, externalId: true } } } });
  expect(decided.length).toBeGreaterThan(0);
  for (const a of decided) {
    expect(a.worker.provider).toBe("prolific");
    expect(a.worker.externalId).toMatch(/^[0-9a-f]{24}$/);
  }
  // Every HIT of the batch ends, approved or unresolved, only once all its places' work is in and decided; every
  // submission the simulator holds in the batch's study reached Accord and was graded; "judged" counts exactly the
  // tweets with a judgment.
  await expect
    .poll(() => db.hit.count({ where: { eventId: event.id, status: { in: ["approved", "unresolved"] } } }), { timeout: 400_000, intervals: [2_000] })
    .toBe(hits.length)
    .catch(async (err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- where the Prolific loop stood:\n${await prolificDiagnosis(event.id)}`);
    });
  for (const h of await db.hit.findMany({ where: { eventId: event.id }, select: { id: true, maxAssignments: true, assignments: { select: { decision: true, decisionSentAt: true, providerAssignmentId: true } } } })) {
    expect(h.assignments.length, `HIT ${h.id}`).toBeGreaterThanOrEqual(h.maxAssignments);
    for (const a of h.assignments) expect([a.providerAssignmentId, a.decision !== null, a.decisionSentAt !== null]).toEqual([a.providerAssignmentId, true, true]);
  }
  // The simulator's state file (written as it changes) lists the study's submissions: each one that holds work is an
  // assignment Accord decided and delivered.
  const study = [...studies][0] as string;
  await expect
    .poll(async () => {
      const delivered = new Set((await db.assignment.findMany({ where: { hit: { eventId: event.id }, decisionSentAt: { not: null } }, select: { providerAssignmentId: true } })).map((a) => a.providerAssignmentId));
      return simulatorSubmissions(study).filter((s) => !["RETURNED", "TIMED-OUT", "SCREENED OUT"].includes(s.status) && !delivered.has(s.id)).map((s) => `${s.id} ${s.status}`);
    }, { timeout: 60_000 })
    .toEqual([]);
  // Every unknown tweet of the batch's HITs was judged (no HIT ended without its work).
  const unknownItems = await db.hitItem.count({ where: { hit: { eventId: event.id }, isGold: false } });
  expect(await db.tweet.count({ where: { eventId: event.id, role: "unknown", judgments: { some: {} } } })).toBe(unknownItems);
  // The judgments came through the participant page: one per tweet of each decided submission.
  const decidedNow = await db.assignment.count({ where: { hit: { eventId: event.id }, decision: { not: null } } });
  expect(await db.judgment.count({ where: { assignment: { hit: { eventId: event.id }, decision: { not: null } } } })).toBe(decidedNow * 30);
  // What the event spent, and what its participants earned on the Workers page, are in pounds.
  await expect(page.getByTestId("overview-stats")).toContainText(/Spent£\d/);
  await page.goto(`/workers?provider=prolific&q=${decided[0].worker.externalId}`);
  await expect(page.getByTestId("worker-row").first()).toContainText(/£\d+\.\d{2}/);
  await expect(page.getByTestId("worker-row").first()).not.toContainText("$");
});
