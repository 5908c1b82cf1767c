import { afterEach, describe, expect, it } from "vitest";
import { testFlavors } from "@/lib/db/test-db";
import { saveCrowdPolicy } from "./prelaunch-check";
import { setupProlificCampaign, takeScreening, workOnProlific, type ProlificCampaign } from "./prolific-fixture";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { answers, PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "./test-fixture";

// The Prolific policy's valid rejection and its cap, in a campaign: with TOO_QUICKLY enabled and a 10% cap, of two
// completions far faster than the study's others (all with perfect gold), the first is rejected as TOO_QUICKLY with a
// message of at least 100 characters, and the second is held: the study has rejected its share (1 of 12 places).

const participant = (i: number) => `7000000000000000000000${String(i).padStart(2, "0")}`;

describe.each(testFlavors())("Prolific's valid rejections and the rejection cap (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("rejects an exceptionally fast completion as TOO_QUICKLY once the study has 10, then holds at the cap", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 80 });
    await saveCrowdPolicy(f.db, { eventId: f.eventId, raw: { rejectTooQuick: true, rejectionCapShare: 0.1 }, actorId: null });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (let i = 0; i < 12; i++) expect((await takeScreening(f, participant(i), 10)).passed).toBe(true);
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, provider: f.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 4 } });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const hits = await f.db.hit.findMany({ where: { batchId: batch.id }, orderBy: { seq: "asc" } });
    // What Accord asks Prolific: the submission, the rejection category, the message.
    const rejections: Array<[string, string, string]> = [];
    const reject = f.provider.client.rejectSubmission.bind(f.provider.client);
    f.provider.client.rejectSubmission = async (id, category, message) => {
      rejections.push([id, category, message]);
      return reject(id, category, message);
    };
    // Ten completions of 20 minutes, then two of 5 seconds; every one with all gold right.
    const subs: string[] = [];
    for (let i = 0; i < 12; i++) subs.push(await workOnProlific(f, participant(i), hits[Math.floor(i / 3)]!.id, answers(10, (it) => it.truth), i < 10 ? 1200 : 5));
    await syncUntilIdle(f);
    const byWorker = async (i: number) => f.db.assignment.findFirstOrThrow({ where: { worker: { externalId: participant(i) } } });
    for (let i = 0; i < 10; i++) expect((await byWorker(i)).status).toBe("approved");
    const quick = await byWorker(10);
    expect([quick.status, quick.decision]).toEqual(["rejected", "reject"]);
    expect((quick.feedback ?? "").length >= 100).toBe(true); // Prolific's minimum message length
    expect(quick.feedback).toMatch(/completed in 5 seconds, more than three standard deviations faster than this study's mean/);
    expect(f.prolific.state.submissions[subs[10]!]!.status).toBe("REJECTED");
    expect(rejections).toEqual([[subs[10], "TOO_QUICKLY", quick.feedback]]);
    // The cap (10% of 12 places = 1) is reached: the second is held for review, still awaiting review on Prolific.
    const held = await byWorker(11);
    expect([held.status, held.decision]).toEqual(["held", "hold"]);
    expect(held.feedback).toMatch(/^Held for review: TOO_QUICKLY would apply, but this study has rejected 1 of 12 places/);
    expect(f.prolific.state.submissions[subs[11]!]!.status).toBe("AWAITING REVIEW");
  });
});
