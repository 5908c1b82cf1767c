import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { ANSWER_KEY_NS } from "../../mturk/qualification-xml";
import { ThrottleGate } from "../../throttle-gate";
import { ProlificClient } from "../api-client";
import { learnFeeBasisPoints, ProlificProvider } from "../prolific-provider";
import { MemoryProlificStore } from "../provider-store";
import { startProlificSimulator, type RunningProlificSimulator } from "../simulator/server";
import { testHit } from "../testing/hit-input";
import { hitRef, legacyCode } from "./context";
import { screeningAlreadyTaken } from "./qualification";

// Completion codes only Accord knows: nothing a participant sees (the study URL, the group id, the batch) gives them.

const sims: RunningProlificSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

/** A fresh simulator (its ids are counters: two fresh ones give the same ids to the same calls) and a provider over it. */
async function fresh(store = new MemoryProlificStore()) {
  const sim = await startProlificSimulator({ clock: new ManualClock(), balance: 1_000_000, currency: "GBP" });
  sims.push(sim);
  return { sim, store, provider: await providerOver(sim, store) };
}

/** Accord's provider over this simulator and these records (a new one = Accord after a restart). */
async function providerOver(sim: RunningProlificSimulator, store: MemoryProlificStore) {
  const client = new ProlificClient({ token: sim.token, baseUrl: sim.apiUrl, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
  return new ProlificProvider({
    client,
    mode: "simulator",
    workspaceId: sim.state.workspace.id,
    projectId: sim.state.project.id,
    taskUrl: "http://127.0.0.1:3000/prolific/task",
    screeningUrl: "http://127.0.0.1:3000/prolific/screening",
    store,
    feeBasisPoints: await learnFeeBasisPoints(client),
    screening: { rewardMinor: 100, places: 10, estimatedMinutes: 5 },
  });
}

const ANSWER_KEY =
  `<AnswerKey xmlns="${ANSWER_KEY_NS}"><Question><QuestionIdentifier>gold-1</QuestionIdentifier><AnswerOption><SelectionIdentifier>caution</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>` +
  `<QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping></AnswerKey>`;
const qualification = { name: "Quake", description: "One gold tweet.", testXml: "<x/>", answerKeyXml: ANSWER_KEY, testDurationSeconds: 600 };
const answer = (label: string) => [{ questionId: "gold-1", choice: label }];
const labelled = (label: string) => [{ field: "gold-1", label }];

const codesOf = (sim: RunningProlificSimulator, studyId: string) => sim.state.studies[studyId]!.completion_codes.map((c) => c.code);

describe("completion codes", () => {
  it("a screening's pass and fail codes are random: the same group id gives other codes, never the old derivation, and nothing in the study's URL", async () => {
    const [a, b] = [await fresh(), await fresh()];
    const qa = (await a.provider.createQualificationType(qualification)).qualificationTypeId;
    const qb = (await b.provider.createQualificationType(qualification)).qualificationTypeId;
    expect(qa).toBe(qb); // the same group id, as the screening URL shows it
    const sa = (await a.provider.screeningTest(qa)).studyId;
    const sb = (await b.provider.screeningTest(qb)).studyId;
    const [passA, failA] = codesOf(a.sim, sa);
    const [passB, failB] = codesOf(b.sim, sb);
    expect(new Set([passA, failA, passB, failB]).size).toBe(4);
    for (const c of [passA, passB]) expect(c).not.toBe(legacyCode("pass", qa));
    for (const c of [failA, failB]) expect(c).not.toBe(legacyCode("fail", qa));
    expect(passA).toMatch(/^[2-9A-HJKMNP-Z]{12}$/);
    const url = a.sim.state.studies[sa]!.external_study_url;
    expect(url).toContain(`qualification=${qa}`);
    for (const c of [passA, failA]) expect(url).not.toContain(c);

    // The codes Accord grades with are the study's: a pass adds to the group, the old derivation does nothing.
    const sub = a.sim.service.startSubmission("p-pass", sa);
    const graded = await a.provider.gradeScreening({ qualificationTypeId: qa, participantId: "p-pass", sessionId: sub.id, answers: answer("caution"), passingScore: 100 });
    expect(graded).toMatchObject({ passed: true, completionCode: passA });
    const forger = a.sim.service.startSubmission("p-forger", sa);
    // Prolific takes an unknown code as "no code": no action, the submission waits for the researcher's review.
    expect(a.sim.service.completeSubmission(forger.id, legacyCode("pass", qa)).status).toBe("AWAITING REVIEW");
    a.sim.service.completeSubmission(sub.id, graded.completionCode);
    expect(Object.keys(a.sim.state.groups[qa]!.members)).toEqual(["p-pass"]);
  });

  it("a batch study's code is random per study, stays the same for every HIT and retry of the batch, and is what saveAnswers gives back", async () => {
    const [a, b] = [await fresh(), await fresh()];
    const first = await a.provider.publishHit(testHit({ accordHitId: "hit-1" }));
    const second = await a.provider.publishHit(testHit({ accordHitId: "hit-2" }));
    const again = await a.provider.publishHit(testHit({ accordHitId: "hit-1" })); // a retried publish
    const studyId = hitRef(first.providerHitId).studyId;
    expect(hitRef(second.providerHitId).studyId).toBe(studyId);
    expect(again).toMatchObject({ providerHitId: first.providerHitId, duplicate: true });
    const code = await a.provider.completionCode("batch-1");
    expect(codesOf(a.sim, studyId)).toEqual([code]);
    expect(code).not.toBe(legacyCode("batch", "batch-1"));
    expect(a.sim.state.studies[studyId]!.external_study_url).not.toContain(code);

    // Another Accord publishing a batch of the same key makes another code.
    const other = await b.provider.publishHit(testHit({ accordHitId: "hit-1" }));
    expect(codesOf(b.sim, hitRef(other.providerHitId).studyId)).toEqual([await b.provider.completionCode("batch-1")]);
    expect(await b.provider.completionCode("batch-1")).not.toBe(code);

    // A restarted Accord (a new provider over the same records) reads the same code back.
    const sub = a.sim.service.startSubmission("p-1", studyId);
    expect(await a.provider.hitForSession({ studyId, sessionId: sub.id, participantId: "p-1" })).toBe("hit-1");
    const restarted = await providerOver(a.sim, a.store);
    expect(await restarted.saveAnswers({ submissionId: sub.id, studyId, accordHitId: "hit-1", answers: labelled("caution") })).toEqual({ completionCode: code });
    await expect(a.provider.completionCode("batch-unknown")).rejects.toMatchObject({ code: "not_found" });
  });

  it("a study recorded before codes were random keeps the code it was published with", async () => {
    const { sim, store, provider } = await fresh();
    await store.insert("prolific-study", "batch-old", { internalName: "accord-batch:batch-old" });
    const { providerHitId } = await provider.publishHit(testHit({ accordHitId: "hit-9", batch: { key: "batch-old", position: 1 } }));
    const legacy = legacyCode("batch", "batch-old");
    expect(codesOf(sim, hitRef(providerHitId).studyId)).toEqual([legacy]);
    expect(await provider.completionCode("batch-old")).toBe(legacy);
  });

  it("a screening is graded once per participant and once per session: another attempt is refused with the same words whatever the first result", async () => {
    const { sim, provider } = await fresh();
    const qualificationTypeId = (await provider.createQualificationType(qualification)).qualificationTypeId;
    const studyId = (await provider.screeningTest(qualificationTypeId)).studyId;
    const refusals: string[] = [];
    for (const [participantId, label] of [["p-pass", "caution"], ["p-fail", "other"]] as const) {
      const sessionId = sim.service.startSubmission(participantId, studyId).id;
      const attempt = { qualificationTypeId, participantId, sessionId, passingScore: 100 };
      expect(await provider.screeningTaken(attempt)).toBe(false);
      expect((await provider.gradeScreening({ ...attempt, answers: answer(label) })).passed).toBe(label === "caution");
      expect(await provider.screeningTaken(attempt)).toBe(true);
      // The same session, another session of the participant, the session under another participant's name.
      for (const again of [attempt, { ...attempt, sessionId: "another-session" }, { ...attempt, participantId: "p-other" }]) {
        expect(await provider.screeningTaken(again)).toBe(true);
        refusals.push(await provider.gradeScreening({ ...again, answers: answer("caution") }).then(() => "graded", (err: Error & { code?: string }) => `${err.code}: ${err.message}`));
      }
    }
    expect(new Set(refusals)).toEqual(new Set([`already_exists: ${screeningAlreadyTaken().message}`]));
    expect(refusals).toHaveLength(6);
  });
});
