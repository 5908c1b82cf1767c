import { expect, test } from "@playwright/test";
import { parseProcedureSettings } from "@/lib/procedure/settings";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// A researcher creates an event: the form shows the paper's defaults, explains its mistakes next to each
// field, and creates the event with the rules and filters chosen; a viewer cannot reach the form.

test("a researcher creates an event; wrong input is explained next to the field", async ({ page }) => {
  const email = uniqueEmail("creator");
  const password = "creator-password-123";
  await seedUser({ email, password, role: "researcher", name: "Event Creator" });
  await signInAs(page, email, password);
  await page.goto("/events");
  await page.getByRole("link", { name: "New event" }).click();
  await expect(page).toHaveURL(/\/events\/new$/);
  // The paper's defaults are there.
  await expect(page.getByLabel("Tweets per HIT", { exact: true })).toHaveValue("30");
  await expect(page.getByLabel("Gold tweets per HIT")).toHaveValue("10");
  await expect(page.getByLabel("Approve an assignment at (gold correct)")).toHaveValue("7/10");
  await expect(page.getByLabel("Accept a tweet's label at (agreeing share)")).toHaveValue("2/3");
  await expect(page.getByLabel("Approve a HIT at (accepted unknown tweets)")).toHaveValue("14/20");
  await screenshot(page, "new-event");

  // Mistakes: a short name, the end before the start, a bad ratio, a bad location box, fewer judgments than the minimum.
  await page.getByLabel("Name", { exact: true }).fill("Q");
  await page.getByLabel("Start date").fill("2025-05-10");
  await page.getByLabel("End date").fill("2025-05-01");
  await page.getByLabel("Target locations", { exact: true }).fill("Quito | UIO | 200,0,1,1");
  await page.getByLabel("Approve an assignment at (gold correct)").fill("seven");
  await page.getByLabel("At most (with extra assignments)").fill("2");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("alert").first()).toContainText(/correct/i);
  await expect(page.locator("#name-error")).toContainText("at least 3 characters");
  await expect(page.locator("#endDate-error")).toContainText("before the start date");
  await expect(page.locator("#locations-error")).toContainText("minLon,minLat,maxLon,maxLat");
  await expect(page.locator("#assignmentApproval-error")).toContainText("7/10");
  await screenshot(page, "new-event-errors");

  // Fix them; ask for 4 judgments per tweet (up to 6) and CrisisLex labels ignored.
  await page.getByLabel("Name", { exact: true }).fill("Ecuador earthquake 2016 (e2e)");
  await page.getByLabel("Type").fill("earthquake");
  await page.getByLabel("End date").fill("2016-05-20");
  await page.getByLabel("Start date").fill("2016-04-16");
  await page.getByLabel("Target locations", { exact: true }).fill("Ecuador | EC, Quito, Guayaquil | -81.1,-5.1,-75.2,1.5\nManta");
  await page.getByLabel("Approve an assignment at (gold correct)").fill("7/10");
  await page.getByLabel("Judgments per tweet").fill("4");
  await page.getByLabel("At most (with extra assignments)").fill("6");
  await page.getByLabel("Labels in tweet files outside the scheme").selectOption("ignore");
  await page.getByLabel("Budget cap for this event ($, optional)").fill("120.50");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page).toHaveURL(/\/events\/ecuador_earthquake_2016_e2e\/data$/);
  await expect(page.getByTestId("event-name")).toHaveText("Ecuador earthquake 2016 (e2e)");
  await expect(page.getByTestId("filter-settings")).toContainText("Labels outside the scheme in tweet files: ignore");
  await screenshot(page, "event-data-empty");

  const event = await e2eDb().event.findUniqueOrThrow({ where: { slug: "ecuador_earthquake_2016_e2e" } });
  const settings = parseProcedureSettings(event.settings);
  expect(settings.judgmentsPerTweet).toBe(4);
  expect(settings.maxJudgmentsPerTweet).toBe(6);
  expect(settings.assignmentApproval).toEqual({ num: 7, den: 10 });
  expect(event.budgetCapCents).toBe(12_050);
  expect(event.locations).toEqual([
    { name: "Ecuador", aliases: ["EC", "Quito", "Guayaquil"], bbox: [-81.1, -5.1, -75.2, 1.5] },
    { name: "Manta", aliases: [] },
  ]);
  expect((event.filters as { labels: { outsideScheme: string } }).labels.outsideScheme).toBe("ignore");
  expect(await e2eDb().auditLog.count({ where: { eventId: event.id, action: "create-event" } })).toBe(1);

  // The same name again gets its own slug.
  await page.goto("/events/new");
  await page.getByLabel("Name", { exact: true }).fill("Ecuador earthquake 2016 (e2e)");
  // The type is a placeholder, not a pre-filled value: it has to be given.
  await expect(page.getByLabel("Type")).toHaveValue("");
  await page.getByLabel("Type").fill("earthquake");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page).toHaveURL(/\/events\/ecuador_earthquake_2016_e2e_2\/data$/);
  await page.goto("/events?q=ecuador");
  await expect(page.getByTestId("event-row")).toHaveCount(2);
});

test("a viewer sees events but not the new-event form or the campaign controls", async ({ page }) => {
  const email = uniqueEmail("viewer");
  const password = "viewer-password-123";
  await seedUser({ email, password, role: "viewer", name: "Only Looking" });
  await signInAs(page, email, password);
  await page.goto("/events");
  await expect(page.getByRole("link", { name: "New event" })).toHaveCount(0);
  await page.goto("/events/new");
  await expect(page).toHaveURL(/\/forbidden$/);
});
