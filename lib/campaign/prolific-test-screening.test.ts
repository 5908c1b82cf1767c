import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_KEY_NS } from "@/lib/crowd/mturk/qualification-xml";
import { PROLIFIC_SCOPES } from "@/lib/crowd/prolific/provider-store";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { prolificProviderFor, setupProlificCampaign, takeScreening, type ProlificCampaign } from "./prolific-fixture";
import { createQualificationTest } from "./qualification";

// Prolific test mode and the qualification: the screening is a test study taken through Accord's screening page.

const ANSWER_KEY =
  `<AnswerKey xmlns="${ANSWER_KEY_NS}"><Question><QuestionIdentifier>g1</QuestionIdentifier><AnswerOption><SelectionIdentifier>caution</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>` +
  `<QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping></AnswerKey>`;

describe.each(testFlavors())("a Prolific screening in test mode (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("the screening page takes the test participant's session in the test copy; passing records them and adds them to the group", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20, testMode: true });
    const { participant_id: tester } = await f.provider.client.createTestParticipant("tester@example.org");
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    expect(test.status).toBe("active");
    const studies = Object.values(f.prolific.state.studies).filter((s) => s.internal_name?.startsWith("accord-qual:"));
    expect(studies.map((s) => s.status)).toEqual(["UNPUBLISHED", "ACTIVE"]);
    const [draft, copy] = studies;
    expect(copy!.test_of).toBe(draft!.id);
    expect(() => f.prolific.service.startSubmission("6000000000000000000000a1", copy!.id)).toThrow(/not eligible/);

    const taken = await takeScreening(f, tester, 10);
    expect(taken).toMatchObject({ passed: true, studyId: copy!.id });
    expect(Object.keys(f.prolific.state.groups[test.providerQualTypeId as string]!.members)).toEqual([tester]);
    expect(f.prolific.state.submissions[taken.submissionId]!.status).toBe("APPROVED");
    expect(await f.db.worker.findUnique({ where: { provider_externalId: { provider: PROVIDER_KIND.prolific, externalId: tester } }, select: { qualified: true } })).toEqual({ qualified: true });
    expect(f.prolific.state.studies[draft!.id]!.status).toBe("UNPUBLISHED");
  });

  it("after a crash between the draft and the test-study call, a restarted Accord copies that draft once", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20, testMode: true });
    await f.provider.client.createTestParticipant("tester@example.org");
    let dropped = 0;
    f.prolific.intercept = (call) => (call.phase === "before" && call.key === "POST studies/:id/test-study" && dropped++ === 0 ? false : undefined);
    const input = { name: "Accord Quake (t1)", description: "Ten gold tweets.", testXml: "<x/>", answerKeyXml: ANSWER_KEY, testDurationSeconds: 1200 };
    await expect(f.provider.createQualificationType(input)).rejects.toMatchObject({ code: "network" });
    const restarted = await prolificProviderFor(f.db, f.prolific, undefined, true);
    const { qualificationTypeId } = await restarted.createQualificationType(input);
    const studies = Object.values(f.prolific.state.studies).filter((s) => s.internal_name === "accord-qual:Accord Quake (t1)");
    expect(studies.map((s) => [s.status, s.test_of ?? null])).toEqual([
      ["UNPUBLISHED", null],
      ["ACTIVE", studies[0]!.id],
    ]);
    expect(Object.values(f.prolific.state.groups).filter((g) => g.name === "Accord qualified: Accord Quake (t1)")).toHaveLength(1);
    expect((await restarted.screeningTest(qualificationTypeId)).studyId).toBe(studies[1]!.id);
    const intent = await f.db.localCrowdRecord.findUniqueOrThrow({ where: { scope_key: { scope: PROLIFIC_SCOPES.screening, key: input.name } }, select: { data: true } });
    expect(typeof intent.data === "string" ? JSON.parse(intent.data) : intent.data).toEqual({ internalName: "accord-qual:Accord Quake (t1)", passCode: expect.any(String), failCode: expect.any(String), groupId: qualificationTypeId, testStudyId: studies[1]!.id });
  });
});
