import { expect, test } from "@playwright/test";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { signInAs } from "./helpers";
import { seedUser, uniqueEmail, e2eDb } from "./seed";

// An open event page's live stream lives only as long as its session: signing out in another tab, or an admin
// disabling the account, ends the stream within a re-check (5 s) and the page goes to the sign-in page. One session
// keeps at most 4 streams: a 5th tab pauses the oldest.

const password = "live-session-password-123";
let ev: EventFixture;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ev = await seedEventFixture(e2eDb(), { slug: "e2e_live_session", name: "Live session test", tweets: 120, gold: 12 });
});

test("signing out in another tab ends the open page's stream: it goes to sign-in", async ({ page }) => {
  const email = uniqueEmail("live-out");
  await seedUser({ email, password, role: "researcher", name: "Live Out" });
  await signInAs(page, email, password);
  await page.goto(`/events/${ev.slug}`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const other = await page.context().newPage();
  await other.goto("/events");
  await other.getByRole("button", { name: "Sign out" }).click();
  await expect(other).toHaveURL(/\/signin/);
  // No reload, no click on the first tab: the stream's re-check notices and the page follows.
  await expect(page).toHaveURL(new RegExp(`/signin\\?next=${encodeURIComponent(`/events/${ev.slug}`)}`), { timeout: 30_000 });
});

test("an admin disabling the account ends its open page's stream", async ({ page, browser }) => {
  const email = uniqueEmail("live-disabled");
  await seedUser({ email, password, role: "researcher", name: "Live Disabled" });
  await signInAs(page, email, password);
  await page.goto(`/events/${ev.slug}`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  const adminEmail = uniqueEmail("live-admin");
  await seedUser({ email: adminEmail, password, role: "admin", name: "Live Admin" });
  const adminContext = await browser.newContext();
  try {
    const admin = await adminContext.newPage();
    await signInAs(admin, adminEmail, password);
    await admin.goto("/settings");
    const row = admin.getByRole("row").filter({ hasText: email });
    await row.getByLabel("Status").selectOption("true");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row).toContainText("disabled");
  } finally {
    await adminContext.close();
  }
  await expect(page).toHaveURL(/\/signin\?next=/, { timeout: 30_000 });
});

test("a 5th tab of one session pauses the oldest tab's stream; Resume takes it back", async ({ page }) => {
  const email = uniqueEmail("live-tabs");
  await seedUser({ email, password, role: "researcher", name: "Live Tabs" });
  await signInAs(page, email, password);
  await page.goto(`/events/${ev.slug}`);
  const first = page.getByTestId("live-status");
  await expect(first).toHaveAttribute("data-status", "live");
  const tabs = [];
  for (let i = 0; i < 4; i++) {
    const tab = await page.context().newPage();
    await tab.goto(`/events/${ev.slug}`);
    await expect(tab.getByTestId("live-status")).toHaveAttribute("data-status", "live");
    tabs.push(tab);
  }
  await expect(first).toHaveAttribute("data-status", "paused");
  await expect(first).toContainText("newer tab");
  for (const tab of tabs.slice(1)) await expect(tab.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  await first.getByRole("button", { name: "Resume" }).click();
  await expect(first).toHaveAttribute("data-status", "live");
  // The oldest of the others (the 2nd tab) gave way.
  await expect(tabs[0].getByTestId("live-status")).toHaveAttribute("data-status", "paused");
});
