import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ApproveAssignmentCommand,
  AssociateQualificationWithWorkerCommand,
  CreateAdditionalAssignmentsForHITCommand,
  CreateHITCommand,
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  CreateQualificationTypeCommand,
  CreateWorkerBlockCommand,
  DeleteHITCommand,
  DeleteWorkerBlockCommand,
  DisassociateQualificationFromWorkerCommand,
  GetAccountBalanceCommand,
  GetAssignmentCommand,
  GetHITCommand,
  GetQualificationScoreCommand,
  GetQualificationTypeCommand,
  ListAssignmentsForHITCommand,
  ListHITsCommand,
  ListReviewableHITsCommand,
  ListWorkerBlocksCommand,
  NotifyWorkersCommand,
  paginateListAssignmentsForHIT,
  paginateListHITs,
  paginateListReviewableHITs,
  paginateListWorkersWithQualificationType,
  RejectAssignmentCommand,
  RequestError,
  SendBonusCommand,
  ServiceFault,
  UpdateExpirationForHITCommand,
  UpdateHITReviewStatusCommand,
  type CreateHITCommandInput,
  type MTurkClient,
} from "@aws-sdk/client-mturk";
import { describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { buildHitQuestionXml, externalSubmitUrl, parseHitAnswers } from "../mturk/hit-question";
import { buildQualificationTest, passingScoreRequirement } from "../mturk/qualification-xml";
import { goldTweets, LABEL_VALUES, nastyItems, startTestSimulator, testWorker, type TestSimulator } from "../test-fixtures";
import { sdkError, simulatorsPerTest } from "./sim-test-helpers";
import { SYSTEM_QUALIFICATIONS } from "./requirements";
import { addTextKeys } from "./truth";
import { createWorkerPool } from "./workers";

const sim = simulatorsPerTest();

const SIMPLE_QUESTION = buildHitQuestionXml({
  items: nastyItems(2),
  labels: HUMAID_LABELS,
  submitUrl: "https://workersandbox.mturk.com/mturk/externalSubmit",
});

function hitInput(extra: Partial<CreateHITCommandInput> = {}): CreateHITCommandInput {
  return {
    LifetimeInSeconds: 3600,
    AssignmentDurationInSeconds: 600,
    Reward: "0.50",
    Title: "Categorise tweets",
    Description: "Pick one category per tweet",
    MaxAssignments: 3,
    AutoApprovalDelayInSeconds: 86400,
    Question: SIMPLE_QUESTION,
    ...extra,
  };
}

const worker = testWorker;

async function createHit(client: MTurkClient, extra: Partial<CreateHITCommandInput> = {}): Promise<string> {
  const out = await client.send(new CreateHITCommand(hitInput(extra)));
  return out.HIT?.HITId as string;
}

/** Accept + submit through the simulator's worker API. */
function work(t: TestSimulator, workerId: string, hitId: string, fields: Record<string, string> = { f: "v" }): string {
  const id = t.sim.service.acceptHit({ workerId, hitId });
  t.sim.service.submitAssignment({ assignmentId: id, fields });
  return id;
}

describe("simulator over the real MTurkClient: HITs", () => {
  it("creates and reads a HIT with the documented shapes (epoch-second timestamps parsed as Dates)", async () => {
    const t = await sim();
    const out = await t.client.send(
      new CreateHITCommand(
        hitInput({
          Keywords: "tweets, disaster",
          RequesterAnnotation: "accord:h1",
          QualificationRequirements: [{ QualificationTypeId: SYSTEM_QUALIFICATIONS.numberHitsApproved, Comparator: "GreaterThan", IntegerValues: [100], ActionsGuarded: "Accept" }],
        }),
      ),
    );
    const hit = out.HIT!;
    expect(hit.HITId).toMatch(/^[A-Z0-9]{30}$/);
    expect(hit.HITTypeId).toMatch(/^[A-Z0-9]{30}$/);
    expect(hit.HITStatus).toBe("Assignable");
    expect(hit.CreationTime).toBeInstanceOf(Date);
    expect(hit.CreationTime!.getTime()).toBe(t.clock.now());
    expect(hit.Expiration!.getTime()).toBe(t.clock.now() + 3600_000);
    expect(hit).toMatchObject({
      Reward: "0.50",
      MaxAssignments: 3,
      NumberOfAssignmentsAvailable: 3,
      NumberOfAssignmentsPending: 0,
      NumberOfAssignmentsCompleted: 0,
      HITReviewStatus: "NotReviewed",
      RequesterAnnotation: "accord:h1",
      Keywords: "tweets, disaster",
      AutoApprovalDelayInSeconds: 86400,
    });
    const got = await t.client.send(new GetHITCommand({ HITId: hit.HITId }));
    expect(got.HIT?.Question).toBe(SIMPLE_QUESTION);
    expect(got.HIT?.QualificationRequirements).toEqual([
      { QualificationTypeId: SYSTEM_QUALIFICATIONS.numberHitsApproved, Comparator: "GreaterThan", IntegerValues: [100], ActionsGuarded: "Accept" },
    ]);
  });

  it("answers the real error types: HITDoesNotExist, ValidationException, ParameterValidationError, bad Question", async () => {
    const t = await sim();
    const missing = await sdkError(t.client.send(new GetHITCommand({ HITId: "3AAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })));
    expect(missing).toBeInstanceOf(RequestError);
    expect(missing.TurkErrorCode).toBe("AWS.MechanicalTurk.HITDoesNotExist");
    expect(missing.message).toMatch(/^Hit 3A+ does not exist\. \(\d{13}\)$/);
    expect(missing.$metadata.httpStatusCode).toBe(400);

    const noId = await sdkError(t.client.send(new GetHITCommand({} as never)));
    expect(noId.name).toBe("ValidationException");
    expect(noId).not.toBeInstanceOf(RequestError);
    expect(noId.message).toBe("1 validation error detected: Value null at 'hITId' failed to satisfy constraint: Member must not be null");

    const badId = await sdkError(t.client.send(new GetHITCommand({ HITId: "not-an-id" })));
    expect(badId.name).toBe("ParameterValidationError");
    expect(badId.message).toMatch(/The value "not-an-id" is not valid for the parameter HITId/);

    const badReward = await sdkError(createHit(t.client, { Reward: "$1" }));
    expect(badReward.name).toBe("ValidationException");
    const shortLife = await sdkError(createHit(t.client, { LifetimeInSeconds: 10 }));
    expect(shortLife.message).toMatch(/lifetimeInSeconds' failed to satisfy constraint: Member must have value greater than or equal to 30/);
    const badXml = await sdkError(createHit(t.client, { Question: "<HTMLQuestion><oops></HTMLQuestion>" }));
    expect(badXml.name).toBe("ParameterValidationError");
    const noQuestion = await sdkError(createHit(t.client, { Question: undefined }));
    expect(noQuestion).toBeInstanceOf(RequestError);
    const tooBig = await sdkError(createHit(t.client, { Question: `<HTMLQuestion>${"x".repeat(70_000)}</HTMLQuestion>` }));
    expect(tooBig.message).toMatch(/maximum is 65535/);
  });

  it("is idempotent on UniqueRequestToken for 24 hours (HitAlreadyExists names the HIT)", async () => {
    const t = await sim();
    const first = await createHit(t.client, { UniqueRequestToken: "accord-hit:h1" });
    const dup = await sdkError(createHit(t.client, { UniqueRequestToken: "accord-hit:h1" }));
    expect(dup).toBeInstanceOf(RequestError);
    expect(dup.TurkErrorCode).toBe("AWS.MechanicalTurk.HitAlreadyExists");
    expect(dup.message).toContain(first);
    expect(t.sim.state.hitOrder).toHaveLength(1);
    t.clock.advance(24 * 3600 + 1);
    const later = await createHit(t.client, { UniqueRequestToken: "accord-hit:h1" });
    expect(later).not.toBe(first);
  });

  it("runs the assignment lifecycle with MTurk's state rules and money", async () => {
    const t = await sim({ workers: [worker("AWORKERONE0001"), worker("AWORKERTWO0002"), worker("AWORKERTHREE03")], balanceCents: 10_000 });
    const hitId = await createHit(t.client);
    const a1 = t.sim.service.acceptHit({ workerId: "AWORKERONE0001", hitId });
    let hit = (await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect([hit.NumberOfAssignmentsPending, hit.NumberOfAssignmentsAvailable]).toEqual([1, 2]);
    // accepted, not submitted: never listed
    expect((await t.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 10 }))).NumResults).toBe(0);
    t.clock.advance(120);
    t.sim.service.submitAssignment({ assignmentId: a1, fields: { q: "x & <y>", assignmentId: a1 } });
    const a2 = work(t, "AWORKERTWO0002", hitId);
    const a3 = work(t, "AWORKERTHREE03", hitId);
    hit = (await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect(hit.HITStatus).toBe("Reviewable");

    const got = await t.client.send(new GetAssignmentCommand({ AssignmentId: a1 }));
    expect(got.Assignment).toMatchObject({ AssignmentId: a1, WorkerId: "AWORKERONE0001", HITId: hitId, AssignmentStatus: "Submitted" });
    expect(got.Assignment!.SubmitTime!.getTime() - got.Assignment!.AcceptTime!.getTime()).toBe(120_000);
    expect(got.Assignment!.Deadline!.getTime()).toBe(got.Assignment!.AcceptTime!.getTime() + 600_000);
    expect(got.Assignment!.AutoApprovalTime!.getTime()).toBe(got.Assignment!.SubmitTime!.getTime() + 86_400_000);
    expect(got.Assignment!.Answer).toContain("<QuestionIdentifier>q</QuestionIdentifier><FreeText>x &amp; &lt;y&gt;</FreeText>");
    expect(got.Assignment!.Answer).not.toContain("assignmentId");
    expect(got.HIT?.HITId).toBe(hitId);

    // DeleteHIT refuses while an assignment is undecided
    const early = await sdkError(t.client.send(new DeleteHITCommand({ HITId: hitId })));
    expect(early.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidHITState");

    await t.client.send(new ApproveAssignmentCommand({ AssignmentId: a1, RequesterFeedback: "Thanks" }));
    expect(t.sim.state.balanceCents).toBe(10_000 - 60); // $0.50 + 20% fee
    const again = await sdkError(t.client.send(new ApproveAssignmentCommand({ AssignmentId: a1 })));
    expect(again.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidAssignmentState");
    expect(again.message).toMatch(/^This operation can be called with a status of: Submitted \(\d+\)$/);

    const noFeedback = await sdkError(t.client.send(new RejectAssignmentCommand({ AssignmentId: a2 } as never)));
    expect(noFeedback.name).toBe("ValidationException");
    expect(noFeedback.message).toContain("'requesterFeedback'");
    await t.client.send(new RejectAssignmentCommand({ AssignmentId: a2, RequesterFeedback: "Fewer than 7 of 10 gold tweets correct" }));
    const rejectAgain = await sdkError(t.client.send(new RejectAssignmentCommand({ AssignmentId: a2, RequesterFeedback: "x" })));
    expect(rejectAgain.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidAssignmentState");
    const noOverride = await sdkError(t.client.send(new ApproveAssignmentCommand({ AssignmentId: a2 })));
    expect(noOverride.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidAssignmentState");
    await t.client.send(new ApproveAssignmentCommand({ AssignmentId: a2, OverrideRejection: true }));
    expect(t.sim.state.balanceCents).toBe(10_000 - 120);

    // auto-approval at AutoApprovalTime debits too
    t.clock.advance(86_400);
    const a3After = await t.client.send(new GetAssignmentCommand({ AssignmentId: a3 }));
    expect(a3After.Assignment?.AssignmentStatus).toBe("Approved");
    expect(t.sim.state.balanceCents).toBe(10_000 - 180);
    hit = (await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect(hit.NumberOfAssignmentsCompleted).toBe(3);

    await t.client.send(new DeleteHITCommand({ HITId: hitId }));
    expect((await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT?.HITStatus).toBe("Disposed");
    expect((await t.client.send(new ListHITsCommand({ MaxResults: 100 }))).NumResults).toBe(0);
    const overrideDisposed = await sdkError(t.client.send(new ApproveAssignmentCommand({ AssignmentId: a1, OverrideRejection: true })));
    expect(overrideDisposed.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidAssignmentState");
    const deleted = await sdkError(t.client.send(new DeleteHITCommand({ HITId: hitId })));
    expect(deleted.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidHITState");
  });

  it("fails approval and bonuses with InsufficientFunds; the sandbox flavour always has 10000.00", async () => {
    const t = await sim({ workers: [worker("AWORKERONE0001")], balanceCents: 59 });
    const hitId = await createHit(t.client);
    const a = work(t, "AWORKERONE0001", hitId);
    const poor = await sdkError(t.client.send(new ApproveAssignmentCommand({ AssignmentId: a })));
    expect(poor.TurkErrorCode).toBe("AWS.MechanicalTurk.InsufficientFunds");
    expect((await t.client.send(new GetAccountBalanceCommand({})))).toMatchObject({ AvailableBalance: "0.59", OnHoldBalance: "0.00" });
    const bonus = await sdkError(t.client.send(new SendBonusCommand({ WorkerId: "AWORKERONE0001", AssignmentId: a, BonusAmount: "0.50", Reason: "thanks" })));
    expect(bonus.TurkErrorCode).toBe("AWS.MechanicalTurk.InsufficientFunds");
    await t.client.send(new SendBonusCommand({ WorkerId: "AWORKERONE0001", AssignmentId: a, BonusAmount: "0.40", Reason: "thanks", UniqueRequestToken: "b1" }));
    expect(t.sim.state.balanceCents).toBe(59 - 48);
    const dupBonus = await sdkError(t.client.send(new SendBonusCommand({ WorkerId: "AWORKERONE0001", AssignmentId: a, BonusAmount: "0.01", Reason: "x", UniqueRequestToken: "b1" })));
    expect(dupBonus.message).toMatch(/idempotency token "b1" has already been processed/);
    expect(t.sim.state.bonuses).toHaveLength(1);
    const wrongWorker = await sdkError(t.client.send(new SendBonusCommand({ WorkerId: "AOTHERWORKER01", AssignmentId: a, BonusAmount: "0.01", Reason: "x" })));
    expect(wrongWorker).toBeInstanceOf(RequestError);

    const sandbox = await sim({ sandbox: true, balanceCents: 0 });
    expect(await sandbox.client.send(new GetAccountBalanceCommand({}))).toMatchObject({ AvailableBalance: "10000.00", OnHoldBalance: "0.00" });
  });

  it("expires, extends, adds assignments (not across 10) and abandons at the deadline", async () => {
    const t = await sim({ workers: [worker("AWORKERONE0001"), worker("AWORKERTWO0002")] });
    const hitId = await createHit(t.client, { MaxAssignments: 1 });
    t.sim.service.acceptHit({ workerId: "AWORKERONE0001", hitId });
    expect((await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT?.HITStatus).toBe("Unassignable");
    t.clock.advance(601); // deadline passes: abandoned, the slot is free again
    let hit = (await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect([hit.HITStatus, hit.NumberOfAssignmentsPending, hit.NumberOfAssignmentsAvailable]).toEqual(["Assignable", 0, 1]);

    await t.client.send(new UpdateExpirationForHITCommand({ HITId: hitId, ExpireAt: new Date(0) }));
    hit = (await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect(hit.HITStatus).toBe("Reviewable");
    expect(hit.Expiration!.getTime()).toBe(t.clock.now());
    const reviewable = await t.client.send(new ListReviewableHITsCommand({ MaxResults: 10 }));
    expect(reviewable.HITs?.map((h) => h.HITId)).toEqual([hitId]);

    await t.client.send(new UpdateExpirationForHITCommand({ HITId: hitId, ExpireAt: new Date(t.clock.now() + 7200_000) }));
    expect((await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT?.HITStatus).toBe("Assignable");
    const tooFar = await sdkError(t.client.send(new UpdateExpirationForHITCommand({ HITId: hitId, ExpireAt: new Date(t.clock.now() + 400 * 86_400_000) })));
    expect(tooFar.TurkErrorCode).toBe("AWS.MechanicalTurk.HITTooOldForExtension");

    await t.client.send(new CreateAdditionalAssignmentsForHITCommand({ HITId: hitId, NumberOfAdditionalAssignments: 4, UniqueRequestToken: "x1" }));
    expect((await t.client.send(new GetHITCommand({ HITId: hitId }))).HIT?.MaxAssignments).toBe(5);
    const dup = await sdkError(t.client.send(new CreateAdditionalAssignmentsForHITCommand({ HITId: hitId, NumberOfAdditionalAssignments: 1, UniqueRequestToken: "x1" })));
    expect(dup.message).toMatch(/has already been processed/);
    const across = await sdkError(t.client.send(new CreateAdditionalAssignmentsForHITCommand({ HITId: hitId, NumberOfAdditionalAssignments: 5 })));
    expect(across.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidMaximumAssignmentsIncrease");
    const big = await createHit(t.client, { MaxAssignments: 10 });
    await t.client.send(new CreateAdditionalAssignmentsForHITCommand({ HITId: big, NumberOfAdditionalAssignments: 5 }));
  });

  it("reuses identical HIT types and creates HITs from a type", async () => {
    const t = await sim();
    const typeInput = { AssignmentDurationInSeconds: 600, Reward: "0.25", Title: "T", Description: "D" };
    const a = await t.client.send(new CreateHITTypeCommand(typeInput));
    const b = await t.client.send(new CreateHITTypeCommand(typeInput));
    const c = await t.client.send(new CreateHITTypeCommand({ ...typeInput, Reward: "0.30" }));
    expect(a.HITTypeId).toBe(b.HITTypeId);
    expect(c.HITTypeId).not.toBe(a.HITTypeId);
    const out = await t.client.send(new CreateHITWithHITTypeCommand({ HITTypeId: a.HITTypeId, LifetimeInSeconds: 600, MaxAssignments: 2, Question: SIMPLE_QUESTION, UniqueRequestToken: "t1" }));
    expect(out.HIT).toMatchObject({ HITTypeId: a.HITTypeId, Reward: "0.25", MaxAssignments: 2, AssignmentDurationInSeconds: 600 });
    const unknownType = await sdkError(t.client.send(new CreateHITWithHITTypeCommand({ HITTypeId: "3ZZZ", LifetimeInSeconds: 600, Question: SIMPLE_QUESTION })));
    expect(unknownType.TurkErrorCode).toBe("AWS.MechanicalTurk.HITTypeDoesNotExist");
    await t.client.send(new UpdateExpirationForHITCommand({ HITId: out.HIT!.HITId, ExpireAt: new Date(0) }));
    await t.client.send(new UpdateHITReviewStatusCommand({ HITId: out.HIT!.HITId, Revert: false }));
    expect((await t.client.send(new GetHITCommand({ HITId: out.HIT!.HITId }))).HIT?.HITStatus).toBe("Reviewing");
    const reviewing = await t.client.send(new ListReviewableHITsCommand({ Status: "Reviewing", MaxResults: 10 }));
    expect(reviewing.HITs?.map((h) => h.HITId)).toEqual([out.HIT!.HITId]);
    const notReviewing = await sdkError(t.client.send(new UpdateHITReviewStatusCommand({ HITId: out.HIT!.HITId, Revert: false })));
    expect(notReviewing.TurkErrorCode).toBe("AWS.MechanicalTurk.InvalidHITState");
    await t.client.send(new UpdateHITReviewStatusCommand({ HITId: out.HIT!.HITId, Revert: true }));
    const pages = [];
    for await (const page of paginateListReviewableHITs({ client: t.client, pageSize: 5 }, { HITTypeId: a.HITTypeId })) pages.push(page);
    expect(pages.flatMap((p) => p.HITs ?? []).map((h) => h.HITId)).toEqual([out.HIT!.HITId]);
  });
});

describe("simulator over the real MTurkClient: pagination", () => {
  it("pages with the SDK paginators and omits NextToken on the last page", async () => {
    const t = await sim({ workers: Array.from({ length: 12 }, (_, i) => worker(`AWORKER${String(i).padStart(7, "0")}`)) });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await createHit(t.client, { MaxAssignments: 12 }));
    const first = await t.client.send(new ListHITsCommand({ MaxResults: 10 }));
    expect(first.NumResults).toBe(10);
    expect(first.NextToken).toBeDefined();
    const last = await t.client.send(new ListHITsCommand({ MaxResults: 10, NextToken: (await t.client.send(new ListHITsCommand({ MaxResults: 10, NextToken: first.NextToken }))).NextToken }));
    expect(last.NumResults).toBe(5);
    expect(last.NextToken).toBeUndefined();
    const seen: string[] = [];
    let pages = 0;
    for await (const page of paginateListHITs({ client: t.client, pageSize: 10 }, {})) {
      pages++;
      seen.push(...(page.HITs ?? []).map((h) => h.HITId as string));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);

    const hitId = ids[0];
    const assignmentIds = t.sim.state.workers.map((w) => work(t, w.workerId, hitId));
    for (const id of assignmentIds.slice(0, 4)) await t.client.send(new ApproveAssignmentCommand({ AssignmentId: id }));
    for (const id of assignmentIds.slice(4, 7)) await t.client.send(new RejectAssignmentCommand({ AssignmentId: id, RequesterFeedback: "no" }));
    const all: string[] = [];
    for await (const page of paginateListAssignmentsForHIT({ client: t.client, pageSize: 5 }, { HITId: hitId })) all.push(...(page.Assignments ?? []).map((a) => a.AssignmentId as string));
    expect(all).toEqual(assignmentIds);
    const submitted: string[] = [];
    for await (const page of paginateListAssignmentsForHIT({ client: t.client, pageSize: 2 }, { HITId: hitId, AssignmentStatuses: ["Submitted"] })) {
      submitted.push(...(page.Assignments ?? []).map((a) => a.AssignmentStatus as string));
    }
    expect(submitted).toEqual(Array(5).fill("Submitted"));
    const decided = await t.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 100, AssignmentStatuses: ["Approved", "Rejected"] }));
    expect(decided.NumResults).toBe(7);
    expect(decided.NextToken).toBeUndefined();

    expect((await sdkError(t.client.send(new ListHITsCommand({ MaxResults: 101 })))).name).toBe("ValidationException");
    expect((await sdkError(t.client.send(new ListHITsCommand({ MaxResults: 0 })))).name).toBe("ValidationException");
    expect((await sdkError(t.client.send(new ListHITsCommand({ MaxResults: 5, NextToken: "garbage" })))).name).toBe("ParameterValidationError");
    // a token from another listing is not accepted either
    const otherToken = (await t.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 1 }))).NextToken;
    expect((await sdkError(t.client.send(new ListHITsCommand({ MaxResults: 5, NextToken: otherToken })))).name).toBe("ParameterValidationError");
  });
});

describe("simulator over the real MTurkClient: qualifications, blocks, notifications", () => {
  it("creates qualification types with a test, grants, scores, lists and revokes", async () => {
    const t = await sim({ workers: [worker("AWORKERONE0001"), worker("AWORKERTWO0002")], rejectUnknownWorkers: true });
    const { questionFormXml, answerKeyXml } = buildQualificationTest({ gold: goldTweets(10), labels: HUMAID_LABELS });
    const created = await t.client.send(
      new CreateQualificationTypeCommand({ Name: "HumAID test", Description: "d", QualificationTypeStatus: "Active", Test: questionFormXml, AnswerKey: answerKeyXml, TestDurationInSeconds: 600, RetryDelayInSeconds: 86400 }),
    );
    const q = created.QualificationType!;
    expect(q).toMatchObject({ Name: "HumAID test", QualificationTypeStatus: "Active", IsRequestable: true, AutoGranted: false, TestDurationInSeconds: 600, RetryDelayInSeconds: 86400 });
    expect(q.CreationTime).toBeInstanceOf(Date);
    const typeId = q.QualificationTypeId!;
    expect((await t.client.send(new GetQualificationTypeCommand({ QualificationTypeId: typeId }))).QualificationType?.AnswerKey).toBe(answerKeyXml);

    const dup = await sdkError(t.client.send(new CreateQualificationTypeCommand({ Name: "HumAID test", Description: "d", QualificationTypeStatus: "Active" })));
    expect(dup.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationTypeAlreadyExists");
    const autoWithTest = await sdkError(t.client.send(new CreateQualificationTypeCommand({ Name: "x", Description: "d", QualificationTypeStatus: "Active", Test: questionFormXml, TestDurationInSeconds: 60, AutoGranted: true })));
    expect(autoWithTest).toBeInstanceOf(RequestError);
    const unknown = await sdkError(t.client.send(new GetQualificationTypeCommand({ QualificationTypeId: "3NOPE" })));
    expect(unknown.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationTypeDoesNotExist");
    expect((await t.client.send(new GetQualificationTypeCommand({ QualificationTypeId: SYSTEM_QUALIFICATIONS.locale }))).QualificationType?.Name).toBe("Worker_Locale");

    const none = await sdkError(t.client.send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: "AWORKERONE0001" })));
    expect(none.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationDoesNotExist");
    await t.client.send(new AssociateQualificationWithWorkerCommand({ QualificationTypeId: typeId, WorkerId: "AWORKERONE0001", IntegerValue: 80, SendNotification: false }));
    await t.client.send(new AssociateQualificationWithWorkerCommand({ QualificationTypeId: typeId, WorkerId: "AWORKERTWO0002", IntegerValue: 20 }));
    const score = await t.client.send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: "AWORKERONE0001" }));
    expect(score.Qualification).toMatchObject({ QualificationTypeId: typeId, WorkerId: "AWORKERONE0001", IntegerValue: 80, Status: "Granted" });
    expect(score.Qualification?.GrantTime).toBeInstanceOf(Date);

    const badWorker = await sdkError(t.client.send(new AssociateQualificationWithWorkerCommand({ QualificationTypeId: typeId, WorkerId: "worker-1" })));
    expect(badWorker.name).toBe("ParameterValidationError");
    const unknownWorker = await sdkError(t.client.send(new AssociateQualificationWithWorkerCommand({ QualificationTypeId: typeId, WorkerId: "AUNKNOWN000000" })));
    expect(unknownWorker.message).toMatch(/not valid for the parameter WorkerId/);
    const systemQual = await sdkError(t.client.send(new AssociateQualificationWithWorkerCommand({ QualificationTypeId: SYSTEM_QUALIFICATIONS.adult, WorkerId: "AWORKERONE0001" })));
    expect(systemQual.TurkErrorCode).toBe("AWS.MechanicalTurk.PermissionDenied");

    await t.client.send(new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: typeId, WorkerId: "AWORKERTWO0002", Reason: "retest" }));
    const again = await sdkError(t.client.send(new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: typeId, WorkerId: "AWORKERTWO0002" })));
    expect(again.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationDoesNotExist");
    const granted = [];
    for await (const page of paginateListWorkersWithQualificationType({ client: t.client, pageSize: 1 }, { QualificationTypeId: typeId })) granted.push(...(page.Qualifications ?? []));
    expect(granted.map((g) => g.WorkerId)).toEqual(["AWORKERONE0001"]);
    const revoked = [];
    for await (const page of paginateListWorkersWithQualificationType({ client: t.client, pageSize: 10 }, { QualificationTypeId: typeId, Status: "Revoked" })) revoked.push(...(page.Qualifications ?? []));
    expect(revoked.map((g) => g.WorkerId)).toEqual(["AWORKERTWO0002"]);
  });

  it("grades the qualification test through the simulator: 6/10 passes a ≥ 60 HIT, 5/10 does not", async () => {
    const t = await sim({ workers: [worker("APASSINGWORKR1"), worker("AFAILINGWORKR2")] });
    const gold = goldTweets(10);
    const built = buildQualificationTest({ gold, labels: HUMAID_LABELS });
    const typeId = (await t.client.send(
      new CreateQualificationTypeCommand({ Name: "q", Description: "d", QualificationTypeStatus: "Active", Test: built.questionFormXml, AnswerKey: built.answerKeyXml, TestDurationInSeconds: 600 }),
    )).QualificationType!.QualificationTypeId!;
    const answers = (correct: number) =>
      Object.fromEntries(built.questionIds.map((qid, i) => [qid, i < correct ? gold[i].label : LABEL_VALUES.find((l) => l !== gold[i].label)!]));
    expect(t.sim.service.takeQualificationTest({ workerId: "APASSINGWORKR1", qualificationTypeId: typeId, answers: answers(6) }).score).toBe(60);
    expect(t.sim.service.takeQualificationTest({ workerId: "AFAILINGWORKR2", qualificationTypeId: typeId, answers: answers(5) }).score).toBe(50);
    expect(() => t.sim.service.takeQualificationTest({ workerId: "AFAILINGWORKR2", qualificationTypeId: typeId, answers: answers(10) })).toThrow(/cannot be retaken/);

    const req = passingScoreRequirement({ qualificationTypeId: typeId });
    const hitId = await createHit(t.client, {
      QualificationRequirements: [{ QualificationTypeId: req.qualificationTypeId, Comparator: req.comparator, IntegerValues: req.integerValues, ActionsGuarded: req.actionsGuarded }],
    });
    expect((await t.client.send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: "APASSINGWORKR1" }))).Qualification?.IntegerValue).toBe(60);
    expect((await t.client.send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: "AFAILINGWORKR2" }))).Qualification?.IntegerValue).toBe(50);
    expect(t.sim.service.acceptBlocker("APASSINGWORKR1", hitId)).toBeNull();
    expect(t.sim.service.acceptBlocker("AFAILINGWORKR2", hitId)).toMatch(/GreaterThanOrEqualTo is not met/);
    expect(() => t.sim.service.acceptHit({ workerId: "AFAILINGWORKR2", hitId })).toThrow(/cannot accept/);
    expect(t.sim.service.acceptHit({ workerId: "APASSINGWORKR1", hitId })).toMatch(/^[A-Z0-9]{30}$/);
  });

  it("blocks and unblocks workers and notifies only workers with decided work", async () => {
    const t = await sim({ workers: [worker("AWORKERONE0001"), worker("AWORKERTWO0002")] });
    const hitId = await createHit(t.client);
    await t.client.send(new CreateWorkerBlockCommand({ WorkerId: "AWORKERONE0001", Reason: "spam" }));
    expect(t.sim.service.acceptBlocker("AWORKERONE0001", hitId)).toMatch(/blocked/);
    const blocks = await t.client.send(new ListWorkerBlocksCommand({ MaxResults: 10 }));
    expect(blocks.WorkerBlocks).toEqual([{ WorkerId: "AWORKERONE0001", Reason: "spam" }]);
    expect((await sdkError(t.client.send(new CreateWorkerBlockCommand({ WorkerId: "AWORKERONE0001" } as never)))).name).toBe("ValidationException");
    await t.client.send(new DeleteWorkerBlockCommand({ WorkerId: "AWORKERONE0001", Reason: "ok" }));
    await t.client.send(new DeleteWorkerBlockCommand({ WorkerId: "AWORKERTWO0002" })); // not blocked: still succeeds
    const a = work(t, "AWORKERONE0001", hitId);
    await t.client.send(new ApproveAssignmentCommand({ AssignmentId: a }));
    const out = await t.client.send(new NotifyWorkersCommand({ Subject: "New HITs", MessageText: "More tweets are up.", WorkerIds: ["AWORKERONE0001", "AWORKERTWO0002"] }));
    expect(out.NotifyWorkersFailureStatuses).toEqual([
      { NotifyWorkersFailureCode: "HardFailure", NotifyWorkersFailureMessage: expect.stringContaining("AWORKERTWO0002"), WorkerId: "AWORKERTWO0002" },
    ]);
    expect(t.sim.state.notifications).toEqual([expect.objectContaining({ subject: "New HITs", workerIds: ["AWORKERONE0001"] })]);
    const tooMany = await sdkError(t.client.send(new NotifyWorkersCommand({ Subject: "s", MessageText: "m", WorkerIds: Array(101).fill("AWORKERONE0001") })));
    expect(tooMany.name).toBe("ValidationException");
  });
});

describe("simulator faults and transport", () => {
  it("the SDK retries ServiceFault and ThrottlingException until it succeeds; without retries they surface", async () => {
    const t = await sim({ faults: { serviceFaultRate: 0.3, faultAfterApplyFraction: 0, throttleFraction: 0.15 } });
    for (let i = 0; i < 12; i++) await t.client.send(new GetAccountBalanceCommand({}));
    expect(t.sim.stats.serviceFaults).toBeGreaterThan(0);
    expect(t.sim.stats.throttled).toBeGreaterThan(0);
    expect(t.sim.stats.requests).toBe(12 + t.sim.stats.serviceFaults + t.sim.stats.throttled);

    const once = await sim({ faults: { serviceFaultRate: 1 } }, 1);
    const fault = await sdkError(once.client.send(new GetAccountBalanceCommand({})));
    expect(fault).toBeInstanceOf(ServiceFault);
    expect(fault.$metadata.httpStatusCode).toBe(500);
    once.sim.setFaults({ throttleFraction: 1 });
    const throttled = await sdkError(once.client.send(new GetAccountBalanceCommand({})));
    expect(throttled.name).toBe("ThrottlingException");
    expect(throttled.message).toBe("Rate exceeded");
    once.sim.setFaults({ throttleRate: 2, throttleBurst: 2 });
    await once.client.send(new GetAccountBalanceCommand({}));
    await once.client.send(new GetAccountBalanceCommand({}));
    expect((await sdkError(once.client.send(new GetAccountBalanceCommand({})))).name).toBe("ThrottlingException");
  });

  it("answers unknown operations and targets, serves externalSubmit form posts and persists its state", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "accord-sim-"));
    try {
      const file = path.join(dir, "state.json");
      const t = await startTestSimulator({ workers: [worker("AWORKERONE0001")], persistFile: file });
      const unknown = await fetch(t.sim.url, { method: "POST", headers: { "x-amz-target": "MTurkRequesterServiceV20170117.FlyToMoon", "content-type": "application/x-amz-json-1.1" }, body: "{}" });
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ __type: "UnknownOperationException" });
      const proto = await fetch(t.sim.url, { method: "POST", headers: { "x-amz-target": "MTurkRequesterServiceV20170117.toString" }, body: "{}" });
      expect(proto.status).toBe(400);
      const other = await fetch(t.sim.url, { method: "POST", headers: { "x-amz-target": "DynamoDB_20120810.GetItem" }, body: "{}" });
      expect((await other.json()) as object).toMatchObject({ __type: "UnknownOperationException" });
      expect(other.headers.get("content-type")).toBe("application/x-amz-json-1.1");

      const hitId = await createHit(t.client);
      const assignmentId = t.sim.service.acceptHit({ workerId: "AWORKERONE0001", hitId });
      const body = new URLSearchParams({ assignmentId, "item-1-item01x": "caution_and_advice", "item-2-item02x": "not_humanitarian" });
      const posted = await fetch(`${t.sim.url}/mturk/externalSubmit`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(posted.status).toBe(200);
      const listed = await t.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 10 }));
      const parsed = parseHitAnswers({ answerXml: listed.Assignments![0].Answer!, items: nastyItems(2), labels: HUMAID_LABELS });
      expect(parsed.answers.map((a) => a.label)).toEqual(["caution_and_advice", "not_humanitarian"]);
      const twice = await fetch(`${t.sim.url}/mturk/externalSubmit`, { method: "POST", body });
      expect(twice.status).toBe(400);
      t.client.destroy();
      await t.sim.stop();

      const restarted = await startTestSimulator({ persistFile: file });
      const hit = await restarted.client.send(new GetHITCommand({ HITId: hitId }));
      expect(hit.HIT?.NumberOfAssignmentsAvailable).toBe(2);
      expect(restarted.sim.state.workers.map((w) => w.workerId)).toEqual(["AWORKERONE0001"]);
      const next = await createHit(restarted.client);
      expect(next).not.toBe(hitId);
      // pending timed events survive the restart: the submitted assignment auto-approves on time
      restarted.clock.advance(86_400);
      const after = await restarted.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 10 }));
      expect(after.Assignments?.map((a) => a.AssignmentStatus)).toEqual(["Approved"]);
      restarted.client.destroy();
      await restarted.sim.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("simulated workers", () => {
  it("answer a HIT of 30 nasty tweets through its form fields; answers parse back to the right tweets", async () => {
    const items = nastyItems(30);
    const truth = new Map(items.map((it, i) => [it.tweetId, LABEL_VALUES[(i * 7) % LABEL_VALUES.length]]));
    // The HIT shows no tweet id: the workers know each tweet by its text.
    const t = await sim({
      workers: [worker("APERFECTWORKR1", { accuracy: 1, passive: false }), worker("ASPAMMERWORKR2", { profile: "spammer-constant", constantIndex: 5, passive: false })],
      truth: addTextKeys(new Map(truth), items.map((it) => ({ externalId: it.tweetId, text: it.text }))),
    });
    const question = buildHitQuestionXml({ items, labels: HUMAID_LABELS, submitUrl: externalSubmitUrl("simulator", t.sim.url) });
    const hitId = await createHit(t.client, { Question: question, MaxAssignments: 2, AssignmentDurationInSeconds: 3600 });
    t.clock.advance(2 * 3600);
    const listed = await t.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 10 }));
    const byWorker = new Map(listed.Assignments!.map((a) => [a.WorkerId, a]));
    expect([...byWorker.keys()].sort()).toEqual(["APERFECTWORKR1", "ASPAMMERWORKR2"]);
    const perfect = parseHitAnswers({ answerXml: byWorker.get("APERFECTWORKR1")!.Answer!, items, labels: HUMAID_LABELS });
    expect(perfect.missing).toEqual([]);
    expect(perfect.invalid).toEqual([]);
    expect(perfect.unknownFields).toEqual([]);
    expect(perfect.answers).toHaveLength(30);
    for (const a of perfect.answers) {
      expect(a.tweetId).toBe(items[a.position - 1].tweetId);
      expect(a.itemId).toBe(items[a.position - 1].itemId);
      expect(a.label).toBe(truth.get(a.tweetId));
    }
    const spam = parseHitAnswers({ answerXml: byWorker.get("ASPAMMERWORKR2")!.Answer!, items, labels: HUMAID_LABELS });
    expect(new Set(spam.answers.map((a) => a.label))).toEqual(new Set([LABEL_VALUES[5]]));
    const submitted = byWorker.get("APERFECTWORKR1")!;
    const seconds = (submitted.SubmitTime!.getTime() - submitted.AcceptTime!.getTime()) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(30 * 8); // careful: at least 8 s per tweet
    expect(seconds).toBeLessThan(3600);
  });

  it("take the qualification test by profile and only qualified, matching-locale workers accept the HIT", async () => {
    const mix = { careful: 6, average: 4, sloppy: 4, "spammer-random": 3, "spammer-constant": 3 };
    const workers = createWorkerPool({ seed: 5, mix });
    expect(createWorkerPool({ seed: 5, mix })).toEqual(workers);
    expect(workers.every((w) => /^A[A-Z0-9]{13}$/.test(w.workerId))).toBe(true);
    const t = await sim({ workers, seed: 5 });
    const gold = goldTweets(10);
    const built = buildQualificationTest({ gold, labels: HUMAID_LABELS });
    const typeId = (await t.client.send(
      new CreateQualificationTypeCommand({ Name: "q", Description: "d", QualificationTypeStatus: "Active", Test: built.questionFormXml, AnswerKey: built.answerKeyXml, TestDurationInSeconds: 900 }),
    )).QualificationType!.QualificationTypeId!;
    const items = nastyItems(30);
    const question = buildHitQuestionXml({ items, labels: HUMAID_LABELS, submitUrl: externalSubmitUrl("simulator", t.sim.url) });
    const hitIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      hitIds.push(
        await createHit(t.client, {
          Question: question,
          MaxAssignments: 3,
          LifetimeInSeconds: 86400,
          AssignmentDurationInSeconds: 3600,
          QualificationRequirements: [
            { QualificationTypeId: typeId, Comparator: "GreaterThanOrEqualTo", IntegerValues: [60], ActionsGuarded: "Accept" },
            { QualificationTypeId: SYSTEM_QUALIFICATIONS.locale, Comparator: "In", LocaleValues: [{ Country: "US" }, { Country: "GB" }, { Country: "CA" }] },
          ],
        }),
      );
    }
    t.clock.advance(86400);
    const scores = new Map(Object.values(t.sim.state.qualifications).map((q) => [q.WorkerId, q.IntegerValue ?? 0]));
    const byProfile = (p: string) => workers.filter((w) => w.profile === p).map((w) => scores.get(w.workerId));
    // Workers outside the allowed locales never take the test. Careful workers (90%) who took it pass,
    // constant spammers (one label for everything) fail.
    const tookIt = (p: string) => byProfile(p).filter((s): s is number => s !== undefined);
    expect(tookIt("careful").length).toBeGreaterThan(0);
    expect(tookIt("careful").every((s) => s >= 60)).toBe(true);
    expect(tookIt("spammer-constant").every((s) => s < 60)).toBe(true);
    for (const w of workers) {
      if (!["US", "GB", "CA"].includes(w.locale.Country)) expect(scores.has(w.workerId)).toBe(false);
    }
    let total = 0;
    for (const hitId of hitIds) {
      const listed = await t.client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 100 }));
      for (const a of listed.Assignments ?? []) {
        total++;
        const w = workers.find((x) => x.workerId === a.WorkerId)!;
        expect(scores.get(w.workerId)).toBeGreaterThanOrEqual(60);
        expect(["US", "GB", "CA"]).toContain(w.locale.Country);
        expect(parseHitAnswers({ answerXml: a.Answer!, items, labels: HUMAID_LABELS }).answers).toHaveLength(30);
      }
      expect(new Set((listed.Assignments ?? []).map((a) => a.WorkerId)).size).toBe(listed.NumResults);
    }
    expect(total).toBeGreaterThan(0);
  });
});
