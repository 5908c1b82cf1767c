import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { isCrowdError } from "@/lib/crowd/errors";
import { LocalProvider } from "@/lib/crowd/local-provider";
import { createMemoryLocalCrowdStore, type LocalAssignmentRecord, type LocalCrowdStore, type LocalHitRecord } from "@/lib/crowd/local-store";
import { buildHitQuestionXml, hitFieldName, parseHitAnswers, type HitItem } from "@/lib/crowd/mturk/hit-question";
import { buildQualificationTest, passingScoreRequirement, type GoldTweet } from "@/lib/crowd/mturk/qualification-xml";
import type { CrowdAssignment } from "@/lib/crowd/provider";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import {
  createLocalCrowdReader,
  createPrismaLocalCrowdStore,
  ensureLocalWorker,
  getLocalCrowdProvider,
  listLocalWorkerAssignments,
  listOpenLocalHits,
} from "@/lib/crowd/local/db-store";

// The behaviour of the in-house crowd (LocalProvider) must not depend on its store: every scenario below runs on
// the reference memory store and on the Prisma store (SQLite, and PostgreSQL when DATABASE_URL_PG is set).

const LABELS = HUMAID_LABELS;
const VALUES = LABELS.map((l) => l.value);
const T0 = new Date("2026-03-01T10:00:00.123Z");
const HOUR = 3600_000;

function gold(n = 10): GoldTweet[] {
  return Array.from({ length: n }, (_, i) => ({ tweetId: `7000${i}`, text: `Synthetic gold ${i + 1} <b>&</b>`, label: VALUES[i % VALUES.length] }));
}

function items(prefix: string, n = 30): HitItem[] {
  return Array.from({ length: n }, (_, i) => ({ itemId: `${prefix}-${i + 1}`, tweetId: `${prefix}${i}`, text: `Synthetic tweet ${i + 1} "quoted" <i>x</i>` }));
}

/** Answers for `its`: the label of item i is VALUES[(i + shift) % n]. */
function answersFor(its: HitItem[], shift = 0): Record<string, string> {
  return Object.fromEntries(its.map((it, i) => [hitFieldName(i + 1, it.itemId), VALUES[(i + shift) % VALUES.length]]));
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function crowdError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isCrowdError(err)) return err.code;
    throw err;
  }
  throw new Error("expected a CrowdError");
}

type Kind = "memory" | "sqlite" | "postgres";
const KINDS: Kind[] = ["memory", ...testFlavors()];

describe.each(KINDS)("in-house crowd on the %s store", (kind) => {
  let t: TestDb | null = null;
  let store: LocalCrowdStore;
  let clock = new Date(T0);
  const now = () => new Date(clock);
  let provider: LocalProvider;
  let n = 0;
  const uid = (p: string) => `${p}${++n}`;

  beforeAll(async () => {
    if (kind === "memory") store = createMemoryLocalCrowdStore();
    else {
      t = await createTestDb(kind);
      store = createPrismaLocalCrowdStore(t.db);
    }
    provider = new LocalProvider({ store, now });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function qualificationType(retryDelaySeconds?: number): Promise<string> {
    const test = buildQualificationTest({ gold: gold(), labels: LABELS });
    const { qualificationTypeId } = await provider.createQualificationType({
      name: uid("HumAID test "),
      description: "Ten gold tweets",
      testXml: test.questionFormXml,
      answerKeyXml: test.answerKeyXml,
      testDurationSeconds: 1800,
      retryDelaySeconds,
    });
    return qualificationTypeId;
  }

  async function publish(opts: { maxAssignments?: number; qualificationTypeId?: string; its?: HitItem[]; lifetimeSeconds?: number } = {}) {
    const its = opts.its ?? items(uid("h"));
    const accordHitId = uid("accord-hit-");
    const res = await provider.publishHit({
      accordHitId,
      title: "Categorise disaster tweets",
      description: "30 tweets",
      rewardCents: 0,
      maxAssignments: opts.maxAssignments ?? 3,
      lifetimeSeconds: opts.lifetimeSeconds ?? 24 * 3600,
      assignmentDurationSeconds: 3600,
      autoApprovalDelaySeconds: 3 * 24 * 3600,
      questionXml: buildHitQuestionXml({ items: its, labels: LABELS, submitUrl: "https://accord.invalid/task" }),
      qualificationRequirements: opts.qualificationTypeId ? [passingScoreRequirement({ qualificationTypeId: opts.qualificationTypeId })] : [],
    });
    return { ...res, accordHitId, its };
  }

  async function work(hitId: string, its: HitItem[], workerId = uid("w"), shift = 0) {
    const { assignmentId } = await provider.acceptHit({ providerHitId: hitId, workerId });
    await provider.submitAssignment({ assignmentId, workerId, fields: { assignmentId, ...answersFor(its, shift) } });
    return { assignmentId, workerId };
  }

  it("keeps records with their dates, patches shallowly and claims tokens once", async () => {
    const hit: LocalHitRecord = {
      id: uid("HIT"),
      accordHitId: uid("acc"),
      title: "t",
      description: "d",
      rewardCents: 5,
      maxAssignments: 3,
      createdAt: new Date("2026-01-02T03:04:05.678Z"),
      expiresAt: new Date("2026-01-03T03:04:05.679Z"),
      assignmentDurationSeconds: 60,
      autoApprovalDelaySeconds: 120,
      questionXml: "<x/>",
      qualificationRequirements: [{ qualificationTypeId: "Q", comparator: "GreaterThanOrEqualTo", integerValues: [60] }],
      disposed: false,
    };
    const a1: LocalAssignmentRecord = { id: uid("A"), hitId: hit.id, workerId: "w1", status: "Accepted", acceptedAt: new Date(T0), deadline: new Date(T0.getTime() + 1) };
    const a2: LocalAssignmentRecord = { ...a1, id: uid("A"), workerId: "w2", status: "Rejected", rejectedAt: new Date(T0) };
    await store.transaction(async (tx) => {
      expect(await tx.getHit(hit.id)).toBeNull();
      await tx.insertHit(hit);
      await tx.insertAssignment(a2);
      await tx.insertAssignment(a1);
    });
    await store.transaction(async (tx) => {
      const got = await tx.getHit(hit.id);
      expect(got).toEqual(hit);
      expect(got?.expiresAt).toBeInstanceOf(Date);
      expect(await tx.findHitByAccordId(hit.accordHitId)).toEqual(hit);
      expect(await tx.findHitByAccordId("nope")).toBeNull();
      // Acceptance (insertion) order, not id order.
      expect((await tx.listAssignments(hit.id)).map((a) => a.id)).toEqual([a2.id, a1.id]);
      await tx.updateHit(hit.id, { maxAssignments: 5, expiresAt: new Date("2026-02-01T00:00:00.001Z"), questionXml: "<y/>" });
      await tx.updateAssignment(a2.id, { status: "Approved", approvedAt: new Date(T0.getTime() + 5), rejectedAt: undefined });
      await expect(tx.updateHit("missing", { disposed: true })).rejects.toThrow();
    });
    await store.transaction(async (tx) => {
      expect(await tx.getHit(hit.id)).toEqual({ ...hit, maxAssignments: 5, expiresAt: new Date("2026-02-01T00:00:00.001Z"), questionXml: "<y/>" });
      const a = await tx.getAssignment(a2.id);
      expect(a).toMatchObject({ status: "Approved", approvedAt: new Date(T0.getTime() + 5) });
      expect(a?.rejectedAt).toBeUndefined();
      expect(await tx.getAssignment("missing")).toBeNull();
      expect(await tx.hasDecidedWork("w2")).toBe(true);
      expect(await tx.hasDecidedWork("w1")).toBe(false);
      expect(await tx.claimToken("assign", "tok-1", T0)).toBe(true);
      expect(await tx.claimToken("assign", "tok-1", T0)).toBe(false);
      expect(await tx.claimToken("bonus", "tok-1", T0)).toBe(true);
      await tx.setBlock("w9", { reason: "spam", at: new Date(T0) });
      expect(await tx.getBlock("w9")).toEqual({ reason: "spam", at: new Date(T0) });
      await tx.setBlock("w9", null);
      expect(await tx.getBlock("w9")).toBeNull();
      await tx.upsertQualification({ typeId: "Q", workerId: "w1", value: 50, status: "Granted", grantedAt: new Date(T0) });
      await tx.upsertQualification({ typeId: "Q", workerId: "w1", value: 70, status: "Granted", grantedAt: new Date(T0), lastTestAt: new Date(T0) });
      expect(await tx.getQualification("Q", "w1")).toEqual({ typeId: "Q", workerId: "w1", value: 70, status: "Granted", grantedAt: new Date(T0), lastTestAt: new Date(T0) });
      expect(await tx.getQualification("Q", "w2")).toBeNull();
    });
  });

  // The reference memory store does not roll back; the database stores must.
  if (kind !== "memory") {
    it("rolls a failed transaction back", async () => {
      const id = uid("HIT");
      await expect(
        store.transaction(async (tx) => {
          await tx.insertHit({
            id,
            accordHitId: uid("acc"),
            title: "t",
            description: "d",
            rewardCents: 0,
            maxAssignments: 1,
            createdAt: T0,
            expiresAt: T0,
            assignmentDurationSeconds: 1,
            autoApprovalDelaySeconds: 1,
            questionXml: "<x/>",
            qualificationRequirements: [],
            disposed: false,
          });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.transaction((tx) => tx.getHit(id))).toBeNull();
    });
  }

  it("grades the qualification test with the answer key; no retake without a retry delay", async () => {
    const typeId = await qualificationType();
    const test = buildQualificationTest({ gold: gold(), labels: LABELS });
    expect(await crowdError(provider.createQualificationType({ name: (await store.transaction((tx) => tx.getQualificationType(typeId)))!.name, description: "x", testXml: test.questionFormXml, answerKeyXml: test.answerKeyXml, testDurationSeconds: 60 }))).toBe("already_exists");
    const g = gold();
    const answers = Object.fromEntries(g.map((x, i) => [test.questionIds[i], i < 7 ? x.label : VALUES[(VALUES.indexOf(x.label) + 1) % VALUES.length]]));
    expect(await provider.takeQualificationTest({ qualificationTypeId: typeId, workerId: "alice", answers })).toEqual({ score: 70 });
    expect(await crowdError(provider.takeQualificationTest({ qualificationTypeId: typeId, workerId: "alice", answers }))).toBe("invalid_parameter");

    const retry = await qualificationType(600);
    const wrong = Object.fromEntries(test.questionIds.map((q) => [q, "not_a_label"]));
    expect(await provider.takeQualificationTest({ qualificationTypeId: retry, workerId: "bob", answers: wrong })).toEqual({ score: 0 });
    clock = new Date(clock.getTime() + 599_000);
    expect(await crowdError(provider.takeQualificationTest({ qualificationTypeId: retry, workerId: "bob", answers }))).toBe("invalid_parameter");
    clock = new Date(clock.getTime() + 1_000);
    expect(await provider.takeQualificationTest({ qualificationTypeId: retry, workerId: "bob", answers })).toEqual({ score: 70 });
  });

  it("publishes once per Accord HIT, lets qualified annotators work it and returns their answers for parsing", async () => {
    const typeId = await qualificationType();
    const first = await publish({ qualificationTypeId: typeId, maxAssignments: 2 });
    const again = await provider.publishHit({
      accordHitId: first.accordHitId,
      title: "x",
      description: "x",
      rewardCents: 0,
      maxAssignments: 9,
      lifetimeSeconds: 60,
      assignmentDurationSeconds: 60,
      autoApprovalDelaySeconds: 60,
      questionXml: "<x/>",
    });
    expect(again).toEqual({ providerHitId: first.providerHitId, expiresAt: first.expiresAt, duplicate: true });

    const hitId = first.providerHitId;
    const [w1, w2, w3] = [uid("w"), uid("w"), uid("w")];
    // Without the qualification, and with a failing score, the HIT is not available.
    expect(await provider.listAvailableHits({ providerHitIds: [hitId], workerId: w1 })).toEqual([]);
    expect(await crowdError(provider.acceptHit({ providerHitId: hitId, workerId: w1 }))).toBe("invalid_hit_state");
    await provider.grantQualification({ qualificationTypeId: typeId, workerId: w1, value: 60 });
    await provider.grantQualification({ qualificationTypeId: typeId, workerId: w2, value: 100 });
    await provider.grantQualification({ qualificationTypeId: typeId, workerId: w3, value: 50 });
    expect(await provider.listAvailableHits({ providerHitIds: [hitId, "missing"], workerId: w1 })).toEqual([hitId]);
    expect(await provider.listAvailableHits({ providerHitIds: [hitId], workerId: w3 })).toEqual([]);

    const a1 = await work(hitId, first.its, w1, 0);
    expect(await crowdError(provider.acceptHit({ providerHitId: hitId, workerId: w1 }))).toBe("invalid_hit_state");
    const { assignmentId: a2 } = await provider.acceptHit({ providerHitId: hitId, workerId: w2 });
    let hit = await provider.getHit({ providerHitId: hitId });
    expect(hit).toMatchObject({ status: "Unassignable", pendingCount: 1, availableCount: 0, completedCount: 0, maxAssignments: 2 });
    expect(hit.questionXml).toContain("Synthetic tweet 30");
    // Someone else's assignment cannot be submitted.
    expect(await crowdError(provider.submitAssignment({ assignmentId: a2, workerId: w1, fields: {} }))).toBe("not_found");
    clock = new Date(clock.getTime() + 10_000);
    await provider.submitAssignment({ assignmentId: a2, workerId: w2, fields: answersFor(first.its, 3) });
    expect(await crowdError(provider.submitAssignment({ assignmentId: a2, workerId: w2, fields: answersFor(first.its, 3) }))).toBe("invalid_assignment_state");
    hit = await provider.getHit({ providerHitId: hitId });
    expect(hit).toMatchObject({ status: "Reviewable", pendingCount: 0, availableCount: 0 });

    const listed = await all(provider.listSubmittedAssignments({ providerHitId: hitId }));
    expect(listed.map((a) => [a.assignmentId, a.workerId, a.status])).toEqual([
      [a1.assignmentId, w1, "Submitted"],
      [a2, w2, "Submitted"],
    ]);
    const second = listed[1] as CrowdAssignment;
    expect(second.submittedAt).toEqual(clock);
    expect(second.autoApprovalAt).toEqual(new Date(clock.getTime() + 3 * 24 * HOUR));
    for (const [i, a] of listed.entries()) {
      const parsed = parseHitAnswers({ answerXml: a.answerXml, items: first.its, labels: LABELS });
      expect(parsed.missing).toEqual([]);
      expect(parsed.invalid).toEqual([]);
      expect(parsed.unknownFields).toEqual([]);
      expect(parsed.answers.map((x) => x.label)).toEqual(first.its.map((_, j) => VALUES[(j + (i === 0 ? 0 : 3)) % VALUES.length]));
    }
  });

  it("frees the slot of a returned or abandoned assignment", async () => {
    const { providerHitId: hitId, its } = await publish({ maxAssignments: 1 });
    const { assignmentId } = await provider.acceptHit({ providerHitId: hitId, workerId: "ret-1" });
    expect(await crowdError(provider.acceptHit({ providerHitId: hitId, workerId: "ret-2" }))).toBe("invalid_hit_state");
    expect(await crowdError(provider.returnAssignment({ assignmentId, workerId: "ret-2" }))).toBe("invalid_assignment_state");
    await provider.returnAssignment({ assignmentId, workerId: "ret-1" });
    expect(await crowdError(provider.submitAssignment({ assignmentId, workerId: "ret-1", fields: answersFor(its) }))).toBe("invalid_assignment_state");
    const { assignmentId: late, deadline } = await provider.acceptHit({ providerHitId: hitId, workerId: "ret-2" });
    expect(deadline).toEqual(new Date(clock.getTime() + HOUR));
    clock = new Date(deadline.getTime());
    // Past the deadline the assignment is abandoned: it cannot be submitted and the slot is free again.
    expect(await crowdError(provider.submitAssignment({ assignmentId: late, workerId: "ret-2", fields: answersFor(its) }))).toBe("invalid_assignment_state");
    expect(await provider.listAvailableHits({ providerHitIds: [hitId], workerId: "ret-3" })).toEqual([hitId]);
    // A worker who returned the HIT may take it again.
    await work(hitId, its, "ret-1");
    expect(await all(provider.listSubmittedAssignments({ providerHitId: hitId }))).toHaveLength(1);
  });

  it("decides each assignment once: approve, reject with feedback, override, auto-approval", async () => {
    const { providerHitId: hitId, its } = await publish({ maxAssignments: 4 });
    const a = await work(hitId, its);
    const b = await work(hitId, its);
    const c = await work(hitId, its);
    await provider.approveAssignment({ assignmentId: a.assignmentId });
    expect(await crowdError(provider.approveAssignment({ assignmentId: a.assignmentId }))).toBe("invalid_assignment_state");
    expect(await crowdError(provider.rejectAssignment({ assignmentId: a.assignmentId, feedback: "late" }))).toBe("invalid_assignment_state");
    expect(await crowdError(provider.rejectAssignment({ assignmentId: b.assignmentId, feedback: " " }))).toBe("invalid_parameter");
    await provider.rejectAssignment({ assignmentId: b.assignmentId, feedback: "Gold 5/10 correct; 7 needed." });
    await provider.approveAssignment({ assignmentId: b.assignmentId, overrideRejection: true, feedback: "Re-reviewed" });
    const { assignmentId: pending } = await provider.acceptHit({ providerHitId: hitId, workerId: uid("w") });
    expect(await crowdError(provider.approveAssignment({ assignmentId: pending }))).toBe("not_found");
    expect(await crowdError(provider.approveAssignment({ assignmentId: "nope" }))).toBe("not_found");

    clock = new Date(clock.getTime() + 3 * 24 * HOUR);
    const listed = await all(provider.listSubmittedAssignments({ providerHitId: hitId }));
    expect(Object.fromEntries(listed.map((x) => [x.assignmentId, x.status]))).toEqual({
      [a.assignmentId]: "Approved",
      [b.assignmentId]: "Approved",
      [c.assignmentId]: "Approved",
    });
    const auto = listed.find((x) => x.assignmentId === c.assignmentId) as CrowdAssignment;
    expect(auto.approvedAt).toEqual(auto.autoApprovalAt);
    const overridden = listed.find((x) => x.assignmentId === b.assignmentId) as CrowdAssignment;
    expect(overridden.rejectedAt).toBeUndefined();
    expect(overridden.requesterFeedback).toBe("Re-reviewed");
    expect(await all(provider.listSubmittedAssignments({ providerHitId: hitId, statuses: ["Rejected"] }))).toEqual([]);
  });

  it("adds assignments once per token; expires, extends and deletes HITs", async () => {
    const { providerHitId: hitId, its } = await publish({ maxAssignments: 1 });
    const a = await work(hitId, its);
    expect((await provider.getHit({ providerHitId: hitId })).status).toBe("Reviewable");
    const token = uid("extra-");
    expect(await provider.addAssignments({ providerHitId: hitId, count: 2, uniqueToken: token })).toEqual({ duplicate: false });
    expect(await provider.addAssignments({ providerHitId: hitId, count: 2, uniqueToken: token })).toEqual({ duplicate: true });
    expect(await provider.getHit({ providerHitId: hitId })).toMatchObject({ maxAssignments: 3, availableCount: 2, status: "Assignable" });
    expect(await crowdError(provider.addAssignments({ providerHitId: hitId, count: 0, uniqueToken: uid("t") }))).toBe("invalid_parameter");

    await provider.expireHit({ providerHitId: hitId });
    expect((await provider.getHit({ providerHitId: hitId })).status).toBe("Reviewable");
    expect(await crowdError(provider.acceptHit({ providerHitId: hitId, workerId: uid("w") }))).toBe("invalid_hit_state");
    await provider.extendHit({ providerHitId: hitId, expiresAt: new Date(clock.getTime() + HOUR) });
    expect((await provider.getHit({ providerHitId: hitId })).status).toBe("Assignable");
    expect(await crowdError(provider.deleteHit({ providerHitId: hitId }))).toBe("invalid_hit_state");
    await provider.expireHit({ providerHitId: hitId });
    expect(await crowdError(provider.deleteHit({ providerHitId: hitId }))).toBe("invalid_hit_state"); // one still Submitted
    await provider.approveAssignment({ assignmentId: a.assignmentId });
    await provider.deleteHit({ providerHitId: hitId });
    await provider.deleteHit({ providerHitId: hitId });
    expect((await provider.getHit({ providerHitId: hitId })).status).toBe("Disposed");
    expect(await crowdError(provider.extendHit({ providerHitId: hitId, expiresAt: new Date(clock.getTime() + HOUR) }))).toBe("invalid_hit_state");
    expect(await crowdError(provider.getHit({ providerHitId: "missing" }))).toBe("not_found");
  });

  it("blocks, notifies and records bonuses once", async () => {
    const { providerHitId: hitId, its } = await publish({ maxAssignments: 3 });
    const blocked = uid("w");
    await provider.blockWorker({ workerId: blocked, reason: "spam" });
    expect(await crowdError(provider.acceptHit({ providerHitId: hitId, workerId: blocked }))).toBe("invalid_hit_state");
    await provider.unblockWorker({ workerId: blocked });
    const a = await work(hitId, its, blocked);
    expect((await provider.notifyWorkers({ workerIds: [blocked], subject: "s", message: "m" })).failures).toEqual([
      { workerId: blocked, kind: "hard", message: `Annotator ${blocked} has no reviewed work yet.` },
    ]);
    await provider.approveAssignment({ assignmentId: a.assignmentId });
    expect((await provider.notifyWorkers({ workerIds: [blocked], subject: "s", message: "m" })).failures).toEqual([]);
    const token = uid("bonus-");
    expect(await provider.sendBonus({ workerId: blocked, assignmentId: a.assignmentId, amountCents: 50, reason: "good", uniqueToken: token })).toEqual({ duplicate: false });
    expect(await provider.sendBonus({ workerId: blocked, assignmentId: a.assignmentId, amountCents: 50, reason: "good", uniqueToken: token })).toEqual({ duplicate: true });
    expect(await crowdError(provider.sendBonus({ workerId: "other", assignmentId: a.assignmentId, amountCents: 50, reason: "x", uniqueToken: uid("t") }))).toBe("not_found");
    expect(await crowdError(provider.revokeQualification({ qualificationTypeId: "none", workerId: blocked }))).toBe("not_found");
    expect(await provider.getBalance()).toEqual({ availableCents: 0, onHoldCents: 0, unlimited: true });
  });

  it("never gives the last slot of a HIT to two annotators racing for it", async () => {
    // PostgreSQL: two stores on two separate database clients stand for two server processes. SQLite: a second
    // store on the same client (one process; better-sqlite3 waits for another connection's lock synchronously).
    let other: { db: Db } | null = null;
    let rival = provider;
    if (t) {
      if (kind === "postgres") other = { db: createDb(t.url) };
      rival = new LocalProvider({ store: createPrismaLocalCrowdStore(other?.db ?? t.db), now });
    }
    try {
      const hits = await Promise.all(Array.from({ length: 6 }, () => publish({ maxAssignments: 2 })));
      // One slot taken; the last one is raced for by two annotators on every HIT at once.
      await Promise.all(hits.map((h) => provider.acceptHit({ providerHitId: h.providerHitId, workerId: uid("w") })));
      const outcomes = await Promise.all(
        hits.flatMap((h) =>
          [provider, rival].map((p, i) =>
            p.acceptHit({ providerHitId: h.providerHitId, workerId: `racer-${i}-${h.providerHitId}` }).then(
              () => "won",
              (err: unknown) => (isCrowdError(err, "invalid_hit_state") ? "lost" : Promise.reject(err)),
            ),
          ),
        ),
      );
      for (let i = 0; i < hits.length; i++) expect([outcomes[2 * i], outcomes[2 * i + 1]].sort()).toEqual(["lost", "won"]);
      for (const h of hits) {
        expect(await provider.getHit({ providerHitId: h.providerHitId })).toMatchObject({ pendingCount: 2, availableCount: 0 });
      }

      // Publishing the same Accord HIT from both at once creates one HIT.
      const accordHitId = uid("same-");
      const sameItems = items(uid("p"), 2);
      const input = {
        accordHitId,
        title: "t",
        description: "d",
        rewardCents: 0,
        maxAssignments: 3,
        lifetimeSeconds: 3600,
        assignmentDurationSeconds: 600,
        autoApprovalDelaySeconds: 600,
        questionXml: buildHitQuestionXml({ items: sameItems, labels: LABELS, submitUrl: "https://accord.invalid/task" }),
      };
      const published = await Promise.all([provider.publishHit(input), rival.publishHit(input), provider.publishHit(input), rival.publishHit(input)]);
      expect(new Set(published.map((p) => p.providerHitId)).size).toBe(1);
      expect(published.filter((p) => !p.duplicate)).toHaveLength(1);

      // The same extra-assignment token from both: added once. Two deciders on one assignment: one wins.
      const hitId = published[0].providerHitId;
      const a = await work(hitId, sameItems);
      const token = uid("tok-");
      const added = await Promise.all([provider, rival, provider, rival].map((p) => p.addAssignments({ providerHitId: hitId, count: 1, uniqueToken: token })));
      expect(added.filter((x) => !x.duplicate)).toHaveLength(1);
      expect((await provider.getHit({ providerHitId: hitId })).maxAssignments).toBe(4);
      const decided = await Promise.allSettled([provider.approveAssignment({ assignmentId: a.assignmentId }), rival.rejectAssignment({ assignmentId: a.assignmentId, feedback: "no" })]);
      expect(decided.filter((d) => d.status === "fulfilled")).toHaveLength(1);
      const rejected = decided.find((d) => d.status === "rejected") as PromiseRejectedResult;
      expect(isCrowdError(rejected.reason, "invalid_assignment_state")).toBe(true);
    } finally {
      await other?.db.$disconnect();
    }
  });

  if (kind !== "memory") {
    it("lists open HITs and an annotator's assignments for the task page, and creates the annotator's worker row", async () => {
      const db = (t as TestDb).db;
      const reader = createLocalCrowdReader(db);
      const open = await publish({ maxAssignments: 1 });
      const expired = await publish({ lifetimeSeconds: 1 });
      const summaries = await listOpenLocalHits(db, new Date(clock.getTime() + 1000));
      const ids = summaries.map((s) => s.id);
      expect(ids).toContain(open.providerHitId);
      expect(ids).not.toContain(expired.providerHitId);
      const summary = summaries.find((s) => s.id === open.providerHitId);
      expect(summary).not.toHaveProperty("questionXml");
      expect(summary?.expiresAt).toEqual(open.expiresAt);
      expect(summary?.disposed).toBe(false);

      const user = await db.user.create({ data: { email: `${uid("ann")}@example.org`, name: "Ann", passwordHash: "x", role: "annotator" } });
      const worker = await ensureLocalWorker(db, user.id);
      expect(await ensureLocalWorker(db, user.id)).toEqual(worker);
      expect(worker.workerId).toBe(user.id);
      expect(await db.worker.findUniqueOrThrow({ where: { id: worker.id } })).toMatchObject({ provider: "local", externalId: user.id, userId: user.id });
      const a = await work(open.providerHitId, open.its, worker.workerId);
      const mine = await listLocalWorkerAssignments(db, worker.workerId);
      expect(mine.map((x) => [x.id, x.status])).toEqual([[a.assignmentId, "Submitted"]]);
      expect(mine[0]).not.toHaveProperty("answerXml");
      expect((await reader.getAssignment(a.assignmentId))?.answerXml).toContain("QuestionFormAnswers");
      expect((await reader.getHit(open.providerHitId))?.questionXml).toContain("HTMLQuestion");
      expect(await reader.getHit("missing")).toBeNull();
      // The campaign engine's provider works on the same state.
      const engine = getLocalCrowdProvider(db, { now });
      expect(await engine.getHit({ providerHitId: open.providerHitId })).toMatchObject({ completedCount: 0, pendingCount: 0, status: "Reviewable" });
    });
  }
});
