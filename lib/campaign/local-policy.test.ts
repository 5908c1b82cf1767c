import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { answers, type CampaignFixture, PUBLISH_OPTIONS, publishQueued, setupCampaign, syncUntilIdle, takeTest, work } from "./test-fixture";

// The in-house crowd's policy in the sync loop: work below the gold rule is never rejected; it is accepted, excluded
// from agreement (its judgments never count) with the reason recorded, and the annotator is not blocked. The HITs run
// on the MTurk simulator; the event's crowd is what picks the policy.

const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003"];

describe.each(testFlavors())("the in-house crowd's decisions (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("a 6/10 submission is excluded with its reason, never rejected; its judgments do not count", async () => {
    f = await setupCampaign({ flavor, unknown: 20 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const w of W) await takeTest(f, w, 10);
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...PUBLISH_OPTIONS, hitCount: 1, seed: 42 }, provider: f.provider });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const [hit] = await f.db.hit.findMany({ where: { batchId: batch.id } });
    await f.db.event.update({ where: { id: f.eventId }, data: { provider: PROVIDER_KIND.local } });
    await work(f, W[0]!, hit!.id, answers(7, (it) => it.truth));
    await work(f, W[1]!, hit!.id, answers(6, (it) => it.truth));
    await work(f, W[2]!, hit!.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    const excluded = await f.db.assignment.findFirstOrThrow({ where: { worker: { externalId: W[1] } }, include: { worker: true } });
    expect([excluded.status, excluded.decision]).toEqual(["approved", "approve"]);
    expect(excluded.excludedReason).toBe("Excluded: 6 of 10 gold tweets correct; at least 7 of 10 (70%) needed.");
    expect(excluded.worker.blocked).toBe(false);
    expect(await f.db.judgment.count({ where: { assignmentId: excluded.id, counted: true } })).toBe(0);
    expect(await f.db.assignment.count({ where: { status: "rejected" } })).toBe(0);
    // Two counted judgments per tweet: the HIT asks for one more assignment, as after a rejection.
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit!.id } })).status).toBe("extended");
  });
});
