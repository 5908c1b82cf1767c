import { describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { CrowdError, type CrowdErrorCode } from "./errors";
import { LocalProvider } from "./local-provider";
import { createMemoryLocalCrowdStore } from "./local-store";
import { hitFieldName, parseHitAnswers } from "./mturk/hit-question";
import { buildQualificationTest, passingScoreRequirement } from "./mturk/qualification-xml";
import type { CrowdAssignment, PublishHitInput } from "./provider";
import { goldTweets, LABEL_VALUES, nastyItems } from "./test-fixtures";

function setup() {
  let now = Date.UTC(2026, 0, 1);
  const store = createMemoryLocalCrowdStore();
  const provider = new LocalProvider({ store, now: () => new Date(now) });
  return { store, provider, advance: (s: number) => (now += s * 1000), now: () => now };
}

const input = (accordHitId: string, extra: Partial<PublishHitInput> = {}): PublishHitInput => ({
  accordHitId,
  title: "t",
  description: "d",
  rewardCents: 0,
  maxAssignments: 2,
  lifetimeSeconds: 3600,
  assignmentDurationSeconds: 600,
  autoApprovalDelaySeconds: 86_400,
  questionXml: "<HTMLQuestion/>",
  ...extra,
});

async function fails(p: Promise<unknown>, code: CrowdErrorCode): Promise<void> {
  await expect(p).rejects.toBeInstanceOf(CrowdError);
  await expect(p).rejects.toMatchObject({ code });
}

async function list(provider: LocalProvider, providerHitId: string): Promise<CrowdAssignment[]> {
  const out: CrowdAssignment[] = [];
  for await (const a of provider.listSubmittedAssignments({ providerHitId })) out.push(a);
  return out;
}

describe("LocalProvider (in-house crowd)", () => {
  it("publishes idempotently and runs the HIT rules of MTurk without money", async () => {
    const { provider, advance } = setup();
    const pub = await provider.publishHit(input("h1"));
    expect(pub.duplicate).toBe(false);
    expect(await provider.publishHit(input("h1"))).toEqual({ ...pub, duplicate: true });
    expect(await provider.getBalance()).toEqual({ availableCents: 0, onHoldCents: 0, unlimited: true });

    const items = nastyItems(2);
    const { assignmentId: a1 } = await provider.acceptHit({ providerHitId: pub.providerHitId, workerId: "ann" });
    await fails(provider.acceptHit({ providerHitId: pub.providerHitId, workerId: "ann" }), "invalid_hit_state");
    const { assignmentId: a2 } = await provider.acceptHit({ providerHitId: pub.providerHitId, workerId: "bob" });
    expect((await provider.getHit({ providerHitId: pub.providerHitId })).status).toBe("Unassignable");
    await fails(provider.acceptHit({ providerHitId: pub.providerHitId, workerId: "cy" }), "invalid_hit_state");
    await provider.submitAssignment({
      assignmentId: a1,
      workerId: "ann",
      fields: { assignmentId: a1, [hitFieldName(1, items[0].itemId)]: "caution_and_advice", [hitFieldName(2, items[1].itemId)]: "sympathy_and_support" },
    });
    await fails(provider.submitAssignment({ assignmentId: a1, workerId: "ann", fields: {} }), "invalid_assignment_state");
    advance(601); // bob abandons
    let hit = await provider.getHit({ providerHitId: pub.providerHitId });
    expect([hit.status, hit.pendingCount, hit.availableCount]).toEqual(["Assignable", 0, 1]);
    await fails(provider.submitAssignment({ assignmentId: a2, workerId: "bob", fields: {} }), "invalid_assignment_state");

    const listed = await list(provider, pub.providerHitId);
    expect(listed.map((a) => [a.assignmentId, a.status])).toEqual([[a1, "Submitted"]]);
    const parsed = parseHitAnswers({ answerXml: listed[0].answerXml, items, labels: HUMAID_LABELS });
    expect(parsed.answers.map((a) => a.label)).toEqual(["caution_and_advice", "sympathy_and_support"]);

    await provider.rejectAssignment({ assignmentId: a1, feedback: "3 of 10 gold correct" });
    await fails(provider.approveAssignment({ assignmentId: a1 }), "invalid_assignment_state");
    await provider.approveAssignment({ assignmentId: a1, overrideRejection: true });
    await fails(provider.rejectAssignment({ assignmentId: a1, feedback: "x" }), "invalid_assignment_state");
    await fails(provider.approveAssignment({ assignmentId: a2 }), "not_found");

    expect(await provider.addAssignments({ providerHitId: pub.providerHitId, count: 1, uniqueToken: "t" })).toEqual({ duplicate: false });
    expect(await provider.addAssignments({ providerHitId: pub.providerHitId, count: 1, uniqueToken: "t" })).toEqual({ duplicate: true });
    expect((await provider.getHit({ providerHitId: pub.providerHitId })).maxAssignments).toBe(3);

    await fails(provider.deleteHit({ providerHitId: pub.providerHitId }), "invalid_hit_state");
    await provider.expireHit({ providerHitId: pub.providerHitId });
    await provider.deleteHit({ providerHitId: pub.providerHitId });
    await provider.deleteHit({ providerHitId: pub.providerHitId });
    hit = await provider.getHit({ providerHitId: pub.providerHitId });
    expect(hit.status).toBe("Disposed");
    await fails(provider.extendHit({ providerHitId: pub.providerHitId, expiresAt: new Date(Date.UTC(2027, 0, 1)) }), "invalid_hit_state");
    await fails(provider.getHit({ providerHitId: "nope" }), "not_found");
  });

  it("auto-approves at the auto-approval time, returns free the slot", async () => {
    const { provider, advance } = setup();
    const { providerHitId } = await provider.publishHit(input("h2", { maxAssignments: 1 }));
    const { assignmentId: r } = await provider.acceptHit({ providerHitId, workerId: "ann" });
    await provider.returnAssignment({ assignmentId: r, workerId: "ann" });
    const { assignmentId } = await provider.acceptHit({ providerHitId, workerId: "ann" });
    await provider.submitAssignment({ assignmentId, workerId: "ann", fields: { a: "b" } });
    expect((await provider.getHit({ providerHitId })).status).toBe("Reviewable");
    advance(86_400);
    expect((await list(provider, providerHitId)).map((a) => a.status)).toEqual(["Approved"]);
  });

  it("grades the qualification test with the AnswerKey and enforces requirements and blocks", async () => {
    const { provider, store, advance } = setup();
    const gold = goldTweets(10);
    const built = buildQualificationTest({ gold, labels: HUMAID_LABELS });
    const { qualificationTypeId } = await provider.createQualificationType({ name: "q", description: "d", testXml: built.questionFormXml, answerKeyXml: built.answerKeyXml, testDurationSeconds: 600, retryDelaySeconds: 3600 });
    await fails(provider.createQualificationType({ name: "q", description: "d", testXml: built.questionFormXml, answerKeyXml: built.answerKeyXml, testDurationSeconds: 600 }), "already_exists");
    const answers = (correct: number) => Object.fromEntries(built.questionIds.map((q, i) => [q, i < correct ? gold[i].label : LABEL_VALUES.find((l) => l !== gold[i].label)!]));
    expect(await provider.takeQualificationTest({ qualificationTypeId, workerId: "pass", answers: answers(6) })).toEqual({ score: 60 });
    expect(await provider.takeQualificationTest({ qualificationTypeId, workerId: "fail", answers: answers(5) })).toEqual({ score: 50 });
    await fails(provider.takeQualificationTest({ qualificationTypeId, workerId: "fail", answers: answers(10) }), "invalid_parameter");
    const { providerHitId } = await provider.publishHit(input("h3", { lifetimeSeconds: 86_400, qualificationRequirements: [passingScoreRequirement({ qualificationTypeId })] }));
    expect(await provider.listAvailableHits({ providerHitIds: [providerHitId], workerId: "pass" })).toEqual([providerHitId]);
    expect(await provider.listAvailableHits({ providerHitIds: [providerHitId], workerId: "fail" })).toEqual([]);
    advance(3600);
    expect(await provider.takeQualificationTest({ qualificationTypeId, workerId: "fail", answers: answers(7) })).toEqual({ score: 70 });
    await provider.blockWorker({ workerId: "fail", reason: "spam" });
    await fails(provider.acceptHit({ providerHitId, workerId: "fail" }), "invalid_hit_state");
    await provider.unblockWorker({ workerId: "fail" });
    const { assignmentId } = await provider.acceptHit({ providerHitId, workerId: "fail" });
    await provider.revokeQualification({ qualificationTypeId, workerId: "pass" });
    await fails(provider.revokeQualification({ qualificationTypeId, workerId: "pass" }), "not_found");
    await provider.grantQualification({ qualificationTypeId, workerId: "pass", value: 100 });
    await fails(provider.grantQualification({ qualificationTypeId: "nope", workerId: "pass" }), "not_found");

    await provider.submitAssignment({ assignmentId, workerId: "fail", fields: { x: "y" } });
    await provider.approveAssignment({ assignmentId });
    const notified = await provider.notifyWorkers({ workerIds: ["fail", "pass"], subject: "s", message: "m" });
    expect(notified.failures.map((f) => f.workerId)).toEqual(["pass"]);
    expect(store.data.notifications).toHaveLength(1);
    expect(await provider.sendBonus({ workerId: "fail", assignmentId, amountCents: 5, reason: "r", uniqueToken: "b" })).toEqual({ duplicate: false });
    expect(await provider.sendBonus({ workerId: "fail", assignmentId, amountCents: 5, reason: "r", uniqueToken: "b" })).toEqual({ duplicate: true });
    await fails(provider.sendBonus({ workerId: "pass", assignmentId, amountCents: 5, reason: "r", uniqueToken: "c" }), "not_found");
    expect(store.data.bonuses).toHaveLength(1);
  });

  it("serialises concurrent accepts: the last slot goes to one annotator only", async () => {
    const { provider } = setup();
    const { providerHitId } = await provider.publishHit(input("h4", { maxAssignments: 1 }));
    const results = await Promise.allSettled(["a", "b", "c"].map((workerId) => provider.acceptHit({ providerHitId, workerId })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });
});
