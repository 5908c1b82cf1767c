import { expect, test, type Page } from "@playwright/test";
import { labelKeys } from "@/lib/task/label-keys";
import { createLocalCrowdReader, getLocalCrowdProvider } from "@/lib/crowd/local/db-store";
import { parseHitAnswers } from "@/lib/crowd/mturk/hit-question";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { screenshot, signInAs } from "./helpers";
import { e2eDb, seedUser, uniqueEmail } from "./seed";
import { createQualificationType, goldTweets, publishLocalHit, TEXTS } from "./task-fixtures";

// The in-house crowd end to end: a HIT published to the local provider exactly as the campaign engine does
// (HTMLQuestion XML, qualification requirement), an annotator who takes the qualification test and works the HIT
// with the keyboard only, and the submitted assignment in the provider's store with the right label per tweet.

const LABELS = HUMAID_LABELS;
const VALUES = LABELS.map((l) => l.value);
const KEYS = labelKeys(LABELS.length);

/** Answers the test with the number keys: the first `correct` questions right, the others wrong. */
async function takeTestWithKeys(page: Page, correct: number) {
  await expect(page.getByTestId("qualification-form")).toHaveAttribute("data-ready", "true");
  const gold = goldTweets();
  for (const [i, g] of gold.entries()) {
    const right = VALUES.indexOf(g.label);
    const index = i < correct ? right : (right + 1) % VALUES.length;
    await page.keyboard.press(KEYS[index]);
  }
  await expect(page.getByText(`${gold.length} of ${gold.length} answered`)).toBeVisible();
}

/** This run's test on the task list (other specs' in-house events list their own tests there too). */
function takeTheTest(page: Page, tag: string) {
  return page.locator("header").filter({ hasText: `Qualification test: HumAID qualification ${tag}` }).getByRole("link", { name: "Take the test" });
}

function neverRunsScripts(page: Page) {
  page.on("dialog", (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
}

test.describe.serial("in-house crowd: the annotator's task page", () => {
  const tag = Date.now().toString(36);
  let typeId = "";
  let hit: Awaited<ReturnType<typeof publishLocalHit>>;

  test.beforeAll(async () => {
    typeId = await createQualificationType(tag);
    hit = await publishLocalHit({ qualificationTypeId: typeId, tag });
  });

  test("an annotator passes the qualification test, works a HIT with the keyboard only and submits it", async ({ page }) => {
    neverRunsScripts(page);
    const email = uniqueEmail("annotator");
    const user = await seedUser({ email, password: "annotator-password", role: "annotator", name: "Ann Annotator" });
    await signInAs(page, email, "annotator-password");
    await expect(page).toHaveURL(/\/task$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Task"]);

    // The HIT needs the qualification: the test comes first.
    await expect(page.getByText(`Qualification test: HumAID qualification ${tag}`)).toBeVisible();
    await expect(page.getByText("Pass the qualification test to see HITs.")).toBeVisible();
    await screenshot(page, "task-qualification-needed");
    await takeTheTest(page, tag).click();
    await expect(page.getByRole("heading", { name: "Qualification test: categorise disaster tweets" })).toBeVisible();
    await expect(page.locator("fieldset")).toHaveCount(10);
    await takeTestWithKeys(page, 7);
    await screenshot(page, "task-qualification-test");
    await page.getByRole("button", { name: "Submit the test" }).click();
    const result = page.getByTestId("test-result");
    await expect(result.getByRole("heading", { name: "You passed" })).toBeVisible();
    await expect(result).toContainText("70%");
    await expect(result).toContainText("7 of 10 correct");
    await screenshot(page, "task-qualification-passed");

    // Keyboard from here on: the result's link and the "Start the next HIT" button are focused.
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/task$/);
    await expect(page.getByTestId("available-hit")).toHaveCount(1);
    await expect(page.getByTestId("available-hit")).toContainText(hit.event.name);
    await screenshot(page, "task-available");
    await expect(page.getByRole("button", { name: "Start the next HIT" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/task\/work\/[^/]+$/);
    const assignmentId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() as string);
    await expect(page.getByTestId("workbench")).toHaveAttribute("data-ready", "true");
    // The page (and the HIT it shows) names no tweet: its items go by per-HIT ids.
    const html = await page.content();
    expect(hit.items.filter((it) => html.includes(it.tweetId))).toEqual([]);
    const stored = await createLocalCrowdReader(e2eDb()).getHit(hit.providerHitId);
    expect(hit.items.filter((it) => stored!.questionXml.includes(it.tweetId))).toEqual([]);

    const progress = page.getByTestId("progress-text");
    const position = page.getByTestId("tweet-position");
    const submit = page.getByRole("button", { name: "Submit 30 labels…" });
    await expect(progress).toHaveText("0 of 30");
    await expect(position).toHaveText("Tweet 1 of 30");
    // Untrusted text shows as text.
    await expect(page.getByTestId("tweet-text")).toHaveText(`${TEXTS[0]} #1`);

    const expected = hit.items.map((_, i) => (i * 7 + 2) % VALUES.length);
    for (let i = 0; i < 30; i++) {
      await expect(position).toHaveText(`Tweet ${i + 1} of 30`);
      await expect(page.getByTestId("tweet-text")).toHaveText(hit.items[i].text);
      await page.keyboard.press(KEYS[expected[i]]);
      if (i === 11) {
        await expect(progress).toHaveText("12 of 30");
        await expect(page.getByRole("progressbar", { name: "Tweets labelled" })).toHaveAttribute("aria-valuenow", "12");
        await screenshot(page, "task-work-12-of-30");
      }
      if (i === 28) {
        await expect(submit).toBeDisabled();
        await expect(page.getByTestId("unanswered")).toContainText("1 tweet still needs a category");
      }
    }
    await expect(progress).toHaveText("30 of 30");
    await expect(submit).toBeEnabled();

    // Back three tweets with the arrow key, change that label, then Enter to the end and Enter to submit.
    for (let k = 0; k < 3; k++) await page.keyboard.press("ArrowLeft");
    await expect(position).toHaveText("Tweet 27 of 30");
    await expect(page.getByRole("radio", { checked: true })).toHaveText(new RegExp(LABELS[expected[26]].name));
    expected[26] = (expected[26] + 5) % VALUES.length;
    await page.keyboard.press(KEYS[expected[26]]);
    await expect(position).toHaveText("Tweet 28 of 30");
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("radio", { checked: true })).toHaveText(new RegExp(LABELS[expected[26]].name));
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await expect(position).toHaveText("Tweet 29 of 30");
    await page.keyboard.press("ArrowRight");
    await expect(position).toHaveText("Tweet 30 of 30");
    await screenshot(page, "task-work-complete");
    // Enter on the last tweet asks first: nothing is submitted until the focused "Submit now" is confirmed.
    await page.keyboard.press("Enter");
    const confirm = page.getByTestId("confirm-submit");
    await expect(confirm).toContainText("Submit your 30 labels?");
    await expect(page.getByRole("button", { name: "Submit now" })).toBeFocused();
    await expect(page).toHaveURL(/\/task\/work\/[^/]+$/);
    expect(await createLocalCrowdReader(e2eDb()).getAssignment(assignmentId)).toMatchObject({ status: "Accepted" });
    await screenshot(page, "task-work-confirm");
    // Escape goes back; Enter on the last tweet asks again, and Enter confirms.
    await page.keyboard.press("Escape");
    await expect(confirm).toHaveCount(0);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Submit now" })).toBeFocused();
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL(/\/task\?done=submitted$/);
    await expect(page.getByText("Thank you — your labels were submitted.")).toBeVisible();
    await expect(page.getByText("Awaiting review")).toBeVisible();
    await screenshot(page, "task-submitted");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();

    // The provider's store holds the submitted assignment with the right label for every tweet.
    const db = e2eDb();
    const worker = await db.worker.findUniqueOrThrow({ where: { provider_externalId: { provider: "local", externalId: user.id } } });
    expect(worker.userId).toBe(user.id);
    const assignment = await createLocalCrowdReader(db).getAssignment(assignmentId);
    expect(worker.externalId).toBe(user.id);
    expect(assignment).toMatchObject({ status: "Submitted", workerId: user.id, hitId: hit.providerHitId });
    const parsed = parseHitAnswers({ answerXml: assignment?.answerXml ?? "", items: hit.items, labels: LABELS });
    expect(parsed.missing).toEqual([]);
    expect(parsed.invalid).toEqual([]);
    expect(parsed.unknownFields).toEqual([]);
    expect(parsed.answers.map((a) => [a.itemId, a.label])).toEqual(hit.items.map((it, i) => [it.itemId, VALUES[expected[i]]]));
    // …and the sync loop sees it through the provider like an MTurk assignment.
    const listed: Array<{ assignmentId: string; workerId: string; status: string }> = [];
    for await (const a of getLocalCrowdProvider(db).listSubmittedAssignments({ providerHitId: hit.providerHitId })) listed.push(a);
    expect(listed.map((a) => [a.assignmentId, a.workerId, a.status])).toEqual([[assignmentId, user.id, "Submitted"]]);
  });

  test("a failed test keeps the HITs closed; a qualified annotator can return a HIT", async ({ page }) => {
    neverRunsScripts(page);
    const failing = uniqueEmail("annotator-fail");
    await seedUser({ email: failing, password: "annotator-password", role: "annotator", name: "Fay Fails" });
    await signInAs(page, failing, "annotator-password");
    await takeTheTest(page, tag).click();
    // Submitting with unanswered questions is refused by the browser (required radios); answer five right.
    await takeTestWithKeys(page, 5);
    await page.getByRole("button", { name: "Submit the test" }).click();
    await expect(page.getByTestId("test-result").getByRole("heading", { name: "You did not pass" })).toBeVisible();
    await expect(page.getByTestId("test-result")).toContainText("50%");
    await screenshot(page, "task-qualification-failed");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/task$/);
    await expect(page.getByTestId("qualification-standing")).toContainText("You scored 50%");
    await expect(page.getByTestId("qualification-standing")).toContainText("This test cannot be retaken.");
    await expect(page.getByTestId("available-hit")).toHaveCount(0);
    await page.getByRole("button", { name: "Sign out" }).click();

    const qualified = uniqueEmail("annotator-return");
    const user = await seedUser({ email: qualified, password: "annotator-password", role: "annotator", name: "Ray Returns" });
    const db = e2eDb();
    await getLocalCrowdProvider(db).grantQualification({ qualificationTypeId: typeId, workerId: user.id, value: 80 });
    await signInAs(page, qualified, "annotator-password");
    await page.getByRole("button", { name: "Start the next HIT" }).click();
    await expect(page).toHaveURL(/\/task\/work\/[^/]+$/);
    const assignmentId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() as string);
    await expect(page.getByTestId("workbench")).toHaveAttribute("data-ready", "true");
    await page.keyboard.press("3");
    await page.keyboard.press("a");
    await expect(page.getByTestId("progress-text")).toHaveText("2 of 30");
    await page.getByRole("button", { name: "Return this HIT…" }).click();
    await page.getByRole("button", { name: "Return HIT" }).click();
    await expect(page).toHaveURL(/\/task\?done=returned$/);
    await expect(page.getByText("You returned the HIT")).toBeVisible();
    expect(await createLocalCrowdReader(db).getAssignment(assignmentId)).toMatchObject({ status: "Returned", workerId: user.id });
    // The returned slot is open again, for this annotator too.
    await expect(page.getByTestId("available-hit")).toHaveCount(1);
  });
});
