import { afterEach, describe, expect, it } from "vitest";
import { testFlavors } from "@/lib/db/test-db";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { ACCORD_CLI, type CallLog, type Child, recordCalls, setupBulkCampaign, simulatorDebits, startChild, waitFor } from "./reliability-fixture";
import { answers, type CampaignFixture, otherLabel, takeTest, work } from "./test-fixture";

const HITS = 6;
const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003", "AWORKER0000004"];

/**
 * Two `accord worker` processes (job runner + sync loop) share one database (a SQLite file, or PostgreSQL when
 * DATABASE_URL_PG is set) and the simulator of this process. The test queues a batch and plays the workers;
 * the two processes publish it and decide everything, including a rejected assignment and two extensions.
 * Each HIT is published once, each assignment decided once (one audit entry, one approve or reject request
 * reaching the provider), and the ledger equals the simulator's debits.
 */
describe.each(testFlavors())("two accord worker processes on one %s database", (flavor) => {
  let f: CampaignFixture;
  let workers: Child[] = [];
  afterEach(async () => {
    for (const w of workers) w.proc.kill("SIGKILL");
    await f?.close();
  });

  it("publish each HIT once and decide each assignment once", async () => {
    f = await setupBulkCampaign({ flavor, unknown: HITS * 20, workerIds: W });
    const log: CallLog = recordCalls(f.sim);
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 2 });
    for (const w of W) await takeTest(f, w, 10);
    const { batch } = await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: HITS, rewardCents: 30, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise tweets", description: "Choose a category", keywords: "tweets", seed: 3 },
    });
    workers = [0, 1].map(() => startChild([ACCORD_CLI, "worker", "--interval", "300", "--concurrency", "2"], { DATABASE_URL: f.t.url }));
    const state = () => f.db.hit.findMany({ orderBy: { seq: "asc" }, select: { id: true, status: true, maxAssignments: true } });
    const undecided = () => f.db.assignment.count({ where: { decisionSentAt: null } });
    const exitedEarly = () => workers.find((w) => w.proc.exitCode !== null || w.proc.signalCode !== null);
    const until = (check: () => Promise<boolean>, what: string) =>
      waitFor(async () => {
        const dead = exitedEarly();
        if (dead) throw new Error(`a worker process exited: ${dead.output()}`);
        return check();
      }, what, { timeoutMs: 150_000, everyMs: 200 }).catch(async (err: unknown) => {
        const detail = await f.db.hit.findMany({ select: { seq: true, status: true, maxAssignments: true, syncError: true, lastSyncedAt: true, leaseOwner: true, _count: { select: { assignments: true } } } });
        const asg = await f.db.assignment.findMany({ select: { status: true, decision: true, decisionSentAt: true, providerStatus: true } });
        throw new Error(`${(err as Error).message}\nHITs: ${JSON.stringify(detail)}\nassignments: ${JSON.stringify(asg)}\nworkers:\n${workers.map((w) => w.output()).join("\n---\n")}`);
      });

    await until(async () => (await state()).every((h) => h.status === "published"), "the batch to be published");
    const hits = await state();
    // Round 1: three workers per HIT. HIT 1: the third worker fails gold (6/10) → rejected, two approved
    // judgments per tweet → extended. HIT 2: on 7 tweets the first two workers disagree and the third leaves
    // them unanswered → 13/20 → extended.
    for (const [i, h] of hits.entries()) {
      for (const [j, w] of W.slice(0, 3).entries()) {
        const goldRight = i === 0 && j === 2 ? 6 : 10;
        await work(f, w, h.id, answers(goldRight, (it) => (i === 1 && it.index >= 13 && j > 0 ? (j === 1 ? otherLabel(it.truth) : null) : it.truth)));
      }
    }
    // Delivery of a HIT's last decision and the HIT's own decision are two steps of one sync: wait for both.
    await until(async () => (await undecided()) === 0 && (await state()).every((h) => h.status !== "published"), "round 1 to be decided");
    const afterRound1 = await state();
    expect(afterRound1.map((h) => [h.status, h.maxAssignments])).toEqual([["extended", 4], ["extended", 4], ...Array(HITS - 2).fill(["approved", 3])]);
    // Round 2: a fourth worker on the two extended HITs agrees with the truth.
    for (const h of hits.slice(0, 2)) await work(f, W[3], h.id, answers(10, (it) => it.truth));
    await until(async () => (await state()).every((h) => h.status === "approved"), "every HIT to be approved");
    await until(async () => (await undecided()) === 0, "every assignment to be delivered");

    // Stop the workers cleanly (SIGTERM), as a deployment would.
    for (const w of workers) w.proc.kill("SIGTERM");
    const exits = await Promise.all(workers.map((w) => w.exited));
    expect(exits, workers.map((w) => w.output()).join("\n")).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);

    // Each HIT published once.
    expect(log.createHit.applied).toBe(HITS);
    const remote = Object.values(f.sim.state.hits);
    expect(remote).toHaveLength(HITS);
    const final = await f.db.hit.findMany({ select: { id: true, providerHitId: true } });
    for (const h of final) expect(remote.filter((r) => r.RequesterAnnotation === `accord:${h.id}`).map((r) => r.HITId)).toEqual([h.providerHitId]);
    const job = await f.db.job.findUniqueOrThrow({ where: { id: batch.jobId as string } });
    expect([job.state, job.attempts]).toEqual(["succeeded", 1]);

    // Each assignment decided once: one audit decision, one approve/reject request to the provider.
    const assignments = await f.db.assignment.findMany({ select: { id: true, providerAssignmentId: true, status: true } });
    expect(assignments).toHaveLength(HITS * 3 + 2);
    expect(assignments.filter((a) => a.status === "rejected")).toHaveLength(1);
    const audit = await f.db.auditLog.findMany({ where: { entityType: "assignment" }, select: { entityId: true, action: true } });
    for (const a of assignments) {
      expect(audit.filter((r) => r.entityId === a.id).map((r) => r.action)).toEqual([a.status === "approved" ? "approve" : "reject"]);
      expect(log.decisions.get(a.providerAssignmentId)).toEqual({ attempts: 1, applied: 1 });
    }
    expect(log.decisions.size).toBe(assignments.length);
    const extensions = await f.db.auditLog.count({ where: { entityType: "hit", action: "extend" } });
    expect(extensions).toBe(2);
    // 19 approved assignments × (30 + 6) cents.
    const ledger = (await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents;
    expect(ledger).toBe(19 * 36);
    expect(ledger).toBe(simulatorDebits(f.sim));
  });
});
