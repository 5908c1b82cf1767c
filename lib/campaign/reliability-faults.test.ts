import { afterEach, describe, expect, it } from "vitest";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { type CallLog, recordCalls, setupBulkCampaign, simulatorDebits } from "./reliability-fixture";
import { ACTIVE_HIT_STATUSES, syncDueHits, syncHit } from "./sync";
import { answers, type CampaignFixture, takeTest, work } from "./test-fixture";

const HITS = 8;

/**
 * A whole campaign with simulated workers (careful, average, sloppy and spamming) while the simulator answers
 * 10% of requests with a ServiceFault (half of them after applying the request, i.e. a lost response) and
 * throttles (a rate limit plus 5% of requests at random). Two sync loops ("processes") run side by side. The
 * campaign completes; no assignment is decided twice (one decision in the audit log, one approve or reject
 * applied by the provider), and none is approved by MTurk's auto-approval instead of by Accord.
 */
describe("a campaign under injected ServiceFaults and throttling", () => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("completes with 0 double decisions and nothing auto-approved before Accord decided", async () => {
    f = await setupBulkCampaign({
      unknown: HITS * 20,
      simulator: { seed: 11, workers: "careful:8,average:6,sloppy:3,spammer-random:2,spammer-constant:2" },
    });
    const log: CallLog = recordCalls(f.sim);
    // The qualification type first (a lost CreateQualificationType response cannot be recovered by a retry).
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 4 });
    f.sim.setFaults({ serviceFaultRate: 0.1, faultAfterApplyFraction: 0.5, throttleRate: 50, throttleBurst: 20, throttleFraction: 0.1 });

    await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: "all", rewardCents: 40, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise tweets", description: "Choose a category", keywords: "tweets", seed: 8 },
    });
    expect(await drainJobs(f.db, { registry: f.jobs, types: [JOBS.publish.type] })).toEqual(["succeeded"]);
    expect(Object.keys(f.sim.state.hits)).toHaveLength(HITS);

    // Workers act as simulated time passes; two sync loops decide every five simulated minutes.
    let steps = 0;
    while ((await f.db.hit.count({ where: { status: { in: ACTIVE_HIT_STATUSES } } })) > 0) {
      expect(++steps, "the campaign should finish within 3 simulated days").toBeLessThan(3 * 288);
      f.clock.advance(300);
      await Promise.all([
        syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: f.provider, limit: 5 }),
        syncDueHits(f.db, { owner: "p2", minIntervalMs: 0, provider: f.provider, limit: 5 }),
      ]);
    }
    // Past every AutoApprovalTime: MTurk would now approve whatever Accord had left undecided.
    f.clock.advance(4 * 86_400);
    await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: f.provider, limit: 100 });

    expect(f.sim.stats.serviceFaults).toBeGreaterThan(0);
    expect(f.sim.stats.throttled).toBeGreaterThan(0);
    const hits = await f.db.hit.findMany({ select: { status: true, maxAssignments: true } });
    expect(hits.every((h) => h.status === "approved" || h.status === "unresolved")).toBe(true);

    const assignments = await f.db.assignment.findMany({ select: { id: true, providerAssignmentId: true, status: true, decisionSentAt: true } });
    expect(assignments.length).toBeGreaterThanOrEqual(HITS * 3);
    const audit = await f.db.auditLog.findMany({ where: { entityType: "assignment" }, select: { entityId: true, action: true } });
    expect(audit.filter((a) => a.action.endsWith("-by-provider"))).toEqual([]);
    const remote = f.sim.state.assignments;
    for (const a of assignments) {
      // One decision, recorded once and applied once by the provider.
      expect(audit.filter((r) => r.entityId === a.id).map((r) => r.action)).toEqual([a.status === "approved" ? "approve" : "reject"]);
      expect(log.decisions.get(a.providerAssignmentId)?.applied).toBe(1);
      expect(a.decisionSentAt).not.toBeNull();
      const r = remote[a.providerAssignmentId];
      expect(r.status).toBe(a.status === "approved" ? "Approved" : "Rejected");
      expect((r.approvalTime ?? r.rejectionTime) as number).toBeLessThan(r.autoApprovalTime as number);
    }
    // Nothing submitted was left for MTurk, and every decided assignment on the provider is one of Accord's.
    const decidedRemotely = Object.values(remote).filter((r) => r.status === "Approved" || r.status === "Rejected");
    expect(decidedRemotely).toHaveLength(assignments.length);
    expect(Object.values(remote).filter((r) => r.status === "Submitted")).toEqual([]);
    expect((await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents).toBe(simulatorDebits(f.sim));
  });
});

describe("a HIT whose last assignments arrive while it is being synced", () => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("is not decided before those assignments are in (they would be left to auto-approval)", async () => {
    const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003"];
    f = await setupBulkCampaign({ unknown: 20, workerIds: W });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 4 });
    for (const w of W) await takeTest(f, w, 10);
    await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: 1, rewardCents: 40, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise tweets", description: "Choose a category", keywords: "tweets", seed: 8 },
    });
    await drainJobs(f.db, { registry: f.jobs, types: [JOBS.publish.type] });
    const hit = await f.db.hit.findFirstOrThrow({ select: { id: true } });
    // The three workers submit after the sync listed the (no) assignments and before it looks at the HIT.
    const provider = Object.create(f.provider) as typeof f.provider;
    let submitted = false;
    provider.getHit = async (input) => {
      if (!submitted) {
        submitted = true;
        for (const w of W) await work(f, w, hit.id, answers(10, (it) => it.truth));
      }
      return f.provider.getHit(input);
    };
    const first = await syncHit({ db: f.db, hitId: hit.id, provider });
    expect(submitted).toBe(true);
    expect([first.newAssignments, first.hitDecision]).toEqual([0, null]);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: hit.id } })).status).toBe("published");
    const second = await syncHit({ db: f.db, hitId: hit.id, provider: f.provider });
    expect([second.newAssignments, second.decided.approve, second.hitDecision]).toEqual([3, 3, "approved"]);
    expect(Object.values(f.sim.state.assignments).map((a) => a.status)).toEqual(["Approved", "Approved", "Approved"]);
  });
});
