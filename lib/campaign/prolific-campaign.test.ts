import { afterEach, describe, expect, it } from "vitest";
import { COST_KIND, JOB_STATE } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { createHitBatch } from "./publish";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { prolificProviderFor, setupProlificCampaign, studyOfHit, takeScreening, workOnProlific, type ProlificCampaign } from "./prolific-fixture";
import { createQualificationTest } from "./qualification";
import { syncDueHits } from "./sync";
import { answers, PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "./test-fixture";
import { blockWorker, bonusWorker } from "./worker-admin";
import { judgmentsCsv } from "@/lib/export/judgments";
import { exclusionSummary } from "@/lib/events/exclusions";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";

// Prolific's pay-rate floor (the simulator's £6.00 an hour) is met: £3.00 for an estimated 20 minutes.
const OPTIONS = { ...PUBLISH_OPTIONS, rewardCents: 300 };

// A participant takes part in a batch's study once: two HITs of three judgments need six participants.
const P = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"].map((n) => `60000000000000000000000${n}`.slice(-24));
const SPAMMER = "6000000000000000000000ff";
const FAILED = "6000000000000000000000ee";

/** What the ledger holds against what the simulated workspace was debited, by kind. */
async function ledgerAndDebits(f: ProlificCampaign) {
  const ledger: Record<string, number> = {};
  for (const e of await f.db.costEntry.findMany()) ledger[e.kind] = (ledger[e.kind] ?? 0) + e.amountCents;
  const debits: Record<string, number> = {};
  for (const d of f.prolific.state.debits) debits[d.kind] = (debits[d.kind] ?? 0) + d.amount;
  // The screening study's automatic approvals are paid by the workspace but belong to no HIT of the ledger.
  const screening = Object.values(f.prolific.state.studies).find((s) => s.internal_name?.startsWith("accord-qual:"))?.id;
  const screeningDebits: Record<string, number> = {};
  for (const d of f.prolific.state.debits.filter((x) => x.study_id === screening)) screeningDebits[d.kind] = (screeningDebits[d.kind] ?? 0) + d.amount;
  for (const [k, v] of Object.entries(screeningDebits)) debits[k] -= v;
  return { ledger, debits };
}

describe.each(testFlavors())("the campaign on Prolific against the local Prolific simulator (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  async function ready(hitCount = 2) {
    f = await setupProlificCampaign({ flavor });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    expect(test.status).toBe("active");
    for (const p of [...P, SPAMMER]) expect((await takeScreening(f, p, 10)).passed).toBe(true);
    // Who fails the screening is asked to return it (page and Prolific's request-return), never rejected nor approved.
    const failed = await takeScreening(f, FAILED, 3);
    expect(failed.passed).toBe(false);
    expect(failed.message).toMatch(/Please return the study on Prolific/);
    expect(f.prolific.state.submissions[failed.submissionId]).toMatchObject({ status: "RETURNED", return_requested: expect.any(String) });
    const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount, seed: 42 }, provider: f.provider });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    return f.db.hit.findMany({ where: { batchId: batch.id }, orderBy: { seq: "asc" }, select: { id: true, batchId: true, providerHitId: true, status: true, provider: true } });
  }

  it("qualification group, publish, work on Accord's page, decisions; the ledger equals the simulated debits", async () => {
    const hits = await ready();
    const test = await f.db.qualificationTest.findFirstOrThrow({ where: { eventId: f.eventId } });
    const group = f.prolific.state.groups[test.providerQualTypeId as string]!;
    expect(Object.keys(group.members).sort()).toEqual([...P, SPAMMER].sort());
    expect(hits.map((h) => [h.status, h.provider])).toEqual([
      ["published", "prolific"],
      ["published", "prolific"],
    ]);
    // The batch is one study with both HITs' places; each HIT is `<study id>:<hit id>`.
    const studyId = studyOfHit(hits[0]!.providerHitId);
    expect(hits.map((h) => h.providerHitId)).toEqual(hits.map((h) => `${studyId}:${h.id}`));
    expect(Object.values(f.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-batch:"))).toHaveLength(1);
    const study = f.prolific.state.studies[studyId]!;
    expect(study).toMatchObject({ status: "ACTIVE", internal_name: `accord-batch:${hits[0]!.batchId}`, total_available_places: 6, reward: 300 });
    expect(study.filters).toContainEqual({ filter_id: "participant_group_allowlist", selected_values: [group.id] });
    // Who failed the screening is not allowed in.
    expect(() => f.prolific.service.startSubmission(FAILED, studyId)).toThrow(/not eligible/);

    // The queue fills the first HIT's places, then the second's.
    for (const [i, h] of hits.entries()) for (const p of P.slice(3 * i, 3 * i + 3)) await workOnProlific(f, p, h.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    const assignments = await f.db.assignment.findMany();
    expect(assignments).toHaveLength(6);
    expect(assignments.every((a) => a.status === "approved" && a.decisionSentAt)).toBe(true);
    for (const h of hits) expect((await f.db.hit.findUniqueOrThrow({ where: { id: h.id } })).status).toBe("approved");
    const accepted = await f.db.acceptedLabel.findMany();
    expect(accepted).toHaveLength(40);
    expect(accepted.every((a) => a.label === f.truth.get(a.tweetId) && a.topVotes === 3)).toBe(true);
    expect(Object.values(f.prolific.state.submissions).filter((s) => s.study_id === studyId && s.status === "APPROVED")).toHaveLength(6);

    const { ledger, debits } = await ledgerAndDebits(f);
    expect(ledger).toEqual({ [COST_KIND.reward]: 6 * 300, [COST_KIND.fee]: 6 * f.provider.fees.assignmentFeeCents({ rewardCents: 300, maxAssignments: 3 }) });
    expect(ledger).toEqual(debits);
  });

  it("approves at 7/10 gold; a 6/10 submission is approved and excluded (paid, labels left out, block list); the study grows by places, then approves", async () => {
    const [hit] = await ready(1);
    await workOnProlific(f, P[0]!, hit!.id, answers(7, (it) => it.truth));
    // The 6/10 participant labels every unknown tweet with one label: were it counted, it would show in the votes.
    const excludedSub = await workOnProlific(f, P[1]!, hit!.id, answers(6, () => "sympathy_and_support"));
    await workOnProlific(f, P[2]!, hit!.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    const byWorker = (p: string) => f.db.assignment.findFirstOrThrow({ where: { worker: { externalId: p } } });
    expect((await byWorker(P[0]!)).status).toBe("approved");
    const excluded = await byWorker(P[1]!);
    // Prolific's rules: paid (approved on Prolific), never rejected; Accord leaves the work out and says why.
    expect([excluded.status, excluded.decision]).toEqual(["approved", "approve"]);
    expect(excluded.excludedReason).toMatch(/^Approved and excluded: 6 of 10 gold tweets correct/);
    expect(f.prolific.state.submissions[excludedSub]!.status).toBe("APPROVED");
    expect(await f.db.judgment.count({ where: { assignmentId: excluded.id, counted: true } })).toBe(0);
    // The participant joins the block-list group (not invited again) and shows as blocked on the Workers page.
    const blocklist = (await dbProlificStore(f.db).get("prolific-group", "blocklist"))?.groupId as string;
    expect(Object.keys(f.prolific.state.groups[blocklist]!.members)).toEqual([P[1]!]);
    expect((await f.db.worker.findFirstOrThrow({ where: { externalId: P[1]! } })).blocked).toBe(true);

    // Two approved judgments per tweet: one more place on the study.
    let h = await f.db.hit.findUniqueOrThrow({ where: { id: hit!.id } });
    expect([h.status, h.maxAssignments]).toEqual(["extended", 4]);
    expect(f.prolific.state.studies[studyOfHit(hit!.providerHitId)]).toMatchObject({ total_available_places: 4, status: "ACTIVE" });

    await workOnProlific(f, P[3]!, hit!.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    h = await f.db.hit.findUniqueOrThrow({ where: { id: hit!.id } });
    expect([h.status, h.acceptedTweets]).toEqual(["approved", 20]);
    // The excluded work is paid: four rewards in the ledger, as debited.
    const { ledger, debits } = await ledgerAndDebits(f);
    expect(ledger[COST_KIND.reward]).toBe(4 * 300);
    expect(ledger).toEqual(debits);
    // The event page's exclusions: one submission, its reward and fee paid.
    const summary = await exclusionSummary(f.db, f.eventId);
    expect([summary.count, summary.workers, summary.latest[0]?.workerExternalId]).toEqual([1, 1, P[1]]);
    expect(summary.paidMinor).toBe(300 + f.provider.fees.assignmentFeeCents({ rewardCents: 300, maxAssignments: 3 }));
    // Its labels are absent from agreement (three counted votes per tweet, none of them the excluded one's) and exports.
    const accepted = await f.db.acceptedLabel.findMany();
    expect(accepted.every((a) => a.totalVotes === 3 && a.label === f.truth.get(a.tweetId))).toBe(true);
    let csv = "";
    for await (const chunk of judgmentsCsv(f.db, { eventId: f.eventId })) csv += chunk;
    expect(csv).not.toContain(P[1]!);
    expect(csv).toContain(P[0]!);
  });

  it("a participant who came back without opening Accord's page is reviewed like the others: no answers, approved and excluded", async () => {
    const [hit] = await ready(1);
    const stray = f.prolific.service.startSubmission(P[0]!, studyOfHit(hit!.providerHitId));
    f.prolific.service.completeSubmission(stray.id, null);
    await syncUntilIdle(f);
    const a = await f.db.assignment.findFirstOrThrow({ where: { providerAssignmentId: stray.id } });
    expect([a.hitId, a.status, a.goldCorrect]).toEqual([hit!.id, "approved", 0]);
    expect(a.excludedReason).toMatch(/^Approved and excluded: 0 of 10/);
    expect(f.prolific.state.submissions[stray.id]!.status).toBe("APPROVED");
  });

  it("a spammer is approved, excluded and blocked; a bonus is paid in two steps and booked as debited; a blocked participant is kept out", async () => {
    const [h1, h2] = await ready(2);
    await workOnProlific(f, SPAMMER, h1!.id, () => "not_humanitarian");
    for (const p of P.slice(0, 2)) await workOnProlific(f, p, h1!.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    // The exclusion leaves two counted judgments per tweet: the HIT grows by a place, a third participant takes it.
    await workOnProlific(f, P[2]!, h1!.id, answers(10, (it) => it.truth));
    await syncUntilIdle(f);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: h1!.id } })).status).toBe("approved");
    const spam = await f.db.assignment.findFirstOrThrow({ where: { worker: { externalId: SPAMMER } } });
    expect([spam.status, spam.excludedReason !== null]).toEqual(["approved", true]);
    expect(Object.values(f.prolific.state.submissions).find((s) => s.participant_id === SPAMMER && s.study_id === studyOfHit(h1!.providerHitId))?.status).toBe("APPROVED");

    const actor = await f.db.user.create({ data: { email: "lead@example.org", name: "Lead", passwordHash: "x", role: "admin" } });
    const good = await f.db.worker.findFirstOrThrow({ where: { externalId: P[0] } });
    await bonusWorker({ db: f.db, workerId: good.id, amountCents: 125, reason: "Careful work", actorId: actor.id, provider: f.provider });
    const spammer = await f.db.worker.findFirstOrThrow({ where: { externalId: SPAMMER } });
    await blockWorker({ db: f.db, workerId: spammer.id, reason: "Constant answers", actorId: actor.id, provider: f.provider });
    // The block list is checked before anything else: blocked, not merely "already took part in this batch".
    expect(() => f.prolific.service.startSubmission(SPAMMER, studyOfHit(h2!.providerHitId))).toThrow(/not eligible/);

    const { ledger, debits } = await ledgerAndDebits(f);
    expect(ledger[COST_KIND.bonus]).toBe(125);
    expect(ledger[COST_KIND.bonus_fee]).toBeGreaterThan(0);
    expect(ledger).toEqual(debits);
  });
});

describe.each(testFlavors())("publishing on Prolific after a crash (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  /** The publish job again, run by a restarted Accord (a fresh provider over the same database). */
  async function restartAndPublish() {
    const fresh = await prolificProviderFor(f.db, f.prolific);
    f.provider = fresh;
    f.jobs = accordJobs({ provider: fresh });
    const batch = await f.db.hitBatch.findFirstOrThrow();
    await f.db.job.update({ where: { id: batch.jobId as string }, data: { state: JOB_STATE.queued, runAfter: new Date() } });
    return publishQueued(f);
  }

  it("a crash after the batch's study was created, before Accord stored the HITs' ids: the retry finds it by internal name", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 60 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount: "all" }, provider: f.provider });
    await publishQueued(f);
    const first = new Map((await f.db.hit.findMany()).map((h) => [h.id, h.providerHitId]));
    await f.db.hit.updateMany({ data: { status: "draft", providerHitId: null } });
    expect(await restartAndPublish()).toEqual(["succeeded"]);
    const hits = await f.db.hit.findMany();
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.status === "published" && h.providerHitId === first.get(h.id))).toBe(true);
    const studies = Object.values(f.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-batch:"));
    expect(studies.map((s) => [s.status, s.total_available_places])).toEqual([["ACTIVE", 9]]);
  });

  it("a crash between creating the batch's study and publishing it: the restarted job publishes that study, creating none", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 40 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount: 2 }, provider: f.provider });
    // The process dies at its first PUBLISH: the study exists, unpublished, and Accord has no id for it.
    const transition = f.provider.client.transitionStudy.bind(f.provider.client);
    f.provider.client.transitionStudy = async (id, action) => {
      if (action === "PUBLISH" && f.prolific.state.studies[id]?.internal_name?.startsWith("accord-batch:")) throw new Error("killed");
      return transition(id, action);
    };
    await publishQueued(f);
    const orphans = Object.values(f.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-batch:"));
    expect(orphans.map((s) => s.status)).toEqual(["UNPUBLISHED"]);
    expect(await f.db.hit.count({ where: { providerHitId: { not: null } } })).toBe(0);

    expect(await restartAndPublish()).toEqual(["succeeded"]);
    const studies = Object.values(f.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-batch:"));
    expect(studies.map((s) => [s.id, s.status, s.total_available_places])).toEqual([[orphans[0]!.id, "ACTIVE", 6]]);
    const hits = await f.db.hit.findMany();
    expect(hits.every((h) => h.status === "published" && studyOfHit(h.providerHitId) === orphans[0]!.id)).toBe(true);
  });

  it("10% server faults and 10% 429s on money calls: all work completes, nothing is created, approved or paid twice", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 40 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const p of P.slice(0, 6)) await takeScreening(f, p, 10);
    f.prolific.setFaults({ faultRate: 0.1, throttleRate: 0.1 });
    await createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, hitCount: 2 }, provider: f.provider });
    // A publish that met a fault on a call that is never repeated blindly fails; the job runs again.
    let outcomes = await publishQueued(f);
    for (let i = 0; i < 10 && outcomes[0] !== "succeeded"; i++) outcomes = await restartAndPublish();
    expect(outcomes).toEqual(["succeeded"]);
    const hits = await f.db.hit.findMany({ orderBy: { seq: "asc" } });
    expect(Object.values(f.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-batch:"))).toHaveLength(1);

    f.prolific.setFaults({});
    for (const [i, h] of hits.entries()) for (const p of P.slice(3 * i, 3 * i + 3)) await workOnProlific(f, p, h.id, answers(10, (it) => it.truth));
    f.prolific.setFaults({ faultRate: 0.1, throttleRate: 0.1 });
    for (let i = 0; i < 30; i++) {
      await syncDueHits(f.db, { owner: "test", minIntervalMs: 0, provider: f.provider, limit: 100 });
      if ((await f.db.assignment.count({ where: { decisionSentAt: null } })) === 0 && (await f.db.assignment.count()) === 6) break;
    }
    f.prolific.setFaults({});
    await syncUntilIdle(f);
    expect(f.prolific.stats.faults + f.prolific.stats.throttled).toBeGreaterThan(0);
    const assignments = await f.db.assignment.findMany();
    expect(assignments).toHaveLength(6);
    expect(assignments.every((a) => a.status === "approved")).toBe(true);
    // On the simulator: every HIT submission approved exactly once by Accord, never rejected, never decided twice.
    const subs = Object.values(f.prolific.state.submissions).filter((s) => s.study_id === studyOfHit(hits[0]!.providerHitId));
    expect(subs).toHaveLength(6);
    expect(subs.every((s) => s.status === "APPROVED")).toBe(true);
    const decisions = (f.prolific.state.decisions ?? []).filter((d) => subs.some((s) => s.id === d.submission_id));
    for (const s of subs) {
      const own = decisions.filter((d) => d.submission_id === s.id);
      expect(own.filter((d) => d.action === "APPROVE" && d.outcome === "applied"), `approvals of ${s.id}`).toHaveLength(1);
      expect(own.filter((d) => d.action === "REJECT"), `rejections asked for ${s.id}`).toEqual([]);
      expect(own.filter((d) => d.outcome === "refused"), `refused decisions of ${s.id}`).toEqual([]);
    }
    // One approval debit per submission, and the ledger equal to the debits.
    const rewards = f.prolific.state.debits.filter((d) => d.kind === "reward").map((d) => d.ref);
    expect(new Set(rewards).size).toBe(rewards.length);
    expect(rewards.filter((r) => subs.some((s) => s.id === r))).toHaveLength(6);
    const { ledger, debits } = await ledgerAndDebits(f);
    expect(ledger).toEqual(debits);
  });

  it("a reward under Prolific's hourly floor is refused before a batch is queued", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    await expect(createHitBatch({ db: f.db, eventId: f.eventId, options: { ...OPTIONS, rewardCents: 100, hitCount: 1 }, provider: f.provider })).rejects.toThrow(/below Prolific's minimum of £6\.00 an hour/);
    expect(await f.db.hitBatch.count()).toBe(0);
  });
});
