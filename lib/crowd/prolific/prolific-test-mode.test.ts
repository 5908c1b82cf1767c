import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { isCrowdError } from "../errors";
import { ANSWER_KEY_NS } from "../mturk/qualification-xml";
import { ProlificClient } from "./api-client";
import { createProlificProvider } from "./create-provider";
import { MemoryProlificStore } from "./provider-store";
import { startProlificSimulator, type RunningProlificSimulator } from "./simulator/server";
import { testHit } from "./testing/hit-input";

// Prolific's test mode: the test participant (gated per workspace) and HITs published as test studies.

let sim: RunningProlificSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

async function start(testParticipants: boolean) {
  sim = await startProlificSimulator({ clock: new ManualClock(), balance: 1_000_000, currency: "GBP", testParticipants, participants: "careful:3", participantTickMs: 0 });
  return { sim, client: new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, faultBackoffMs: 1 }) };
}

async function testModeProvider(s: RunningProlificSimulator, store = new MemoryProlificStore()) {
  return createProlificProvider({ mode: "simulator", token: s.token, apiUrl: s.apiUrl, publicUrl: "http://127.0.0.1:3000", store, testMode: true });
}

/** A HIT alone in its batch (`hit-1` in `batch-1`). */
const hit = (accordHitId: string) => testHit({ accordHitId, batch: { key: accordHitId.replace("hit", "batch"), position: 1 } });

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isCrowdError(err)) return { code: err.code, status: err.details.httpStatus, message: err.message };
    throw err;
  }
  return null;
}

const studiesNamed = (s: RunningProlificSimulator, name: string) => Object.values(s.state.studies).filter((x) => x.internal_name === name);

describe("Prolific's test participant on the simulator", () => {
  it("is created once per researcher when the workspace has test participants enabled", async () => {
    const { sim, client } = await start(true);
    const { participant_id } = await client.createTestParticipant("tester@example.org");
    expect(sim.state.testParticipants?.participant).toEqual({ id: participant_id, email: "tester@example.org" });
    const again = await refusal(client.createTestParticipant("other@example.org"));
    expect(again).toMatchObject({ code: "invalid_parameter", status: 400 });
    expect(again?.message).toContain("already has a test participant");
  });

  it("is refused with 403 where Prolific's support has not enabled test participants, and so is a test study", async () => {
    const { sim, client } = await start(false);
    const refused = await refusal(client.createTestParticipant("tester@example.org"));
    expect(refused).toMatchObject({ code: "permission_denied", status: 403 });
    expect(refused?.message).toContain("not enabled for this workspace");
    expect(sim.state.testParticipants?.participant).toBeNull();
    const draft = await client.createStudy({ name: "n", internal_name: "x", description: "d", external_study_url: "http://127.0.0.1:3000/t", prolific_id_option: "url_parameters", completion_codes: [{ code: "C1", code_type: "COMPLETED", actions: [] }], total_available_places: 1, estimated_completion_time: 5, reward: 100 });
    expect(await refusal(client.createTestStudy(draft.id))).toMatchObject({ status: 403 });
  });
});

describe("publishing in test mode", () => {
  it("publishes one test copy per batch that only the test participant can take; a retry does not duplicate; submissions come from the copy", async () => {
    const { sim, client } = await start(true);
    const store = new MemoryProlificStore();
    const provider = await testModeProvider(sim, store);
    // No test participant yet: Prolific refuses the test study and nothing is published.
    expect(await refusal(provider.publishHit(hit("hit-0")))).toMatchObject({ code: "invalid_parameter" });
    expect(Object.values(sim.state.studies).map((s) => s.status)).toEqual(["UNPUBLISHED"]);

    const { participant_id: tester } = await client.createTestParticipant("tester@example.org");
    const first = await provider.publishHit(hit("hit-1"));
    const [draft, copy] = studiesNamed(sim, "accord-batch:batch-1");
    expect(draft).toMatchObject({ status: "UNPUBLISHED" });
    expect(copy).toMatchObject({ status: "ACTIVE", test_of: draft!.id, total_available_places: 2 });
    expect(first.providerHitId).toBe(`${copy!.id}:hit-1`);
    expect(first.duplicate).toBe(false);
    expect(await store.get("prolific-study", "batch-1")).toMatchObject({ testStudyId: copy!.id });

    // A retry uses the recorded copy; one that lost the record finds the copy by its internal name.
    expect(await provider.publishHit(hit("hit-1"))).toEqual({ ...first, duplicate: true });
    const { testStudyId: _lost, ...intent } = (await store.get("prolific-study", "batch-1"))!;
    await store.put("prolific-study", "batch-1", intent);
    expect(await provider.publishHit(hit("hit-1"))).toEqual({ ...first, duplicate: true });
    expect(studiesNamed(sim, "accord-batch:batch-1")).toHaveLength(2);

    // Simulated participants skip the copy; the test participant takes it, and the HIT's submissions are the copy's.
    await sim.participants!.step();
    expect(sim.service.submissionsOf(copy!.id)).toHaveLength(0);
    expect(sim.state.pool!.some((p) => sim.service.canTake(p.participantId, copy!))).toBe(false);
    expect(sim.state.pool!.every((p) => sim.service.isEligible(p.participantId, copy!.filters))).toBe(true);
    expect(sim.service.canTake(tester, copy!)).toBe(true);
    const sub = sim.service.startSubmission(tester, copy!.id);
    expect(await provider.hitForSession({ studyId: copy!.id, sessionId: sub.id, participantId: tester })).toBe("hit-1");
    const { completionCode } = await provider.saveAnswers({ submissionId: sub.id, studyId: copy!.id, accordHitId: "hit-1", answers: [{ field: "t1", label: "caution" }] });
    sim.service.completeSubmission(sub.id, completionCode);
    const listed = [];
    for await (const a of provider.listSubmittedAssignments({ providerHitId: first.providerHitId })) listed.push(a);
    expect(listed.map((a) => [a.assignmentId, a.workerId, a.status])).toEqual([[sub.id, tester, "Submitted"]]);
    await provider.approveAssignment({ assignmentId: sub.id });
    expect(sim.state.submissions[sub.id]!.status).toBe("APPROVED");
    expect(await provider.getHit({ providerHitId: first.providerHitId })).toMatchObject({ maxAssignments: 2, pendingCount: 0 });
  });

  it("after a crash before the test-study call, the retry asks for a copy of the draft it created instead of creating another", async () => {
    const { sim, client } = await start(true);
    await client.createTestParticipant("tester@example.org");
    const provider = await testModeProvider(sim);
    let dropped = 0;
    sim.intercept = (call) => (call.phase === "before" && call.key === "POST studies/:id/test-study" && dropped++ === 0 ? false : undefined);
    expect(await refusal(provider.publishHit(hit("hit-2")))).toMatchObject({ code: "network" });
    expect(studiesNamed(sim, "accord-batch:batch-2").map((s) => s.status)).toEqual(["UNPUBLISHED"]);
    const retried = await provider.publishHit(hit("hit-2"));
    const [draft, copy] = studiesNamed(sim, "accord-batch:batch-2");
    expect(studiesNamed(sim, "accord-batch:batch-2")).toHaveLength(2);
    expect(copy).toMatchObject({ test_of: draft!.id, status: "ACTIVE" });
    expect(retried.providerHitId).toBe(`${copy!.id}:hit-2`);
    // The copy is new: the HIT was not published before the crash.
    expect(retried.duplicate).toBe(false);
  });
});

describe("a qualification's screening in test mode", () => {
  const answerKeyXml =
    `<AnswerKey xmlns="${ANSWER_KEY_NS}"><Question><QuestionIdentifier>g1</QuestionIdentifier><AnswerOption><SelectionIdentifier>caution</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>` +
    `<QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping></AnswerKey>`;
  const qualification = (name: string) => ({ name, description: "Ten gold tweets.", testXml: "<x/>", answerKeyXml, testDurationSeconds: 1200 });
  const answer = (label: string) => [{ questionId: "g1", choice: label }];

  it("goes out as a test copy of a draft that is never published; only the test participant takes it, and passing opens the HITs", async () => {
    const { sim, client } = await start(true);
    const { participant_id: tester } = await client.createTestParticipant("tester@example.org");
    const provider = await testModeProvider(sim);
    const calls: string[] = [];
    sim.intercept = (call) => void (call.phase === "before" && calls.push(call.key));
    const { qualificationTypeId } = await provider.createQualificationType(qualification("Quake"));
    const [draft, copy] = studiesNamed(sim, "accord-qual:Quake");
    expect(studiesNamed(sim, "accord-qual:Quake")).toHaveLength(2);
    expect(draft).toMatchObject({ status: "UNPUBLISHED", published_at: null });
    expect(copy).toMatchObject({ status: "ACTIVE", test_of: draft!.id, completion_codes: draft!.completion_codes });
    expect(calls).not.toContain("POST studies/:id/transition");
    // The copy is the qualification's screening study: the screening page accepts sessions in it, and only in it.
    expect((await provider.screeningTest(qualificationTypeId)).studyId).toBe(copy!.id);
    expect(await refusal(provider.createQualificationType(qualification("Quake")))).toMatchObject({ code: "already_exists" });
    expect(studiesNamed(sim, "accord-qual:Quake")).toHaveLength(2);

    // Simulated participants cannot take it; the test participant passes and joins the group.
    await sim.participants!.step();
    expect(sim.service.submissionsOf(copy!.id)).toHaveLength(0);
    expect(sim.state.pool!.some((p) => sim.service.canTake(p.participantId, copy!))).toBe(false);
    const sub = sim.service.startSubmission(tester, copy!.id);
    const graded = await provider.gradeScreening({ qualificationTypeId, participantId: tester, sessionId: sub.id, answers: answer("caution"), passingScore: 70 });
    expect(graded).toMatchObject({ passed: true, studyId: copy!.id });
    sim.service.completeSubmission(sub.id, graded.completionCode);
    expect(sim.state.submissions[sub.id]!.status).toBe("APPROVED");
    expect(Object.keys(sim.state.groups[qualificationTypeId]!.members)).toEqual([tester]);

    // A HIT that requires the qualification: its test copy is open to the test participant, who is now in the group.
    const { providerHitId } = await provider.publishHit({ ...hit("hit-q"), qualificationRequirements: [{ qualificationTypeId, comparator: "GreaterThanOrEqualTo", integerValues: [70] }] });
    expect(sim.service.startSubmission(tester, providerHitId.split(":")[0]!).status).toBe("ACTIVE");
    expect(sim.state.studies[draft!.id]!.status).toBe("UNPUBLISHED");
  });

  it("a retry after a crash between the draft and the test-study call copies that draft: one group, one draft, one copy", async () => {
    const { sim, client } = await start(true);
    await client.createTestParticipant("tester@example.org");
    const store = new MemoryProlificStore();
    const provider = await testModeProvider(sim, store);
    let dropped = 0;
    sim.intercept = (call) => (call.phase === "before" && call.key === "POST studies/:id/test-study" && dropped++ === 0 ? false : undefined);
    expect(await refusal(provider.createQualificationType(qualification("Flood")))).toMatchObject({ code: "network" });
    expect(studiesNamed(sim, "accord-qual:Flood").map((s) => s.status)).toEqual(["UNPUBLISHED"]);
    const { qualificationTypeId } = await provider.createQualificationType(qualification("Flood"));
    const [draft, copy] = studiesNamed(sim, "accord-qual:Flood");
    expect(studiesNamed(sim, "accord-qual:Flood")).toHaveLength(2);
    expect(copy).toMatchObject({ status: "ACTIVE", test_of: draft!.id });
    expect(Object.values(sim.state.groups).filter((g) => g.name === "Accord qualified: Flood").map((g) => g.id)).toEqual([qualificationTypeId]);
    expect((await provider.screeningTest(qualificationTypeId)).studyId).toBe(copy!.id);
    const intent = await store.get("prolific-screening", "Flood");
    expect(intent).toEqual({ internalName: "accord-qual:Flood", passCode: expect.any(String), failCode: expect.any(String), groupId: qualificationTypeId, testStudyId: copy!.id });
    // The codes drawn with the intent before the crash are the draft's, the copy's and the ones Accord grades with.
    expect(draft!.completion_codes.map((c) => c.code)).toEqual([intent!.passCode, intent!.failCode]);
    expect(copy!.completion_codes.map((c) => c.code)).toEqual([intent!.passCode, intent!.failCode]);
    expect(await store.get("prolific-qualification", qualificationTypeId)).toMatchObject({ passCode: intent!.passCode, failCode: intent!.failCode });
  });

  it("refuses a name another study already has, also on a second try, and creates nothing", async () => {
    const { sim, client } = await start(true);
    await client.createTestParticipant("tester@example.org");
    const provider = await testModeProvider(sim);
    await client.createStudy({ name: "n", internal_name: "accord-qual:Taken", description: "d", external_study_url: "http://127.0.0.1:3000/t", prolific_id_option: "url_parameters", completion_codes: [{ code: "C1", code_type: "COMPLETED", actions: [] }], total_available_places: 1, estimated_completion_time: 5, reward: 100, project: sim.state.project.id });
    for (let i = 0; i < 2; i++) expect(await refusal(provider.createQualificationType(qualification("Taken")))).toMatchObject({ code: "already_exists" });
    expect(studiesNamed(sim, "accord-qual:Taken")).toHaveLength(1);
    expect(Object.values(sim.state.groups).filter((g) => g.name === "Accord qualified: Taken")).toHaveLength(0);
  });

  it("a retry that lost the copy's answer finds the copy by its internal name instead of asking for another", async () => {
    const { sim, client } = await start(true);
    await client.createTestParticipant("tester@example.org");
    const provider = await testModeProvider(sim);
    let lost = 0;
    sim.intercept = (call) => {
      // The copy is made on Prolific, but its answer never reaches Accord (a 500 is not retried for this call).
      if (call.phase === "after" && call.key === "POST studies/:id/test-study" && lost++ === 0) throw new Error("connection lost");
      return undefined;
    };
    expect(await refusal(provider.createQualificationType(qualification("Storm")))).not.toBeNull();
    expect(studiesNamed(sim, "accord-qual:Storm").map((s) => s.status)).toEqual(["UNPUBLISHED", "ACTIVE"]);
    const { qualificationTypeId } = await provider.createQualificationType(qualification("Storm"));
    const [draft, copy] = studiesNamed(sim, "accord-qual:Storm");
    expect(studiesNamed(sim, "accord-qual:Storm")).toHaveLength(2);
    expect(lost).toBe(1);
    expect(copy!.test_of).toBe(draft!.id);
    expect((await provider.screeningTest(qualificationTypeId)).studyId).toBe(copy!.id);
  });
});
