import type { Page } from "@playwright/test";
import { expect } from "@playwright/test";

export async function signInAs(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
}

/** Saves a full-page screenshot as a test artifact (e2e/artifacts/screens). */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/artifacts/screens/${name}.png`, fullPage: true });
}
