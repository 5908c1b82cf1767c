import { expect, test } from "@playwright/test";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

test.describe.serial("sign-in and first run", () => {
  test("first run: the setup page creates the first admin, with clear messages for bad input", async ({ page }) => {
    // This spec runs first (files run in name order) on the fresh database of e2e/global-setup.ts.
    expect(await e2eDb().user.count()).toBe(0);
    await page.goto("/events");
    await expect(page).toHaveURL(/\/setup$/);
    await page.getByLabel("Name").fill("Ada Admin");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: /Create admin/ }).click();
    await expect(page.getByText("Enter a valid email address, like name@example.org.")).toBeVisible();
    await expect(page.getByText("Use at least 10 characters for the password.")).toBeVisible();
    await screenshot(page, "setup-errors");

    await page.getByLabel("Email").fill("ada@example.org");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: /Create admin/ }).click();
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByRole("heading", { name: "Events" })).toBeVisible();
    await expect(page.getByTestId("current-user")).toContainText("admin");

    // Setup is closed once an account exists.
    await page.goto("/setup");
    await expect(page).toHaveURL(/\/(signin|events)$/);
  });

  test("a new researcher signs in and sees the Events page", async ({ page }) => {
    const email = uniqueEmail("researcher");
    await seedUser({ email, password: "researcher-password", role: "researcher", name: "Rita Researcher" });
    await signInAs(page, email, "researcher-password");
    await expect(page).toHaveURL(/\/events$/);
    await expect(page.getByRole("heading", { name: "Events" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Events", "Workers", "Models"]);
    await screenshot(page, "events-researcher");
    // Researchers cannot open the admin settings.
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/forbidden$/);
  });

  test("bad input on the sign-in form gives clear messages, and repeated failures are slowed down", async ({ page }) => {
    const email = uniqueEmail("victim");
    await seedUser({ email, password: "the-right-password" });
    const colleague = uniqueEmail("colleague");
    await seedUser({ email: colleague, password: "colleague-password" });
    await page.goto("/signin");

    await page.getByLabel("Email").fill("no-at-sign");
    await page.getByLabel("Password").fill("whatever");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Enter a valid email address, like name@example.org.")).toBeVisible();

    for (let i = 0; i < 3; i++) {
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(`wrong-password-${i}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      // The form is rendered anew (password empty) when the answer arrives: wait for it, so the next try is typed
      // into the new form and this try's message is not the previous one's.
      await expect(page.getByLabel("Password")).toHaveValue("");
      await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
    }
    await screenshot(page, "signin-wrong-password");
    // The third failure locked the account from this address for 1 s, each further one doubles it. On a slow machine
    // a second passes between tries; on a fast one every try within that second is refused (not counted) until it
    // ends. So keep trying until a lock has at least 2 s left…
    let locked = false;
    for (let i = 3; i < 40 && !locked; i++) {
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(`wrong-password-${i}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByLabel("Password")).toHaveValue("");
      const alert = page.getByRole("alert").filter({ hasText: /Wrong email or password\.|Too many failed sign-ins/ });
      await expect(alert).toBeVisible();
      const wait = /Try again in (\d+) seconds?/.exec((await alert.textContent()) ?? "");
      locked = wait !== null && Number(wait[1]) >= 2;
    }
    expect(locked).toBe(true);
    // …then a try within the lock window is refused even with the right password.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("the-right-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(/Too many failed sign-ins\. Try again in \d+ seconds?\./)).toBeVisible();

    // The lock is on that email: someone else signing in from the same address right away is not refused
    // (the address allows more failures, as a lab's researchers share one).
    await signInAs(page, colleague, "colleague-password");
    await expect(page).toHaveURL(/\/events$/);
  });

  test("an admin adds a user in Settings; a too-short password is refused next to the field", async ({ page }) => {
    const adminEmail = uniqueEmail("admin");
    await seedUser({ email: adminEmail, password: "admin-password-1", role: "admin" });
    await signInAs(page, adminEmail, "admin-password-1");
    await page.goto("/settings");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add user" }) });
    const newEmail = uniqueEmail("viewer");
    await form.getByLabel("Name").fill("Vic Viewer");
    await form.getByLabel("Email").fill(newEmail);
    await form.getByLabel("Initial password").fill("short");
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByRole("button", { name: "Add user" }).click();
    await expect(form.getByText("Use at least 10 characters for the password.")).toBeVisible();
    await form.getByLabel("Initial password").fill("viewer-password");
    await form.getByRole("button", { name: "Add user" }).click();
    await expect(form.getByText(`Created ${newEmail} (viewer).`)).toBeVisible();
    await expect(page.getByRole("cell", { name: newEmail })).toBeVisible();
    await screenshot(page, "settings-users");
  });
});
