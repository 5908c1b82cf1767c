import { afterEach, describe, expect, it } from "vitest";
import { createHitBatch, type PublishOptions } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { answers, type CampaignFixture, otherLabel, PUBLISH_OPTIONS, publishQueued, setupCampaign, syncUntilIdle, takeTest, work } from "@/lib/campaign/test-fixture";
import { testFlavors } from "@/lib/db/test-db";
import { readEventSettings } from "./event-settings";
import { loadGoldRuleRisk } from "./gold-rule-risk";
import { loadRecordedEvent, replayEvent, replayOutcomes } from "./replay";

const OPTIONS: PublishOptions = { ...PUBLISH_OPTIONS, hitCount: 3, seed: 5 };
const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003", "AWORKER0000004", "AWORKER0000005", "ASPAMMER000001"];

// Replay (issue 20, point 6) on a campaign decided by the real sync loop against the MTurk simulator: with the event's
// own thresholds it reproduces every decision the loop made — assignments approved and rejected, HITs approved,
// extended to their recorded size or left unresolved, the accepted labels and the ledger.
describe.each(testFlavors())("replay of a campaign run through the sync loop (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("the event's own thresholds reproduce the loop's decisions exactly", async () => {
    f = await setupCampaign({ flavor, unknown: 60, workerIds: W });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const w of W) await takeTest(f, w, 10);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: OPTIONS, provider: f.provider });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const [h1, h2, h3] = await f.db.hit.findMany({ where: { eventId: f.eventId }, orderBy: { seq: "asc" }, select: { id: true } });

    // HIT 1: three careful workers → approved with 3 assignments.
    for (const w of W.slice(0, 3)) await work(f, w, h1.id, answers(10, (it) => it.truth));
    // HIT 2: a spammer fails the gold (rejected) and one worker splits 6 tweets → extended, then approved.
    await work(f, W[5], h2.id, answers(3, (it) => otherLabel(it.truth, 2)));
    await work(f, W[0], h2.id, answers(9, (it) => it.truth));
    await work(f, W[1], h2.id, answers(7, (it) => (it.index < 6 ? otherLabel(it.truth) : it.truth)));
    // HIT 3: half its tweets split 1/1 with the third answer missing → extended twice, to the cap, then unresolved.
    await work(f, W[0], h3.id, answers(10, (it) => it.truth));
    await work(f, W[1], h3.id, answers(10, (it) => (it.index < 10 ? it.truth : otherLabel(it.truth))));
    await work(f, W[2], h3.id, answers(8, (it) => (it.index === 0 ? otherLabel(it.truth) : it.index < 10 ? it.truth : null)));
    await syncUntilIdle(f);
    await work(f, W[2], h2.id, answers(10, (it) => it.truth));
    await work(f, W[3], h3.id, answers(10, (it) => (it.index === 0 ? otherLabel(it.truth) : it.index < 10 ? it.truth : null)));
    await syncUntilIdle(f);
    await work(f, W[4], h3.id, answers(10, (it) => (it.index < 10 ? it.truth : otherLabel(it.truth, 2))));
    await syncUntilIdle(f);

    const hits = await f.db.hit.findMany({ where: { eventId: f.eventId }, orderBy: { seq: "asc" }, select: { id: true, status: true, maxAssignments: true } });
    expect(hits.map((h) => h.status)).toEqual(["approved", "approved", "unresolved"]);
    expect(hits.map((h) => h.maxAssignments)).toEqual([3, 4, 5]);
    expect(await f.db.assignment.count({ where: { status: "rejected" } })).toBe(1);

    const { settings, recorded, replayed, outcome } = await replayMatchesLoop(f, hits);
    const labels = await f.db.acceptedLabel.findMany({ where: { eventId: f.eventId }, select: { tweetId: true, label: true } });
    const byTweet = (a: { tweetId: string }, b: { tweetId: string }) => a.tweetId.localeCompare(b.tweetId);
    expect(replayed.flatMap((r) => r.accepted).sort(byTweet)).toEqual(labels.map((l) => ({ tweetId: l.tweetId, label: l.label })).sort(byTweet));
    expect(outcome.assignmentsApproved).toBe(await f.db.assignment.count({ where: { status: "approved" } }));
    expect(outcome.hitsApproved).toBe(2);
    const ledger = await f.db.costEntry.aggregate({ where: { eventId: f.eventId }, _sum: { amountCents: true } });
    expect(outcome.costCents).toBe(ledger._sum.amountCents);
    // The grid's first row is the event's own and says so.
    expect(replayOutcomes(recorded, settings)[0]).toMatchObject({ actual: true, ...outcome });
  });

  // Point 5: the whole-record gold rule decides. Worker 0 scores 6/10 (per HIT a rejection; over the record so far,
  // P(accuracy < 70%) = 0.79, approved), then 4/10 (record 10/20: 0.97 > 0.95, rejected) and 10/10 in the same pass
  // (record 20/30: 0.69, approved). The replay with the event's settings reproduces it; per HIT the first HIT differs.
  it("a whole-record event: the loop grades on running records and the replay reproduces its decisions", async () => {
    f = await setupCampaign({ flavor, unknown: 60, workerIds: W, settings: { goldRule: "whole-record" } });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const w of W) await takeTest(f, w, 10);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: OPTIONS, provider: f.provider });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const [h1, h2, h3] = await f.db.hit.findMany({ where: { eventId: f.eventId }, orderBy: { seq: "asc" }, select: { id: true } });
    const truth = answers(10, (it) => it.truth);

    const first = await work(f, W[0], h1.id, answers(6, (it) => it.truth));
    for (const w of W.slice(1, 3)) await work(f, w, h1.id, truth);
    await syncUntilIdle(f);
    await work(f, W[5], h2.id, answers(3, (it) => otherLabel(it.truth, 2)));
    const second = await work(f, W[0], h2.id, answers(4, (it) => it.truth));
    await work(f, W[1], h2.id, truth);
    const third = await work(f, W[0], h3.id, truth);
    for (const w of W.slice(1, 3)) await work(f, w, h3.id, truth);
    await syncUntilIdle(f);
    for (const w of W.slice(2, 4)) await work(f, w, h2.id, truth);
    await syncUntilIdle(f);

    const hits = await f.db.hit.findMany({ where: { eventId: f.eventId }, orderBy: { seq: "asc" }, select: { id: true, status: true, maxAssignments: true } });
    expect(hits.map((h) => [h.status, h.maxAssignments])).toEqual([
      ["approved", 3],
      ["approved", 5],
      ["approved", 3],
    ]);
    const reasons = await f.db.assignment.findMany({ where: { providerAssignmentId: { in: [first, second, third] } }, select: { providerAssignmentId: true, status: true, decisionReason: true } });
    const byProvider = new Map(reasons.map((r) => [r.providerAssignmentId, r]));
    expect([first, second, third].map((id) => [byProvider.get(id)?.status, byProvider.get(id)?.decisionReason])).toEqual([
      ["approved", expect.objectContaining({ rule: "whole_record", record: expect.objectContaining({ correct: 6, total: 10 }) })],
      ["rejected", expect.objectContaining({ rule: "whole_record", record: expect.objectContaining({ correct: 10, total: 20 }) })],
      ["approved", expect.objectContaining({ rule: "whole_record", record: expect.objectContaining({ correct: 20, total: 30 }) })],
    ]);
    expect(await f.db.assignment.count({ where: { status: "rejected" } })).toBe(2);

    const { event, settings, recorded, outcome } = await replayMatchesLoop(f, hits);
    expect(settings.goldRule).toBe("whole-record");
    expect(outcome.assignmentsApproved).toBe(9);
    const ledger = await f.db.costEntry.aggregate({ where: { eventId: f.eventId }, _sum: { amountCents: true } });
    expect(outcome.costCents).toBe(ledger._sum.amountCents);
    // The records the replay computes itself (submission order) agree with those the loop stored.
    await f.db.assignment.updateMany({ where: { hit: { eventId: f.eventId } }, data: { decisionReason: {} } });
    const fromOrder = await loadRecordedEvent(f.db, f.eventId);
    expect(fromOrder.hits.map((h) => h.assignments.map((a) => a.priorRecord))).toEqual(recorded.hits.map((h) => h.assignments.map((a) => a.priorRecord)));
    expect(fromOrder.hits[1].assignments.map((a) => a.priorRecord)).toEqual([
      { correct: 0, total: 0 },
      { correct: 6, total: 10 },
      { correct: 10, total: 10 },
      { correct: 20, total: 20 },
      { correct: 0, total: 0 },
    ]);
    // Per HIT, worker 0's 6/10 is rejected: the first HIT lacks a third approved assignment.
    expect(replayEvent(recorded, { ...settings, goldRule: "per-hit" }).hits[0]).toMatchObject({ state: "out_of_data", approved: [1, 2] });
    // The count shown next to the choice: of the per-HIT rule's 3 rejections, the whole-record rule changed 1.
    const gold = await loadGoldRuleRisk(f.db, { id: f.eventId, schemeId: event.schemeId, settings });
    expect(gold.comparison).toEqual({ assignments: 11, perHitRejects: 3, wholeRecordRejects: 2, rejectionsSpared: 1, approvalsTurnedDown: 0 });
  });
});

type LoopHit = { id: string; status: string; maxAssignments: number };

/** Replays the event with its own settings and checks each HIT's end state and, in submission order, the assignments approved. */
async function replayMatchesLoop(f: CampaignFixture, hits: LoopHit[]) {
  const event = await f.db.event.findUniqueOrThrow({ where: { id: f.eventId }, select: { name: true, settings: true, schemeId: true } });
  const settings = readEventSettings(event);
  const recorded = await loadRecordedEvent(f.db, f.eventId);
  const { hits: replayed, outcome } = replayEvent(recorded, settings);
  expect(replayed.map((r) => [r.id, r.state, r.assignmentsUsed])).toEqual(hits.map((h) => [h.id, h.status, h.maxAssignments]));
  for (const [i, r] of replayed.entries()) {
    const submitted = await f.db.assignment.findMany({ where: { hitId: r.id, submitTime: { not: null } }, orderBy: [{ submitTime: "asc" }, { id: "asc" }], select: { status: true } });
    expect(r.approved, `HIT ${i + 1}`).toEqual(submitted.flatMap((a, k) => (a.status === "approved" ? [k] : [])));
  }
  return { event, settings, recorded, replayed, outcome };
}
