import { afterEach, describe, expect, it } from "vitest";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { createHitBatch } from "@/lib/campaign/publish";
import { testFlavors } from "@/lib/db/test-db";
import { setupProlificCampaign, studyOfHit, takeScreening, type ProlificCampaign } from "@/lib/campaign/prolific-fixture";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "@/lib/campaign/test-fixture";
import { displayText } from "@/lib/text/display-text";
import { attentionChecksFor } from "@/lib/crowd/attention-checks";
import { escapeHtml } from "@/lib/crowd/mturk/xml-text";
import { instructedOption, parseHitForm } from "@/lib/crowd/simulator/html-form";
import { saveCrowdPolicy } from "@/lib/campaign/prelaunch-check";
import { renderProlificTaskPage } from "./prolific-page";
import { openProlificTask, submitProlificTask } from "./prolific-work";

describe.each(testFlavors())("Accord's Prolific participant task (what the page does) (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("checks the session with Prolific, shows the HIT, refuses incomplete answers, stores them and sends the participant back with the code", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const [pid, other] = ["6000000000000000000000a1", "6000000000000000000000a2"];
    for (const p of [pid, other]) await takeScreening(f, p, 10);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 1 }, provider: f.provider });
    await publishQueued(f);
    const hit = await f.db.hit.findFirstOrThrow({ include: { items: { orderBy: { position: "asc" }, include: { tweet: true } } } });
    const studyId = studyOfHit(hit.providerHitId);
    const sub = f.prolific.service.startSubmission(pid, studyId);
    const params = { PROLIFIC_PID: pid, STUDY_ID: studyId, SESSION_ID: sub.id };

    const content = await openProlificTask(f.db, f.provider, params);
    expect(content.items).toHaveLength(30);
    expect(content.items.map((i) => i.itemId)).toEqual(hit.items.map((i) => i.id));
    expect(content.items.map((i) => i.text)).toEqual(hit.items.map((i) => displayText(i.tweet.text)));
    expect(content.items[0]!.fieldName).toBe(hitFieldName(1, hit.items[0]!.id));
    expect(content.labels.length).toBeGreaterThan(1);

    // Another participant's session, another study, a study that is not Accord's, a missing placeholder: refused.
    await expect(openProlificTask(f.db, f.provider, { ...params, PROLIFIC_PID: other })).rejects.toThrow("not yours");
    await expect(openProlificTask(f.db, f.provider, { ...params, STUDY_ID: "ffffffffffffffffffffffff" })).rejects.toThrow("not yours");
    const screening = (await f.provider.screeningTest((await f.db.qualificationTest.findFirstOrThrow()).providerQualTypeId as string)).studyId;
    const newcomer = "6000000000000000000000a3";
    const elsewhere = f.prolific.service.startSubmission(newcomer, screening);
    await expect(openProlificTask(f.db, f.provider, { PROLIFIC_PID: newcomer, STUDY_ID: screening, SESSION_ID: elsewhere.id })).rejects.toThrow("not one of Accord's");
    await expect(openProlificTask(f.db, f.provider, { ...params, SESSION_ID: "{{%SESSION_ID%}}" })).rejects.toThrow("incomplete");

    const fields: Record<string, string> = {};
    for (const it of hit.items) fields[hitFieldName(it.position + 1, it.id)] = it.tweet.goldLabel ?? (it.tweet.sourceLabel as string);
    const { [content.items[4]!.fieldName]: _dropped, ...short } = fields;
    await expect(submitProlificTask(f.db, f.provider, params, short)).rejects.toThrow("Tweet 5 still needs a label.");

    const { redirectUrl } = await submitProlificTask(f.db, f.provider, params, fields);
    const back = new URL(redirectUrl);
    expect(`${back.origin}${back.pathname}`).toBe(`${f.prolific.url}/submissions/complete`);
    expect(back.searchParams.get("cc")).toBe(await f.provider.completionCode(hit.batchId as string));
    f.prolific.service.completeSubmission(sub.id, back.searchParams.get("cc"));
    // A completed session takes no more answers.
    await expect(submitProlificTask(f.db, f.provider, params, fields)).rejects.toThrow("takes no more answers");

    await syncUntilIdle(f);
    const a = await f.db.assignment.findFirstOrThrow();
    expect([a.providerAssignmentId, a.status]).toEqual([sub.id, "approved"]);
    expect(await f.db.judgment.count({ where: { assignmentId: a.id } })).toBe(30);
  });

  it("with attention checks on: shows the HIT's 2 checks among the tweets, requires them, and stores their answers with the others", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    await saveCrowdPolicy(f.db, { eventId: f.eventId, raw: { attentionChecks: true }, actorId: null });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const pid = "6000000000000000000000b1";
    await takeScreening(f, pid, 10);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 1 }, provider: f.provider });
    await publishQueued(f);
    const hit = await f.db.hit.findFirstOrThrow({ include: { items: { orderBy: { position: "asc" }, include: { tweet: true } } } });
    const studyId = studyOfHit(hit.providerHitId);
    const sub = f.prolific.service.startSubmission(pid, studyId);
    const params = { PROLIFIC_PID: pid, STUDY_ID: studyId, SESSION_ID: sub.id };

    const content = await openProlificTask(f.db, f.provider, params);
    const checks = attentionChecksFor(hit.id, content.labels, 30);
    expect(content.checks).toEqual(checks);
    expect(content.items).toHaveLength(30);
    // The page: 32 items, the tweets numbered "k of 30", each check after its tweet, its instruction as the item's text.
    const html = renderProlificTaskPage(content, params, { action: "/prolific/task" });
    expect(html.match(/<fieldset/g)).toHaveLength(32);
    expect(html.match(/<legend>Tweet \d+ of 30<\/legend>/g)).toHaveLength(30);
    expect(html.match(/<legend>Attention check<\/legend>/g)).toHaveLength(2);
    for (const c of checks) {
      const at = html.indexOf(`<fieldset data-check="${c.number}">`);
      expect(at).toBeGreaterThan(html.indexOf(`<legend>Tweet ${c.after} of 30</legend>`));
      if (c.after < 30) expect(at).toBeLessThan(html.indexOf(`<legend>Tweet ${c.after + 1} of 30</legend>`));
      // (Escaped as the page escapes text: a label such as "Don't know or can't judge" carries an apostrophe.)
      const item = `<fieldset data-check="${c.number}"><legend>Attention check</legend><p class="text">${escapeHtml(`Attention check: for this item, choose “${c.name}”.`)}</p><label><input type="radio" name="${c.fieldName}" value="`;
      expect(html.slice(at, at + item.length)).toBe(item);
    }
    // What a simulated participant reads of it (lib/crowd/simulator/html-form.ts): each check's instructed option.
    const groups = parseHitForm(html).groups;
    expect(groups.map((g) => instructedOption(g)).filter((v) => v !== undefined)).toEqual(checks.map((c) => c.value));
    expect(groups.filter((g) => g.name.startsWith("item-")).every((g) => instructedOption(g) === undefined)).toBe(true);

    const fields: Record<string, string> = {};
    for (const it of hit.items) fields[hitFieldName(it.position + 1, it.id)] = it.tweet.goldLabel ?? (it.tweet.sourceLabel as string);
    // Missing checks are named as checks (not as tweet positions); a value that is no label is missing too.
    await expect(submitProlificTask(f.db, f.provider, params, fields)).rejects.toThrow(/^Attention checks 1 and 2 still need an answer\.$/);
    const { [content.items[2]!.fieldName]: _dropped, ...short } = fields;
    await expect(submitProlificTask(f.db, f.provider, params, { ...short, "check-1": checks[0]!.value, "check-2": "not-a-label" })).rejects.toThrow(
      /^Tweet 3 still needs a label\. Attention check 2 still needs an answer\.$/,
    );
    const { redirectUrl } = await submitProlificTask(f.db, f.provider, params, { ...fields, "check-1": checks[0]!.value, "check-2": checks[1]!.value });
    f.prolific.service.completeSubmission(sub.id, new URL(redirectUrl).searchParams.get("cc"));

    await syncUntilIdle(f);
    const a = await f.db.assignment.findFirstOrThrow({ include: { answer: true } });
    // Both checks followed: approved; the checks' answers are stored with the others but are neither judgments nor gold.
    expect([a.status, a.goldTotal]).toEqual(["approved", 10]);
    expect(await f.db.judgment.count({ where: { assignmentId: a.id } })).toBe(30);
    expect(a.answer?.raw).toContain("<QuestionIdentifier>check-1</QuestionIdentifier>");
  });
});
