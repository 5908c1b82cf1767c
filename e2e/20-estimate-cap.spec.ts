import { expect, test } from "@playwright/test";
import { seedEventFixture } from "@/lib/demo/fixture";
import { DEMO_EVENTS } from "@/lib/demo/generate";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// The cost estimate states its scope: this event's cap, what this event spent and has committed — never the totals
// of all events beside this event's cap — and after a refusal the numbers that caused it. Publish says inline what
// it needs; a number field answers with a number error.

test("the estimate shows this event's cap, spent and committed, and the refusal's numbers", async ({ page }) => {
  test.setTimeout(240_000);
  const db = e2eDb();
  const email = uniqueEmail("estimate");
  await seedUser({ email, password: "estimate-password-1", role: "researcher", name: "Esther Estimate" });
  // Another event has spent a lot: its money must not show up in this event's row.
  const other = await seedEventFixture(db, { slug: "e2e_cap_other", name: "Cap test big spender", tweets: 200, gold: 20, idBase: 1_770_000_000_000_000_000n });
  await db.costEntry.create({ data: { eventId: other.eventId, kind: "reward", amountCents: 64_680, reference: "e2e-cap:other" } });
  const ev = await seedEventFixture(db, { slug: "e2e_cap_small", name: "Cap test small event", spec: DEMO_EVENTS[1], tweets: 400, gold: 30, idBase: 1_771_000_000_000_000_000n });
  await db.costEntry.create({ data: { eventId: ev.eventId, kind: "reward", amountCents: 2_160, reference: "e2e-cap:small" } });
  await db.event.update({ where: { id: ev.eventId }, data: { budgetCapCents: 5_000 } });

  await signInAs(page, email, "estimate-password-1");
  await page.goto(`/events/${ev.slug}`);
  const why = page.getByTestId("publish-why");
  await expect(why).toContainText("Publish is enabled after “Estimate cost”");
  await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeDisabled();

  // A number field gets a number error, shown once (next to the field).
  await page.getByLabel("HITs", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Estimate cost" }).click();
  await expect(page.getByText('HITs must be a whole number from 1 to 100,000, or "all".')).toHaveCount(1);

  // 10 HITs at the default reward may cost more than is left under this event's $50 cap.
  await page.getByLabel("HITs", { exact: true }).fill("10");
  await page.getByRole("button", { name: "Estimate cost" }).click();
  const estimate = page.getByTestId("cost-estimate");
  await expect(estimate).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("estimate-event-cap")).toContainText("$50.00");
  await expect(page.getByTestId("estimate-event-spent")).toContainText("$21.60");
  await expect(page.getByTestId("estimate-event-committed")).toContainText("$21.60");
  await expect(page.getByTestId("estimate-event-left")).toContainText("$28.40");
  // Nothing of the other event's $646.80 is in this event's estimate.
  await expect(estimate).not.toContainText("646.80");
  await expect(estimate).not.toContainText("668.40");
  await expect(page.getByRole("alert").filter({ hasText: "exceeds this event's budget cap of $50.00 ($28.40 left)" })).toBeVisible();
  await expect(why).toContainText("Publish stays disabled until the problem above is fixed");
  await expect(page.getByRole("button", { name: "Publish 10 HITs" })).toBeDisabled();
  await screenshot(page, "estimate-refused-by-event-cap");

  // One HIT fits: Publish is enabled and says what it will do.
  await page.getByLabel("HITs", { exact: true }).fill("1");
  await expect(why).toContainText("The form changed since the estimate");
  await page.getByRole("button", { name: "Estimate cost" }).click();
  await expect(why).toContainText(/Ready: publishes 1 HIT that may cost up to \$\d+\.\d{2}/);
  await expect(page.getByRole("button", { name: "Publish 1 HIT" })).toBeEnabled();
  await screenshot(page, "estimate-ready");
});
