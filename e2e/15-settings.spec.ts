import { expect, test } from "@playwright/test";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// An admin sets the crowd provider: credentials are write-only (never sent back to a browser), production
// needs an explicit confirmation, and the budget cap and default reward are saved. The test leaves the
// provider as it found it (the simulator) for the tests after it.

test("provider mode, write-only credentials, production confirmation, budget cap and default reward", async ({ page }) => {
  const email = uniqueEmail("admin");
  const password = "admin-password-12345";
  await seedUser({ email, password, role: "admin", name: "Settings Admin" });
  const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY42";
  await signInAs(page, email, password);
  await page.goto("/settings");
  const form = page.getByTestId("provider-form");
  await expect(form.getByLabel("Mode")).toHaveValue("simulator");
  await screenshot(page, "settings-provider");

  await form.getByLabel("Mode").selectOption("sandbox");
  await form.getByLabel("AWS access key id").fill("AKIAE2ETESTKEY0001");
  await form.getByLabel("AWS secret access key").fill(secret);
  await form.getByLabel("Budget cap ($, all events)").fill("250");
  await form.getByLabel("Default reward per HIT (cents)").fill("75");
  await form.getByRole("button", { name: "Save provider settings" }).click();
  await expect(form.getByRole("status")).toContainText("MTurk sandbox");
  await page.reload();
  await expect(page.getByTestId("provider-form").getByLabel("Mode")).toHaveValue("sandbox");
  // Write-only: neither the secret nor the key id comes back, in the form or anywhere in the page.
  await expect(page.getByTestId("provider-form").getByLabel("AWS secret access key")).toHaveValue("");
  expect(await page.content()).not.toContain(secret);
  expect(await page.content()).not.toContain("AKIAE2ETESTKEY0001");
  await expect(page.getByTestId("defaults")).toContainText("$250.00");
  await expect(page.getByTestId("defaults")).toContainText("$0.75");
  const stored = await e2eDb().setting.findUnique({ where: { key: "crowd.credentials" } });
  expect(stored?.secret).toBeTruthy();
  expect(stored?.secret).not.toContain(secret);

  // Production needs the explicit switch.
  await page.getByTestId("provider-form").getByLabel("Mode").selectOption("production");
  await page.getByRole("button", { name: "Save provider settings" }).click();
  await expect(page.getByTestId("provider-form").getByRole("alert").first()).toContainText(/confirm/i);
  await screenshot(page, "settings-production-confirm");
  await page.getByTestId("provider-form").getByLabel("Mode").selectOption("production");
  await page.getByText("I understand that production MTurk pays real workers").click();
  await page.getByRole("button", { name: "Save provider settings" }).click();
  await expect(page.getByTestId("provider-form").getByRole("status")).toContainText("MTurk production");

  // Back to the simulator, with no cap, as the other tests expect.
  await page.reload();
  const f = page.getByTestId("provider-form");
  await f.getByLabel("Mode").selectOption("simulator");
  await f.getByLabel("Budget cap ($, all events)").fill("");
  await f.getByLabel("Default reward per HIT (cents)").fill("50");
  await f.getByRole("button", { name: "Save provider settings" }).click();
  await expect(f.getByRole("status")).toContainText("MTurk simulator");
  const audit = await e2eDb().auditLog.findMany({ where: { action: "update-provider-settings" }, select: { details: true } });
  expect(audit.length).toBeGreaterThanOrEqual(3);
  expect(JSON.stringify(audit)).not.toContain(secret);
});

test("researchers cannot open Settings", async ({ page }) => {
  const email = uniqueEmail("researcher");
  const password = "researcher-password-1";
  await seedUser({ email, password, role: "researcher" });
  await signInAs(page, email, password);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/forbidden$/);
});
