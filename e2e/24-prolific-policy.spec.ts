import { expect, test } from "@playwright/test";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";

// Issue 31 item 3 in a browser: a researcher creates a Prolific event; the Publish panel's pre-launch check states
// the Prolific policy (below the gold rule: approved, paid and excluded; screening failures asked to return), and a
// policy Prolific forbids (rejecting for gold, or for failed checks without attention checks) is refused with its reason.

test("the Publish panel states the Prolific policy and refuses a policy Prolific forbids", async ({ page }) => {
  const email = uniqueEmail("prolific-policy");
  const password = "prolific-policy-pass-1";
  await seedUser({ email, password, role: "researcher", name: "Policy Researcher" });
  await signInAs(page, email, password);
  await page.getByRole("link", { name: "New event" }).click();
  await expect(page).toHaveURL(/\/events\/new$/);
  await expect(page.getByLabel("Tweets per HIT", { exact: true })).toHaveValue("30");
  await page.getByLabel("Name", { exact: true }).fill("Policy check on Prolific (e2e)");
  await page.getByLabel("Type").fill("flood");
  await page.getByLabel("Crowd").selectOption("prolific");
  await page.getByLabel("Labels in tweet files outside the scheme").selectOption("keep");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page).toHaveURL(/\/events\/policy_check_on_prolific_e2e\/data$/);
  await page.getByRole("link", { name: "Overview" }).click();

  const check = page.getByTestId("prelaunch-check");
  await expect(check.getByTestId("prelaunch-statements")).toContainText("A submission below the gold rule is approved and paid, its judgments are left out of agreement, labels and exports, and the participant joins the block-list group");
  await expect(check.getByTestId("prelaunch-statements")).toContainText("A participant who fails the screening is asked to return it, with a message; never rejected.");

  // Rejecting for gold: refused, with the reason in one sentence; nothing stored.
  await check.getByText("Change the decision policy").click();
  await check.getByLabel("Below the gold rule").selectOption("reject");
  await check.getByRole("button", { name: "Check and save the policy" }).click();
  await expect(check.getByRole("alert")).toHaveText("Prolific does not allow rejecting for gold tweets: they are knowledge questions, not fair attention checks.");
  const event = await e2eDb().event.findUniqueOrThrow({ where: { slug: "policy_check_on_prolific_e2e" }, select: { crowdPolicy: true } });
  expect(event.crowdPolicy).toBeNull();

  // Rejecting for failed checks without attention checks: refused too.
  await check.getByLabel("Below the gold rule").selectOption("exclude");
  await check.getByLabel("Reject submissions that fail the attention checks").check();
  await check.getByRole("button", { name: "Check and save the policy" }).click();
  await expect(check.getByRole("alert")).toContainText("Prolific allows rejection for failed checks only when the study has fair attention checks");
  await screenshot(page, "prolific-policy-refused");

  // An allowed policy (TOO_QUICKLY with a 3% cap) is saved and the check says what it will do.
  await check.getByLabel("Reject submissions that fail the attention checks").uncheck();
  await check.getByLabel("Reject exceptionally fast completions").check();
  await check.getByLabel(/Rejection cap/).fill("3");
  await check.getByRole("button", { name: "Check and save the policy" }).click();
  await expect(check.getByRole("status")).toContainText("Policy saved");
  await expect(page.getByTestId("prelaunch-statements")).toContainText("rejected as TOO_QUICKLY");
  await expect(page.getByTestId("prelaunch-statements")).toContainText("Rejections stop at 3% of a study's places");
  const saved = await e2eDb().event.findUniqueOrThrow({ where: { slug: "policy_check_on_prolific_e2e" }, select: { crowdPolicy: true } });
  expect(saved.crowdPolicy).toMatchObject({ belowGold: "exclude", rejectTooQuick: true, rejectionCapShare: 0.03 });

  // Attention checks in each HIT, and rejecting who fails them: allowed, and the check says what they do.
  await check.getByLabel("Attention checks in each HIT (2)").check();
  await check.getByLabel("Reject submissions that fail the attention checks").check();
  await check.getByRole("button", { name: "Check and save the policy" }).click();
  await expect(page.getByTestId("prelaunch-statements")).toContainText("carries 2 instructed-response attention checks");
  await expect(page.getByTestId("prelaunch-statements")).toContainText("rejected as FAILED_CHECK with a message naming the checks");
  await expect.poll(async () => (await e2eDb().event.findUniqueOrThrow({ where: { slug: "policy_check_on_prolific_e2e" }, select: { crowdPolicy: true } })).crowdPolicy).toMatchObject({ attentionChecks: true, rejectFailedChecks: true });
});
