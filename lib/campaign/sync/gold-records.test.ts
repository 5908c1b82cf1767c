import { afterEach, describe, expect, it } from "vitest";
import { createHitBatch } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { answers, type CampaignFixture, publishQueued, setupCampaign, takeTest, work } from "@/lib/campaign/test-fixture";
import { testFlavors } from "@/lib/db/test-db";
import { loadPriorRecordsOfEvent } from "@/lib/analysis/replay";
import { syncHit } from "./pass";

const W = ["AWORKER0000001", "AWORKER0000002"];

// The whole-record rule in submission order when the loop sees a worker's assignments out of order: the worker
// submits to HIT 2 (6/10) and then HIT 1 (4/10), and HIT 1 is synced first. HIT 1's grade cannot know HIT 2's
// assignment (not yet ingested): record 4/10. HIT 2's grade counts only what was submitted before it: 6/10, not the
// 10/20 that includes the later HIT 1 assignment graded meanwhile (the second, non-grouped query).
describe.each(testFlavors())("the worker's record before an assignment (gold-records.ts, %s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("counts only the worker's assignments submitted before, even when a later one was graded first", async () => {
    f = await setupCampaign({ flavor, unknown: 40, workerIds: W, settings: { goldRule: "whole-record" } });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const w of W) await takeTest(f, w, 10);
    await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: 2, rewardCents: 50, lifetimeSeconds: 86400, durationSeconds: 3600, autoApprovalSeconds: 86400, title: "t", description: "d", keywords: "k", seed: 5 },
    });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const [h1, h2] = await f.db.hit.findMany({ where: { eventId: f.eventId }, orderBy: { seq: "asc" }, select: { id: true } });
    const early = await work(f, W[0], h2.id, answers(6, (it) => it.truth));
    const late = await work(f, W[0], h1.id, answers(4, (it) => it.truth));
    await work(f, W[1], h2.id, answers(10, (it) => it.truth));
    await syncHit({ db: f.db, hitId: h1.id, provider: f.provider });
    await syncHit({ db: f.db, hitId: h2.id, provider: f.provider });
    const reason = async (id: string) => (await f.db.assignment.findUniqueOrThrow({ where: { providerAssignmentId: id }, select: { decisionReason: true, status: true } }));
    // 4/10 alone: P(accuracy < 70%) = P(Bin(11, .7) ≥ 5) = 0.9784 > 0.95: rejected.
    expect(await reason(late)).toMatchObject({ status: "rejected", decisionReason: { rule: "whole_record", record: { correct: 4, total: 10 } } });
    expect(await reason(early)).toMatchObject({ status: "approved", decisionReason: { rule: "whole_record", record: { correct: 6, total: 10 } } });
    // The replay takes each grade's own record (what the loop knew), not the submission-order one (6 + 4 for HIT 1).
    const ids = async (pid: string) => (await f.db.assignment.findUniqueOrThrow({ where: { providerAssignmentId: pid }, select: { id: true } })).id;
    const [earlyId, lateId] = [await ids(early), await ids(late)];
    const stored = await loadPriorRecordsOfEvent(f.db, f.eventId);
    expect([stored.get(earlyId), stored.get(lateId)]).toEqual([{ correct: 0, total: 0 }, { correct: 0, total: 0 }]);
    await f.db.assignment.updateMany({ data: { decisionReason: {} } });
    const ordered = await loadPriorRecordsOfEvent(f.db, f.eventId);
    expect([ordered.get(earlyId), ordered.get(lateId)]).toEqual([{ correct: 0, total: 0 }, { correct: 6, total: 10 }]);
  });
});
