import { afterEach, describe, expect, it } from "vitest";
import { createHitBatch } from "@/lib/campaign/publish";
import { setupProlificCampaign, studyOfHit, takeScreening, type ProlificCampaign } from "@/lib/campaign/prolific-fixture";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { answers, type CampaignFixture, PUBLISH_OPTIONS, publishQueued, publishTestBatch, setupCampaign, syncUntilIdle, takeTest, work } from "@/lib/campaign/test-fixture";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { readHitContent } from "./hit-content";
import { renderProlificScreeningPage, renderProlificTaskPage } from "./prolific-page";
import { openProlificScreening } from "./prolific-screening";
import { openProlificTask } from "./prolific-work";

// Nothing a participant sees names a tweet: gold recurs across HITs, and a stable id would let workers learn it.

async function externalIds(f: Pick<CampaignFixture, "db">): Promise<string[]> {
  return (await f.db.tweet.findMany({ select: { externalId: true } })).map((t) => t.externalId);
}

/** The tweet ids found in `html` (none is the expected answer). */
const leaked = (html: string, ids: string[]) => ids.filter((id) => html.includes(id));

describe("the MTurk HIT and its answers", () => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("carry per-HIT item ids only: no tweet id in any HIT or the qualification test, a recurring gold tweet has other ids in each HIT, and answers map back to the right tweets", async () => {
    f = await setupCampaign({ unknown: 60 });
    await publishTestBatch(f, { hitCount: 3 });
    const ids = await externalIds(f);
    const hits = await f.db.hit.findMany({ orderBy: { seq: "asc" }, include: { items: { orderBy: { position: "asc" } } } });
    expect(hits).toHaveLength(3);
    const fieldsOfTweet = new Map<string, string[]>();
    for (const h of hits) {
      const question = f.sim.state.hits[h.providerHitId as string]!.Question;
      expect(leaked(question, ids)).toEqual([]);
      expect(question).not.toContain("data-tweet-id");
      readHitContent(question).items.forEach((it, i) => {
        expect(it.fieldName).toBe(hitFieldName(i + 1, h.items[i]!.id));
        fieldsOfTweet.set(h.items[i]!.tweetId, [...(fieldsOfTweet.get(h.items[i]!.tweetId) ?? []), it.fieldName]);
      });
    }
    for (const q of Object.values(f.sim.state.qualificationTypes)) expect(leaked(`${q.Test}${q.AnswerKey}`, ids)).toEqual([]);
    // 3 HITs × 10 gold from 20 gold tweets: some gold recurs, always under another id.
    const recurring = [...fieldsOfTweet.entries()].filter(([, names]) => names.length > 1);
    expect(recurring.length).toBeGreaterThan(0);
    for (const [, names] of recurring) expect(new Set(names).size).toBe(names.length);

    // Three workers answer every HIT by the truth: each judgment lands on the tweet its item stands for.
    const workers = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003"];
    for (const w of workers) await takeTest(f, w, 10);
    for (const h of hits) for (const w of workers) await work(f, w, h.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    const judgments = await f.db.judgment.findMany({ include: { hitItem: true } });
    expect(judgments).toHaveLength(3 * 3 * 30);
    for (const j of judgments) {
      expect(j.tweetId).toBe(j.hitItem.tweetId);
      expect(j.label).toBe(f.truth.get(j.tweetId));
    }
    const [goldTweet] = recurring[0]!;
    expect(new Set(judgments.filter((j) => j.tweetId === goldTweet).map((j) => j.hitItemId)).size).toBe(recurring[0]![1].length);
  });
});

describe("Accord's Prolific pages", () => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("show no tweet id: the screening's gold and the task's tweets go by position and per-HIT item ids", async () => {
    f = await setupProlificCampaign({ unknown: 20 });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const ids = await externalIds(f);
    const qualification = test.providerQualTypeId as string;
    const { studyId: screeningStudy } = await f.provider.screeningTest(qualification);
    const newcomer = "6000000000000000000000d1";
    const session = f.prolific.service.startSubmission(newcomer, screeningStudy);
    const screeningParams = { qualification, PROLIFIC_PID: newcomer, STUDY_ID: screeningStudy, SESSION_ID: session.id };
    const { content: screening } = await openProlificScreening(f.db, f.provider, screeningParams);
    const screeningHtml = renderProlificScreeningPage(screening, screeningParams, { action: "/prolific/screening" });
    expect(screening.questions).toHaveLength(10);
    expect(leaked(screeningHtml, ids)).toEqual([]);
    expect(screeningHtml).not.toContain("data-tweet-id");

    const pid = "6000000000000000000000d2";
    await takeScreening(f, pid, 10);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 1 }, provider: f.provider });
    await publishQueued(f);
    const hit = await f.db.hit.findFirstOrThrow({ include: { items: { orderBy: { position: "asc" } } } });
    const studyId = studyOfHit(hit.providerHitId);
    const params = { PROLIFIC_PID: pid, STUDY_ID: studyId, SESSION_ID: f.prolific.service.startSubmission(pid, studyId).id };
    const content = await openProlificTask(f.db, f.provider, params);
    const html = renderProlificTaskPage(content, params, { action: "/prolific/task" });
    expect(leaked(html, ids)).toEqual([]);
    expect(html).not.toContain("data-tweet-id");
    expect(content.items.map((i) => i.fieldName)).toEqual(hit.items.map((i) => hitFieldName(i.position + 1, i.id)));
    for (const it of content.items) expect(html).toContain(`name="${it.fieldName}"`);
  });
});
