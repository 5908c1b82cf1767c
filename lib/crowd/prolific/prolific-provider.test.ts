import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { isCrowdError } from "../errors";
import { buildQuestionFormAnswers } from "../mturk/answers";
import { ANSWER_KEY_NS } from "../mturk/qualification-xml";
import { ThrottleGate } from "../throttle-gate";
import { ProlificClient } from "./api-client";
import { createProlificProvider } from "./create-provider";
import { learnFeeBasisPoints, ProlificProvider } from "./prolific-provider";
import { hitRef } from "./provider/context";
import { MemoryProlificStore } from "./provider-store";
import { startProlificSimulator, type RunningProlificSimulator } from "./simulator/server";
import { testHit } from "./testing/hit-input";

let sim: RunningProlificSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

const TASK = "http://127.0.0.1:3000/prolific/task";

async function setup(options: { store?: MemoryProlificStore; persistFile?: string; studyViewTtlMs?: number } = {}) {
  sim = await startProlificSimulator({ clock: new ManualClock(), balance: 1_000_000, currency: "GBP", persistFile: options.persistFile });
  const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
  const store = options.store ?? new MemoryProlificStore();
  const provider = new ProlificProvider({
    client,
    mode: "simulator",
    workspaceId: sim.state.workspace.id,
    projectId: sim.state.project.id,
    taskUrl: TASK,
    screeningUrl: "http://127.0.0.1:3000/prolific/screening",
    store,
    feeBasisPoints: await learnFeeBasisPoints(client),
    screening: { rewardMinor: 100, places: 10, estimatedMinutes: 5 },
    studyViewTtlMs: options.studyViewTtlMs,
  });
  return { sim, client, store, provider };
}

const hit = testHit;

const studyOf = (providerHitId: string) => hitRef(providerHitId).studyId;

const answers = (label: string) => [{ field: "t1", label }];

/** A participant takes a place in the HIT's batch study, is given that HIT, posts answers on Accord's page and comes back with the code it gave. */
async function work(s: RunningProlificSimulator, provider: ProlificProvider, providerHitId: string, participant: string) {
  const { studyId, hitId } = hitRef(providerHitId);
  const sub = s.service.startSubmission(participant, studyId);
  expect(await provider.hitForSession({ studyId, sessionId: sub.id, participantId: participant })).toBe(hitId);
  const { completionCode } = await provider.saveAnswers({ submissionId: sub.id, studyId, accordHitId: hitId, answers: answers("caution") });
  s.service.completeSubmission(sub.id, completionCode);
  return sub.id;
}

async function list(provider: ProlificProvider, studyId: string) {
  const out = [];
  for await (const a of provider.listSubmittedAssignments({ providerHitId: studyId })) out.push(a);
  return out;
}

async function code(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isCrowdError(err)) return err.code;
    throw err;
  }
  return "no error";
}

describe("ProlificProvider against the local Prolific simulator", () => {
  it("publishes a batch as one study with Accord's page and the three placeholders, its HITs' places together, once", async () => {
    const { sim, provider } = await setup();
    // Publish lanes run HITs of one batch at once: one study, created once.
    const published = await Promise.all(["hit-1", "hit-2", "hit-3"].map((id) => provider.publishHit(hit({ accordHitId: id }))));
    expect(published.map((p) => p.duplicate)).toEqual([false, false, false]);
    const studyId = studyOf(published[0]!.providerHitId);
    expect(published.map((p) => p.providerHitId)).toEqual([`${studyId}:hit-1`, `${studyId}:hit-2`, `${studyId}:hit-3`]);
    const study = sim.state.studies[studyId]!;
    expect(study).toMatchObject({ status: "ACTIVE", internal_name: "accord-batch:batch-1", total_available_places: 6, reward: 300, prolific_id_option: "url_parameters" });
    expect(study.external_study_url).toBe(`${TASK}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`);
    expect(study.filters.map((f) => f.filter_id)).toEqual(["participant_group_blocklist"]);
    const again = await provider.publishHit(hit({ accordHitId: "hit-2" }));
    expect(again).toEqual({ ...published[1], duplicate: true });
    expect(Object.keys(sim.state.studies)).toHaveLength(1);
    expect(sim.state.studies[studyId]!.total_available_places).toBe(6);
    const remote = await provider.getHit({ providerHitId: published[1]!.providerHitId });
    expect(remote).toMatchObject({ status: "Assignable", maxAssignments: 2, availableCount: 2, pendingCount: 0, rewardCents: 300 });
    // Another batch is another study.
    const other = await provider.publishHit(hit({ accordHitId: "hit-4", batch: { key: "batch-2", position: 1 } }));
    expect(studyOf(other.providerHitId)).not.toBe(studyId);
  });

  it("gives each session a HIT from the batch's queue: in order, the same on a reload, never past a HIT's places", async () => {
    // Participants act on the simulator behind the provider's back here: the study is read afresh every time.
    const { sim, provider } = await setup({ studyViewTtlMs: 0 });
    const [h1, h2] = await Promise.all(["hit-1", "hit-2"].map((id) => provider.publishHit(hit({ accordHitId: id, maxAssignments: 1 }))));
    const studyId = studyOf(h1!.providerHitId);
    const open = (participantId: string) => {
      const sub = sim.service.startSubmission(participantId, studyId);
      return { sub, given: () => provider.hitForSession({ studyId, sessionId: sub.id, participantId }) };
    };
    const a = open("p-a");
    expect(await a.given()).toBe("hit-1");
    expect(await a.given()).toBe("hit-1");
    // Two sessions race for the one place left (hit-2's): one gets it, the other nothing.
    sim.state.studies[studyId]!.total_available_places = 3; // a place no HIT holds (an expired HIT's, say)
    const [b, c] = [open("p-b"), open("p-c")];
    const raced = await Promise.all([b.given(), c.given()]);
    expect(raced.sort()).toEqual(["hit-2", null].sort());
    expect(await provider.getHit({ providerHitId: h2!.providerHitId })).toMatchObject({ status: "Unassignable", pendingCount: 1, availableCount: 0 });
    // A returned session gives its HIT's place back to the queue.
    sim.service.returnSubmission(a.sub.id);
    expect(await provider.getHit({ providerHitId: h1!.providerHitId })).toMatchObject({ status: "Assignable", availableCount: 1 });
    expect(await open("p-d").given()).toBe("hit-1");
  });

  it("a participant who came back without opening Accord's page is given a HIT on the next listing, so Accord reviews it", async () => {
    const { sim, provider } = await setup();
    const [h1, h2] = await Promise.all(["hit-1", "hit-2"].map((id) => provider.publishHit(hit({ accordHitId: id, maxAssignments: 1 }))));
    const studyId = studyOf(h1!.providerHitId);
    await work(sim, provider, h1!.providerHitId, "p-worked");
    const stray = sim.service.startSubmission("p-stray", studyId);
    sim.service.completeSubmission(stray.id, null);
    // Listing either HIT gives the stray the HIT with a place left; its assignment has no answers.
    expect(await list(provider, h1!.providerHitId)).toHaveLength(1);
    const listed = await list(provider, h2!.providerHitId);
    expect(listed.map((a) => [a.assignmentId, a.workerId, a.status, a.answerXml])).toEqual([[stray.id, "p-stray", "Submitted", buildQuestionFormAnswers([])]]);
    expect(await provider.getHit({ providerHitId: h2!.providerHitId })).toMatchObject({ availableCount: 0 });
  });

  it("the HITs of a batch share one read of their study until the provider changes it or the view is older than its TTL", async () => {
    const { sim, client, provider } = await setup({ studyViewTtlMs: 60_000 });
    const [h1, h2] = await Promise.all(["hit-1", "hit-2"].map((id) => provider.publishHit(hit({ accordHitId: id }))));
    let reads = 0;
    const listSubmissions = client.listSubmissions.bind(client);
    client.listSubmissions = (studyId) => (reads++, listSubmissions(studyId));
    const pass = async () => {
      for (const h of [h1!, h2!]) {
        await provider.getHit({ providerHitId: h.providerHitId });
        await list(provider, h.providerHitId);
      }
    };
    await pass();
    expect(reads).toBe(1);
    // Answers stored on Accord's page (the participant is coming back with the code): read again.
    const sub = await work(sim, provider, h1!.providerHitId, "p1"); // the page's own read of the study is one more
    reads = 0;
    await pass();
    expect(reads).toBe(1);
    expect((await list(provider, h1!.providerHitId)).map((a) => a.status)).toEqual(["Submitted"]);
    // A decision: read again, and the listing shows it.
    await provider.approveAssignment({ assignmentId: sub });
    expect((await list(provider, h1!.providerHitId)).map((a) => a.status)).toEqual(["Approved"]);
    expect(reads).toBe(2);
  });

  it("a study's view older than its TTL is read again (a return made on Prolific shows)", async () => {
    const ttlMs = 30;
    const { sim, provider } = await setup({ studyViewTtlMs: ttlMs });
    const { providerHitId } = await provider.publishHit(hit({ maxAssignments: 1 }));
    const { studyId } = hitRef(providerHitId);
    const sub = sim.service.startSubmission("p1", studyId);
    // The view's age is read from Date.now(): the test holds it still, then moves it past the TTL.
    const t0 = Date.now();
    const now = vi.spyOn(Date, "now").mockReturnValue(t0);
    try {
      expect(await provider.hitForSession({ studyId, sessionId: sub.id, participantId: "p1" })).toBe("hit-1");
      expect(await provider.getHit({ providerHitId })).toMatchObject({ pendingCount: 1, availableCount: 0 });
      sim.service.returnSubmission(sub.id);
      now.mockReturnValue(t0 + ttlMs - 1);
      expect(await provider.getHit({ providerHitId })).toMatchObject({ pendingCount: 1 }); // the view of a moment ago
      now.mockReturnValue(t0 + ttlMs);
      expect(await provider.getHit({ providerHitId })).toMatchObject({ pendingCount: 0, availableCount: 1, status: "Assignable" });
    } finally {
      now.mockRestore();
    }
  });

  it("an expired HIT takes no one new; the study pauses once none is open and starts again when one is extended", async () => {
    const { sim, provider } = await setup();
    const [h1, h2] = await Promise.all(["hit-1", "hit-2"].map((id) => provider.publishHit(hit({ accordHitId: id }))));
    const studyId = studyOf(h1!.providerHitId);
    await provider.expireHit({ providerHitId: h1!.providerHitId });
    expect(sim.state.studies[studyId]!.status).toBe("ACTIVE");
    const sub = sim.service.startSubmission("p-a", studyId);
    expect(await provider.hitForSession({ studyId, sessionId: sub.id, participantId: "p-a" })).toBe("hit-2");
    await provider.expireHit({ providerHitId: h2!.providerHitId });
    expect(sim.state.studies[studyId]!.status).toBe("PAUSED");
    expect((await provider.getHit({ providerHitId: h1!.providerHitId })).status).toBe("Reviewable");
    await provider.extendHit({ providerHitId: h1!.providerHitId, expiresAt: new Date(Date.now() + 86_400_000) });
    expect(sim.state.studies[studyId]!.status).toBe("ACTIVE");
    expect((await provider.getHit({ providerHitId: h1!.providerHitId })).status).toBe("Assignable");
  });

  it("after a crash between creating and publishing, a retry finds the study by its internal name and publishes it", async () => {
    const { sim, client, store, provider } = await setup();
    // The first attempt recorded its intent and created the study, then died before PUBLISH.
    await store.insert("prolific-study", "batch-9", { internalName: "accord-batch:batch-9", code: "K7M2Q9R4T6WX" });
    const orphan = await client.createStudy({
      name: "Label 30 tweets",
      internal_name: "accord-batch:batch-9",
      description: "d",
      external_study_url: provider.studyUrl(),
      prolific_id_option: "url_parameters",
      completion_codes: [{ code: await provider.completionCode("batch-9"), code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
      total_available_places: 2,
      estimated_completion_time: 15,
      reward: 300,
      project: sim.state.project.id,
    });
    const retried = await provider.publishHit(hit({ accordHitId: "hit-9", batch: { key: "batch-9", position: 1 } }));
    expect(retried).toMatchObject({ providerHitId: `${orphan.id}:hit-9`, duplicate: false });
    expect(Object.keys(sim.state.studies)).toEqual([orphan.id]);
    expect(sim.state.studies[orphan.id]!.status).toBe("ACTIVE");
  });

  it("lists completed submissions with the answers posted on Accord's page, and decides them compare-and-set", async () => {
    const { sim, provider } = await setup();
    const { providerHitId } = await provider.publishHit(hit());
    const good = await work(sim, provider, providerHitId, "p-good");
    const bad = await work(sim, provider, providerHitId, "p-bad");
    const listed = await list(provider, providerHitId);
    expect(listed.map((a) => [a.assignmentId, a.workerId, a.status])).toEqual([
      [good, "p-good", "Submitted"],
      [bad, "p-bad", "Submitted"],
    ]);
    expect(listed[0]!.answerXml).toBe(buildQuestionFormAnswers([{ questionId: "t1", freeText: "caution" }]));
    expect((await provider.getHit({ providerHitId })).status).toBe("Reviewable");

    await provider.approveAssignment({ assignmentId: good });
    await provider.approveAssignment({ assignmentId: good }); // a repeat is a no-op
    await provider.rejectAssignment({ assignmentId: bad, feedback: "Rejected: 4 of 10 gold tweets correct; 7 are required." });
    expect(await code(provider.rejectAssignment({ assignmentId: good, feedback: "no" }))).toBe("invalid_assignment_state");
    expect(await code(provider.approveAssignment({ assignmentId: bad }))).toBe("invalid_assignment_state");
    expect(sim.state.submissions[bad]!.status).toBe("REJECTED");
    expect((await list(provider, providerHitId)).map((a) => a.status)).toEqual(["Approved", "Rejected"]);

    // The fee booked for the approval is what the workspace was debited.
    const debited = sim.state.debits.filter((d) => d.ref === good);
    expect(debited.map((d) => [d.kind, d.amount])).toEqual([
      ["reward", 300],
      ["fee", provider.fees.assignmentFeeCents({ rewardCents: 300, maxAssignments: 2 })],
    ]);
  });

  it("rejects with a category and a message of at least 100 characters built from Accord's feedback", async () => {
    const { sim, provider } = await setup();
    const { providerHitId } = await provider.publishHit(hit());
    const bad = await work(sim, provider, providerHitId, "p-bad");
    let seen: unknown = null;
    const original = provider.client.rejectSubmission.bind(provider.client);
    provider.client.rejectSubmission = async (id, category, message) => {
      seen = { category, message };
      return original(id, category, message);
    };
    await provider.rejectAssignment({ assignmentId: bad, feedback: "Rejected: 3 of 10 gold tweets correct (7 needed)." });
    const { category, message } = seen as { category: string; message: string };
    expect(category).toBe("FAILED_CHECK");
    expect(message.startsWith("Rejected: 3 of 10 gold tweets correct (7 needed).")).toBe(true);
    expect(message.length).toBeGreaterThanOrEqual(100);
  });

  it("adds places (only up) once per token, and a study waiting for review takes participants again", async () => {
    const { sim, provider } = await setup();
    const { providerHitId } = await provider.publishHit(hit());
    await work(sim, provider, providerHitId, "p1");
    await work(sim, provider, providerHitId, "p2");
    expect(sim.state.studies[studyOf(providerHitId)]!.status).toBe("AWAITING REVIEW");
    expect(await provider.addAssignments({ providerHitId, count: 2, uniqueToken: "h-to-4" })).toEqual({ duplicate: false });
    expect(await provider.addAssignments({ providerHitId, count: 2, uniqueToken: "h-to-4" })).toEqual({ duplicate: true });
    expect(sim.state.studies[studyOf(providerHitId)]).toMatchObject({ total_available_places: 4, status: "ACTIVE" });
    expect(await provider.getHit({ providerHitId })).toMatchObject({ status: "Assignable", availableCount: 2, maxAssignments: 4 });
    await work(sim, provider, providerHitId, "p3");
    expect((await list(provider, providerHitId)).length).toBe(3);
  });

  it("pays a bonus in two steps once per token, reporting the fee the workspace was charged", async () => {
    const { sim, provider } = await setup();
    const { providerHitId } = await provider.publishHit(hit());
    const sub = await work(sim, provider, providerHitId, "p1");
    await provider.approveAssignment({ assignmentId: sub });
    const paid = await provider.sendBonus({ workerId: "p1", assignmentId: sub, amountCents: 125, reason: "Great work", uniqueToken: "b-1" });
    const again = await provider.sendBonus({ workerId: "p1", assignmentId: sub, amountCents: 125, reason: "Great work", uniqueToken: "b-1" });
    expect(again).toEqual({ duplicate: true, feeCents: paid.feeCents });
    const bonusDebits = sim.state.debits.filter((d) => d.kind === "bonus" || d.kind === "bonus_fee").map((d) => [d.kind, d.amount]);
    expect(bonusDebits).toEqual([
      ["bonus", 125],
      ["bonus_fee", paid.feeCents],
    ]);
    expect(paid.feeCents).toBe(provider.fees.bonusFeeCents({ bonusCents: 125 }));
    expect(await code(provider.sendBonus({ workerId: "someone-else", assignmentId: sub, amountCents: 5, reason: "x", uniqueToken: "b-2" }))).toBe("not_found");
  });

  it("a set-up bonus whose payment was lost is paid by the retry, once", async () => {
    const { sim, provider } = await setup();
    const { providerHitId } = await provider.publishHit(hit());
    const sub = await work(sim, provider, providerHitId, "p1");
    await provider.approveAssignment({ assignmentId: sub });
    const pay = provider.client.payBonuses.bind(provider.client);
    provider.client.payBonuses = async () => {
      throw new Error("connection reset");
    };
    await expect(provider.sendBonus({ workerId: "p1", assignmentId: sub, amountCents: 50, reason: "r", uniqueToken: "b-lost" })).rejects.toThrow("connection reset");
    provider.client.payBonuses = pay;
    expect(await provider.sendBonus({ workerId: "p1", assignmentId: sub, amountCents: 50, reason: "r", uniqueToken: "b-lost" })).toMatchObject({ duplicate: true });
    expect(Object.values(sim.state.bulkBonuses)).toHaveLength(1);
    expect(sim.state.debits.filter((d) => d.kind === "bonus").map((d) => d.amount)).toEqual([50]);
  });

  it("blocks through the block-list group: a blocked participant cannot take the next study", async () => {
    const { sim, provider } = await setup();
    await provider.blockWorker({ workerId: "p-blocked", reason: "spam" });
    const studyId = studyOf((await provider.publishHit(hit())).providerHitId);
    expect(() => sim.service.startSubmission("p-blocked", studyId)).toThrow(/not eligible/);
    await provider.unblockWorker({ workerId: "p-blocked" });
    expect(sim.service.startSubmission("p-blocked", studyId).status).toBe("ACTIVE");
    expect(Object.values(sim.state.groups).filter((g) => g.name === "Accord block list")).toHaveLength(1);
  });

  it("a qualification is a screening study whose passers join the group that allows them into the HITs", async () => {
    const { sim, provider } = await setup();
    const answerKeyXml =
      `<AnswerKey xmlns="${ANSWER_KEY_NS}"><Question><QuestionIdentifier>g1</QuestionIdentifier><AnswerOption><SelectionIdentifier>caution</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>` +
      `<QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping></AnswerKey>`;
    const { qualificationTypeId } = await provider.createQualificationType({ name: "Quake", description: "Ten gold tweets.", testXml: "<x/>", answerKeyXml, testDurationSeconds: 1200 });
    expect(await code(provider.createQualificationType({ name: "Quake", description: "d", testXml: "<x/>", answerKeyXml, testDurationSeconds: 60 }))).toBe("already_exists");
    const screeningId = Object.values(sim.state.studies).find((s) => s.internal_name === "accord-qual:Quake")!.id;
    for (const [participant, label] of [["p-pass", "caution"], ["p-fail", "other"]] as const) {
      const sub = sim.service.startSubmission(participant, screeningId);
      const graded = await provider.gradeScreening({ qualificationTypeId, participantId: participant, sessionId: sub.id, answers: [{ questionId: "g1", choice: label }], passingScore: 70 });
      expect(graded.passed).toBe(participant === "p-pass");
      sim.service.completeSubmission(sub.id, graded.completionCode);
    }
    expect(Object.keys(sim.state.groups[qualificationTypeId]!.members)).toEqual(["p-pass"]);

    const studyId = studyOf((await provider.publishHit(hit({ qualificationRequirements: [{ qualificationTypeId, comparator: "GreaterThanOrEqualTo", integerValues: [70] }] }))).providerHitId);
    expect(() => sim.service.startSubmission("p-fail", studyId)).toThrow(/not eligible/);
    expect(sim.service.startSubmission("p-pass", studyId).status).toBe("ACTIVE");
    await provider.grantQualification({ qualificationTypeId, workerId: "p-late" });
    expect(sim.service.startSubmission("p-late", studyId).status).toBe("ACTIVE");
    expect(await code(provider.publishHit(hit({ accordHitId: "hit-2", batch: { key: "batch-2", position: 1 }, qualificationRequirements: [{ qualificationTypeId: "00000000000000000000ABCD", comparator: "Exists" }] })))).toBe("invalid_parameter");
  });

  it("reads the balance and disposes of decided HITs; the study stops after its last HIT", async () => {
    const { sim, provider } = await setup();
    const [h1, h2] = await Promise.all(["hit-1", "hit-2"].map((id) => provider.publishHit(hit({ accordHitId: id, maxAssignments: 1 }))));
    const studyId = studyOf(h1!.providerHitId);
    expect((await provider.getBalance()).availableCents).toBeLessThan(1_000_000);
    const subs = [await work(sim, provider, h1!.providerHitId, "p1"), await work(sim, provider, h2!.providerHitId, "p2")];
    expect(await code(provider.deleteHit({ providerHitId: h1!.providerHitId }))).toBe("invalid_hit_state");
    await provider.approveAssignment({ assignmentId: subs[0]! });
    await provider.deleteHit({ providerHitId: h1!.providerHitId });
    expect((await provider.getHit({ providerHitId: h1!.providerHitId })).status).toBe("Disposed");
    expect(sim.state.studies[studyId]!.status).not.toBe("COMPLETED");
    await provider.approveAssignment({ assignmentId: subs[1]! });
    await provider.deleteHit({ providerHitId: h2!.providerHitId });
    expect(sim.state.studies[studyId]!.status).toBe("COMPLETED");
  });
});

describe("the pay-rate floor", () => {
  it("refuses a reward under Prolific's minimum per hour with the reward that would do, before creating anything", async () => {
    const { sim, provider } = await setup();
    // The simulator's GBP floor is £6.00 an hour; 60 minutes allowed → an estimated 20 minutes.
    await expect(provider.checkReward({ rewardCents: 150, assignmentDurationSeconds: 3600 })).rejects.toThrow(
      "£1.50 for an estimated 20 minutes is £4.50 an hour, below Prolific's minimum of £6.00 an hour: raise the reward to at least £2.00 or shorten the time allowed.",
    );
    await provider.checkReward({ rewardCents: 200, assignmentDurationSeconds: 3600 });
    expect(Object.keys(sim.state.studies)).toHaveLength(0);
  });
});

describe("createProlificProvider", () => {
  it("finds the token's workspace and project and learns the fee rate from the cost calculator", async () => {
    sim = await startProlificSimulator({ clock: new ManualClock(), balance: 10_000 });
    const provider = await createProlificProvider({ mode: "simulator", token: sim.token, apiUrl: sim.apiUrl, publicUrl: "https://accord.example.org/", store: new MemoryProlificStore() });
    expect(provider.kind).toBe("prolific");
    expect(provider.studyUrl()).toBe("https://accord.example.org/prolific/task?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}");
    // The fee the calculator quotes for one place is the fee the ledger books.
    const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl });
    for (const reward of [1, 50, 225, 300, 999]) expect(provider.fees.assignmentFeeCents({ rewardCents: reward, maxAssignments: 3 })).toBe((await client.calculateCost(reward, 1)) - reward);
    expect(await provider.getBalance()).toEqual({ availableCents: 10_000, onHoldCents: 0 });
    await expect(createProlificProvider({ mode: "simulator", token: "wrong", apiUrl: sim.apiUrl, publicUrl: "http://x", store: new MemoryProlificStore() })).rejects.toMatchObject({ code: "permission_denied" });
  });
});
