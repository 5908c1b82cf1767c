import { afterEach, describe, expect, it } from "vitest";
import { testFlavors } from "@/lib/db/test-db";
import { estimateBatch } from "./estimate";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { answers, type CampaignFixture, otherLabel, PUBLISH_OPTIONS, publishQueued, setupCampaign, syncUntilIdle, takeTest, work } from "./test-fixture";

const OPTIONS = PUBLISH_OPTIONS;

const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003", "AWORKER0000004", "AWORKER0000005"];
const SPAMMER = "ASPAMMER000001";

describe.each(testFlavors())("the campaign against the MTurk simulator (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  async function ready(extra: { unknown?: number; hitCount?: number } = {}) {
    f = await setupCampaign({ flavor, unknown: extra.unknown ?? 40 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const w of [...W, SPAMMER]) await takeTest(f, w, 10);
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount: extra.hitCount ?? 2, seed: 42 }, provider: f.provider });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const hits = await f.db.hit.findMany({ where: { batchId: batch.id }, orderBy: { seq: "asc" }, select: { id: true, providerHitId: true, status: true } });
    return hits;
  }

  it("qualification: 6/10 passes and may work, 5/10 fails and may not", async () => {
    f = await setupCampaign({ flavor, unknown: 20 });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 3 });
    expect(test.status).toBe("active");
    expect(test.passPercent).toBe(60);
    expect((test.goldTweetIds as string[]).length).toBe(10);
    expect((await takeTest(f, W[0], 6)).score).toBe(60);
    expect((await takeTest(f, W[1], 5)).score).toBe(50);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount: 1 }, provider: f.provider });
    await publishQueued(f);
    const hit = await f.db.hit.findFirstOrThrow({ select: { providerHitId: true } });
    expect(f.sim.service.listAssignableHits(W[0])).toContain(hit.providerHitId);
    expect(f.sim.service.listAssignableHits(W[1])).not.toContain(hit.providerHitId);
    expect(() => f.sim.service.acceptHit({ workerId: W[1], hitId: hit.providerHitId as string })).toThrow();
  });

  it("publishes a batch (10 gold + 20 unknown, shuffled) and decides it fully; the ledger equals the simulator's debits", async () => {
    const hits = await ready();
    expect(hits).toHaveLength(2);
    for (const h of hits) {
      expect(h.status).toBe("published");
      const items = await f.db.hitItem.findMany({ where: { hitId: h.id } });
      expect(items.filter((i) => i.isGold)).toHaveLength(10);
      expect(items.filter((i) => !i.isGold)).toHaveLength(20);
      expect(new Set(items.map((i) => i.tweetId)).size).toBe(30);
    }
    expect(Object.keys(f.sim.state.hits)).toHaveLength(2);
    const balanceBefore = f.sim.state.balanceCents;
    for (const h of hits) for (const w of W.slice(0, 3)) await work(f, w, h.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);

    const assignments = await f.db.assignment.findMany();
    expect(assignments).toHaveLength(6);
    expect(assignments.every((a) => a.status === "approved" && a.decisionSentAt)).toBe(true);
    // Each assignment's answer document is kept as the provider sent it, with the field of every tweet.
    const stored = await f.db.assignmentAnswer.findMany();
    expect(stored.map((s) => s.assignmentId).sort()).toEqual(assignments.map((a) => a.id).sort());
    for (const s of stored) expect(s.raw.match(/<QuestionIdentifier>item-/g)).toHaveLength(30);
    for (const h of hits) expect((await f.db.hit.findUniqueOrThrow({ where: { id: h.id } })).status).toBe("approved");
    const accepted = await f.db.acceptedLabel.findMany();
    expect(accepted).toHaveLength(40);
    for (const a of accepted) {
      expect(a.label).toBe(f.truth.get(a.tweetId));
      expect([a.topVotes, a.totalVotes]).toEqual([3, 3]);
    }
    // 6 approvals × ($0.50 + $0.10 fee).
    const ledger = await f.db.costEntry.aggregate({ _sum: { amountCents: true } });
    expect(ledger._sum.amountCents).toBe(360);
    expect(balanceBefore - f.sim.state.balanceCents).toBe(360);
    // Worker statistics and the agreement snapshot.
    const w1 = await f.db.worker.findFirstOrThrow({ where: { externalId: W[0] } });
    expect([w1.assignmentsApproved, w1.goldCorrect, w1.goldTotal, w1.agreeCount, w1.agreeTotal, w1.earningsCents]).toEqual([2, 20, 20, 40, 40, 100]);
    expect(await f.db.metricSnapshot.count({ where: { eventId: f.eventId } })).toBeGreaterThan(0);
  });

  it("approves at exactly 7/10 gold, rejects at 6/10 with feedback, extends the HIT and then approves it", async () => {
    const [hit] = await ready({ hitCount: 1 });
    await work(f, W[0], hit.id, answers(7, (it) => it.truth));
    await work(f, W[1], hit.id, answers(6, (it) => it.truth));
    await work(f, W[2], hit.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    const byWorker = async (w: string) => f.db.assignment.findFirstOrThrow({ where: { worker: { externalId: w } } });
    expect((await byWorker(W[0])).status).toBe("approved");
    const rejected = await byWorker(W[1]);
    expect(rejected.status).toBe("rejected");
    expect(rejected.feedback).toBe("Rejected: 6 of 10 gold tweets correct; at least 7 of 10 (70%) needed.");
    const remote = Object.values(f.sim.state.assignments).find((a) => a.WorkerId === W[1]);
    expect(remote?.status).toBe("Rejected");
    expect(remote?.RequesterFeedback).toBe(rejected.feedback);
    // Only two approved judgments per tweet: nothing accepted yet, one more assignment requested.
    let h = await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } });
    expect([h.status, h.maxAssignments]).toEqual(["extended", 4]);
    expect(f.sim.state.hits[hit.providerHitId as string].MaxAssignments).toBe(4);
    const audit = await f.db.auditLog.findFirstOrThrow({ where: { entityType: "hit", action: "extend" } });
    expect(audit.reason).toContain("0 of 20 unknown tweets have an accepted label");

    await work(f, W[3], hit.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    h = await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } });
    expect([h.status, h.acceptedTweets]).toEqual(["approved", 20]);
    // The rejected worker is not paid: 3 approvals × 60 cents.
    expect((await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents).toBe(180);
  });

  it("accepts at 2/3 and 3/4, approves a HIT at 14/20, extends one at 13/20", async () => {
    const [h1, h2] = await ready();
    // HIT 1: 14 tweets agreed (12 unanimous + 2 at 2 of 3), 6 split three ways → approved at 14/20.
    const split = (w: number) => (it: { index: number; truth: string }) =>
      it.index < 12 ? it.truth : it.index < 14 ? (w < 2 ? it.truth : otherLabel(it.truth)) : otherLabel(it.truth, w + 1);
    for (let w = 0; w < 3; w++) await work(f, W[w], h1.id, answers(10, split(w)));
    // HIT 2: 12 unanimous + 1 at 2 of 3 = 13; 7 where the third worker left the tweet unanswered and the
    // other two disagree → extended by one assignment.
    const partial = (w: number) => (it: { index: number; truth: string }) =>
      it.index < 12 ? it.truth : it.index === 19 ? (w < 2 ? it.truth : otherLabel(it.truth)) : w === 0 ? it.truth : w === 1 ? otherLabel(it.truth) : null;
    for (let w = 0; w < 3; w++) await work(f, W[w], h2.id, answers(10, partial(w)));
    await syncUntilIdle(f);

    const hit1 = await f.db.hit.findUniqueOrThrow({ where: { id: h1.id } });
    expect([hit1.status, hit1.acceptedTweets]).toEqual(["approved", 14]);
    const twoOfThree = await f.db.acceptedLabel.findMany({ where: { topVotes: 2, totalVotes: 3 } });
    expect(twoOfThree.length).toBeGreaterThanOrEqual(2);
    expect(await f.db.tweet.count({ where: { status: "unresolved" } })).toBe(6);

    const hit2 = await f.db.hit.findUniqueOrThrow({ where: { id: h2.id } });
    expect([hit2.status, hit2.maxAssignments]).toEqual(["extended", 4]);
    const reason = (await f.db.auditLog.findFirstOrThrow({ where: { entityId: h2.id, action: "extend" } })).reason;
    expect(reason).toBe("13 of 20 unknown tweets have an accepted label; at least 14 (70%) needed: adding 1 assignment.");

    // The fourth worker agrees with the truth everywhere: 2/3 for the seven, 3/4 for tweet 19.
    await work(f, W[3], h2.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    const done = await f.db.hit.findUniqueOrThrow({ where: { id: h2.id } });
    expect([done.status, done.acceptedTweets]).toEqual(["approved", 20]);
    const items = await f.db.hitItem.findMany({ where: { hitId: h2.id, isGold: false }, select: { tweetId: true } });
    const labels = await f.db.acceptedLabel.findMany({ where: { tweetId: { in: items.map((i) => i.tweetId) } } });
    expect(labels.filter((l) => l.topVotes === 3 && l.totalVotes === 4)).toHaveLength(1);
    expect(labels.filter((l) => l.topVotes === 2 && l.totalVotes === 3)).toHaveLength(7);
    expect(labels.every((l) => l.label === f.truth.get(l.tweetId))).toBe(true);
  });

  it("stops at 5 assignments: 3/5 fails and the HIT ends unresolved", async () => {
    const [hit] = await ready({ hitCount: 1 });
    // Round 1: tweets 0–9 agree (tweet 0 at 2 of 3), tweets 10–19 split 1/1 with the third answer missing.
    await work(f, W[0], hit.id, answers(10, (it) => it.truth));
    await work(f, W[1], hit.id, answers(10, (it) => (it.index < 10 ? it.truth : otherLabel(it.truth))));
    await work(f, W[2], hit.id, answers(10, (it) => (it.index === 0 ? otherLabel(it.truth) : it.index < 10 ? it.truth : null)));
    await syncUntilIdle(f);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).maxAssignments).toBe(4);
    // Round 2: nobody answers 10–19 again; tweet 0 gets a second dissent.
    await work(f, W[3], hit.id, answers(10, (it) => (it.index === 0 ? otherLabel(it.truth) : it.index < 10 ? it.truth : null)));
    await syncUntilIdle(f);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).maxAssignments).toBe(5);
    // Round 3 (the cap): a third label on 10–19 → 1/1/1; tweet 0 ends at 3 of 5.
    await work(f, W[4], hit.id, answers(10, (it) => (it.index < 10 ? it.truth : otherLabel(it.truth, 2))));
    await syncUntilIdle(f);
    const h = await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } });
    expect([h.status, h.maxAssignments, h.acceptedTweets]).toEqual(["unresolved", 5, 9]);
    expect(f.sim.state.hits[hit.providerHitId as string].MaxAssignments).toBe(5);
    const first = await f.db.hitItem.findFirstOrThrow({ where: { hitId: hit.id, isGold: false }, orderBy: { position: "asc" }, select: { tweetId: true } });
    const items = await f.db.hitItem.findMany({ where: { hitId: hit.id, isGold: false }, orderBy: { position: "asc" }, select: { tweetId: true } });
    expect(items[0].tweetId).toBe(first.tweetId);
    const t0 = await f.db.tweet.findUniqueOrThrow({ where: { id: first.tweetId }, include: { acceptedLabel: true } });
    expect(t0.status).toBe("unresolved");
    expect(t0.acceptedLabel).toBeNull();
    const counted = await f.db.judgment.count({ where: { tweetId: first.tweetId, counted: true } });
    expect(counted).toBe(5);
  });

  it("rejects a spammer's assignment with feedback, and decides everything before MTurk's auto-approval", async () => {
    const [hit] = await ready({ hitCount: 1 });
    const constant = "not_humanitarian";
    await work(f, SPAMMER, hit.id, () => constant);
    for (const w of W.slice(0, 2)) await work(f, w, hit.id, answers(10, (it) => it.truth));
    // Well before the auto-approval time (3 days): the sync decides, and replaces the spammer's judgments.
    f.clock.advance(600);
    await syncUntilIdle(f);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).maxAssignments).toBe(4);
    await work(f, W[2], hit.id, answers(10, (it) => it.truth));
    f.clock.advance(600);
    await syncUntilIdle(f);
    const spam = await f.db.assignment.findFirstOrThrow({ where: { worker: { externalId: SPAMMER } } });
    expect(spam.status).toBe("rejected");
    expect(spam.feedback).toMatch(/^Rejected: \d of 10 gold tweets correct; at least 7 of 10 \(70%\) needed\.$/);
    // Then time passes beyond every AutoApprovalTime: nothing was left for MTurk to auto-approve.
    f.clock.advance(4 * 24 * 3600);
    await syncUntilIdle(f);
    const remote = Object.values(f.sim.state.assignments).filter((a) => a.status === "Approved" || a.status === "Rejected");
    expect(remote).toHaveLength(4);
    for (const a of remote) {
      const decidedAt = (a.approvalTime ?? a.rejectionTime) as number;
      expect(decidedAt).toBeLessThan(a.autoApprovalTime as number);
    }
    expect(await f.db.auditLog.count({ where: { action: { in: ["approved-by-provider", "rejected-by-provider"] } } })).toBe(0);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).status).toBe("approved");
  });

  it("never creates a duplicate HIT when publishing is retried after a crash, and never decides twice", async () => {
    f = await setupCampaign({ flavor, unknown: 60 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const estimate = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: "all", rewardCents: 50 });
    expect(estimate.hits).toBe(3);
    // 3 HITs × 3 × 60c + 3 × 2 extra × 60c.
    expect([estimate.baseCents, estimate.extraReserveCents, estimate.worstCaseCents]).toEqual([540, 360, 900]);
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount: "all" }, provider: f.provider });
    await publishQueued(f);
    // Simulate a crash after the provider created the HITs but before Accord stored their ids.
    await f.db.hit.updateMany({ data: { status: "draft", providerHitId: null } });
    const batch = await f.db.hitBatch.findFirstOrThrow();
    await f.db.job.update({ where: { id: batch.jobId as string }, data: { state: "queued" } });
    await publishQueued(f);
    expect(Object.keys(f.sim.state.hits)).toHaveLength(3);
    const hits = await f.db.hit.findMany();
    expect(new Set(hits.map((h) => h.providerHitId)).size).toBe(3);
    expect(hits.every((h) => h.status === "published")).toBe(true);

    for (const w of [...W.slice(0, 3)]) await takeTest(f, w, 10);
    for (const w of W.slice(0, 3)) await work(f, w, hits[0].id, answers(10, (it) => it.truth));
    // Two "processes" syncing at once.
    const { syncDueHits } = await import("./sync");
    await Promise.all([
      syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: f.provider }),
      syncDueHits(f.db, { owner: "p2", minIntervalMs: 0, provider: f.provider }),
    ]);
    await syncUntilIdle(f);
    const decisions = await f.db.auditLog.count({ where: { entityType: "assignment", action: "approve" } });
    expect(decisions).toBe(3);
    expect(await f.db.costEntry.count()).toBe(6);
  });

  it("refuses a batch above the budget cap", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    await f.db.setting.create({ data: { key: "crowd.budgetCapCents", value: 500 } });
    await expect(createHitBatch({ db: f.db, eventId: f.eventId, options: OPTIONS, provider: f.provider })).rejects.toThrow(/exceeds the all-events budget cap of \$5\.00/);
    expect(await f.db.hit.count()).toBe(0);
  });
});
