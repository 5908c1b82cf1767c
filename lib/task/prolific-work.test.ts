import { afterEach, describe, expect, it } from "vitest";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { createHitBatch } from "@/lib/campaign/publish";
import { testFlavors } from "@/lib/db/test-db";
import { setupProlificCampaign, studyOfHit, takeScreening, type ProlificCampaign } from "@/lib/campaign/prolific-fixture";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "@/lib/campaign/test-fixture";
import { displayText } from "@/lib/text/display-text";
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
});
