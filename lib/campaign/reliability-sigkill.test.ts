import { afterEach, describe, expect, it } from "vitest";
import { testFlavors } from "@/lib/db/test-db";
import { createRng } from "@/lib/util/random";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { type CallLog, type Child, recordCalls, setupBulkCampaign, simulatorDebits, startChild, waitFor } from "./reliability-fixture";
import { syncHit } from "./sync";
import { answers, type CampaignFixture, otherLabel, takeTest, work } from "./test-fixture";

const HITS = 500;
const KILLS = 5;
const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003", "AWORKER0000004"];

/**
 * The publish job runs in a child process (scripts/campaign-child.ts) against the simulator in this process and
 * a shared database. It is killed with SIGKILL five times while it publishes 500 HITs, at seeded random points:
 * three times at the worst moment (right after the simulator created a HIT, before its response reached the
 * child: the HIT exists on the provider but Accord never stored its id) and twice after a random delay. Each
 * time a new child takes the job over once the dead one's lease expires. At the end: every Accord HIT has
 * exactly one HIT on the provider, none is missing, and after a worked subset is decided the ledger equals
 * the simulator's debits.
 */
describe.each(testFlavors())("SIGKILL while publishing 500 HITs (%s)", (flavor) => {
  let f: CampaignFixture;
  let child: Child | null = null;
  let spare: Child | null = null;
  afterEach(async () => {
    child?.proc.kill("SIGKILL");
    spare?.proc.kill("SIGKILL");
    await f?.close();
  });

  it("five kills and restarts: 0 duplicate HITs, 0 missing, the ledger equal to the simulator's", async () => {
    f = await setupBulkCampaign({ flavor, unknown: HITS * 20, workerIds: W });
    const log: CallLog = recordCalls(f.sim);
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const { batch } = await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: HITS, rewardCents: 50, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise tweets", description: "Choose a category", keywords: "tweets", seed: 5 },
    });
    expect(await f.db.hit.count({ where: { status: "draft" } })).toBe(HITS);

    const rng = createRng(2026);
    const env = { DATABASE_URL: f.t.url };
    const start = () => startChild(["scripts/campaign-child.ts", "publish", "--batch", batch.id, "--lease-ms", "2000"], env);
    // Each replacement is started while its predecessor still works (it waits for the job's lease to expire
    // after the kill), so that process start-up does not add to the test's time.
    let next = start();
    for (let k = 0; k < KILLS; k++) {
      // Kill k at a random count of created HITs within the k-th fifth of the batch (so it is mid-publishing).
      const at = Math.floor((k * HITS) / KILLS + 20 + rng() * (HITS / KILLS - 40));
      const atApply = k % 2 === 0;
      const delayMs = Math.floor(rng() * 40);
      const current = next;
      child = current;
      await waitFor(() => current.output().includes("claimed job") || current.proc.exitCode !== null, `child ${k + 1} to claim the publish job`, { timeoutMs: 120_000, everyMs: 20 });
      next = start();
      spare = next;
      const killed = new Promise<void>((resolve) => {
        log.afterCreateHit = (n) => {
          if (n < at) return;
          log.afterCreateHit = undefined;
          if (atApply) {
            current.proc.kill("SIGKILL"); // before this CreateHIT's response is written
            resolve();
          } else {
            setTimeout(() => {
              current.proc.kill("SIGKILL");
              resolve();
            }, delayMs);
          }
        };
      });
      const outcome = await Promise.race([killed.then(() => current.exited), current.exited]);
      expect(outcome.signal, `child ${k + 1} should have been killed mid-publishing; it exited with ${outcome.code}:\n${current.output()}`).toBe("SIGKILL");
      expect(log.createHit.applied).toBeGreaterThanOrEqual(at);
      expect(log.createHit.applied).toBeLessThan(HITS);
    }
    // The last restart finishes the job.
    child = next;
    const last = await child.exited;
    expect(last, child.output()).toEqual({ code: 0, signal: null });

    // 0 duplicates, 0 missing: one provider HIT per Accord HIT, all 500 published.
    const hits = await f.db.hit.findMany({ select: { id: true, status: true, providerHitId: true } });
    expect(hits).toHaveLength(HITS);
    expect(hits.every((h) => h.status === "published" && h.providerHitId)).toBe(true);
    expect(new Set(hits.map((h) => h.providerHitId)).size).toBe(HITS);
    const remote = Object.values(f.sim.state.hits);
    expect(remote).toHaveLength(HITS);
    const byAnnotation = new Map<string, string[]>();
    for (const h of remote) byAnnotation.set(h.RequesterAnnotation as string, [...(byAnnotation.get(h.RequesterAnnotation as string) ?? []), h.HITId]);
    for (const h of hits) expect(byAnnotation.get(`accord:${h.id}`)).toEqual([h.providerHitId]);
    // The three kills at the worst moment left a HIT the provider had created but Accord had not recorded; the
    // restarted job met each one's UniqueRequestToken and recovered its id.
    expect(log.createHit.alreadyExists).toBeGreaterThanOrEqual(3);
    expect(log.createHit.applied).toBe(HITS);
    const job = await f.db.job.findUniqueOrThrow({ where: { id: batch.jobId as string } });
    expect(job.state).toBe("succeeded");
    expect(job.attempts).toBeGreaterThanOrEqual(KILLS + 1);
    expect((await f.db.hitBatch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("published");

    // A worked subset: four HITs, one of them with a rejected assignment and an extra round.
    const balanceBefore = f.sim.state.balanceCents;
    for (const w of W) await takeTest(f, w, 10);
    const subset = (await f.db.hit.findMany({ orderBy: { seq: "asc" }, take: 4, select: { id: true } })).map((h) => h.id);
    for (const [i, hitId] of subset.entries()) {
      for (const [j, w] of W.slice(0, 3).entries()) await work(f, w, hitId, answers(i === 0 && j === 2 ? 5 : 10, (it) => (j === 1 && it.index % 4 === 0 ? otherLabel(it.truth) : it.truth)));
    }
    for (const hitId of subset) await syncHit({ db: f.db, hitId, provider: f.provider });
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: subset[0] } })).maxAssignments).toBe(4);
    await work(f, W[3], subset[0], answers(10, (it) => it.truth));
    await syncHit({ db: f.db, hitId: subset[0], provider: f.provider });

    const decided = await f.db.hit.findMany({ where: { id: { in: subset } }, select: { status: true } });
    expect(decided.map((h) => h.status)).toEqual(["approved", "approved", "approved", "approved"]);
    const assignments = await f.db.assignment.findMany({ select: { status: true, providerAssignmentId: true } });
    expect(assignments.filter((a) => a.status === "approved")).toHaveLength(12);
    expect(assignments.filter((a) => a.status === "rejected")).toHaveLength(1);
    const ledger = (await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents;
    expect(ledger).toBe(12 * 60);
    expect(ledger).toBe(balanceBefore - f.sim.state.balanceCents);
    expect(ledger).toBe(simulatorDebits(f.sim));
    for (const a of assignments) expect(log.decisions.get(a.providerAssignmentId)).toEqual({ attempts: 1, applied: 1 });
  });
});
