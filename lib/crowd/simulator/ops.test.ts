import {
  AcceptQualificationRequestCommand,
  ApproveAssignmentCommand,
  CreateHITCommand,
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  CreateQualificationTypeCommand,
  DeleteQualificationTypeCommand,
  GetAssignmentCommand,
  GetFileUploadURLCommand,
  GetHITCommand,
  GetQualificationScoreCommand,
  GetQualificationTypeCommand,
  ListBonusPaymentsCommand,
  ListHITsForQualificationTypeCommand,
  ListQualificationRequestsCommand,
  ListQualificationTypesCommand,
  ListReviewPolicyResultsForHITCommand,
  paginateListBonusPayments,
  paginateListQualificationTypes,
  RejectQualificationRequestCommand,
  SendBonusCommand,
  SendTestEventNotificationCommand,
  UpdateExpirationForHITCommand,
  UpdateHITTypeOfHITCommand,
  UpdateNotificationSettingsCommand,
  UpdateQualificationTypeCommand,
  type CreateHITCommandInput,
} from "@aws-sdk/client-mturk";
import { describe, expect, it } from "vitest";
import * as sdk from "@aws-sdk/client-mturk";
import { testWorker, type TestSimulator } from "../test-fixtures";
import { sdkError, simulatorsPerTest } from "./sim-test-helpers";
import { requestQualification, uploadAnswerFile } from "./ops-qualifications";
import { EXTRA_OPERATIONS } from "./ops";
import { schemas } from "./schemas";
import { SYSTEM_QUALIFICATIONS } from "./requirements";

const sim = simulatorsPerTest(() => ({ workers: [testWorker("AWORKER00000001"), testWorker("AWORKER00000002"), testWorker("AWORKER00000003")] }));

const TEST_FORM = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd"><Question><QuestionIdentifier>q1</QuestionIdentifier><QuestionContent><Text>2+2?</Text></QuestionContent><AnswerSpecification><SelectionAnswer><Selections><Selection><SelectionIdentifier>a</SelectionIdentifier><Text>3</Text></Selection><Selection><SelectionIdentifier>b</SelectionIdentifier><Text>4</Text></Selection></Selections></SelectionAnswer></AnswerSpecification></Question></QuestionForm>`;
const FILE_FORM = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionForm.xsd"><Question><QuestionIdentifier>photo</QuestionIdentifier><QuestionContent><Text>Upload a photo</Text></QuestionContent><AnswerSpecification><FileUploadAnswer><MaxFileSizeInBytes>100000</MaxFileSizeInBytes><MinFileSizeInBytes>1</MinFileSizeInBytes></FileUploadAnswer></AnswerSpecification></Question></QuestionForm>`;
const HTML = `<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[<!DOCTYPE html><form method="post" action="https://www.mturk.com/mturk/externalSubmit"><input type="hidden" name="assignmentId"><input type="radio" name="q1" value="a"><input type="radio" name="q1" value="b"><input type="radio" name="q2" value="x"><input type="radio" name="q2" value="y"></form>]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>`;

function hitInput(extra: Partial<CreateHITCommandInput> = {}): CreateHITCommandInput {
  return { LifetimeInSeconds: 3600, AssignmentDurationInSeconds: 600, Reward: "0.50", Title: "t", Description: "d", MaxAssignments: 3, Question: HTML, ...extra };
}

function work(t: TestSimulator, workerId: string, hitId: string, fields: Record<string, string>): string {
  const id = t.sim.service.acceptHit({ workerId, hitId });
  t.sim.service.submitAssignment({ assignmentId: id, fields });
  return id;
}

describe("the simulator answers every operation of the MTurk requester API", () => {
  it("implements each command the SDK ships (39), with an input schema", () => {
    const commands = Object.keys(sdk).filter((k) => k.endsWith("Command") && k !== "$Command").map((k) => k.slice(0, -"Command".length));
    expect(commands.length).toBe(39);
    const implemented = new Set([...Object.keys(schemas), ...Object.keys(EXTRA_OPERATIONS)]);
    expect(commands.filter((c) => !implemented.has(c))).toEqual([]);
  });
});

describe("qualification types: list, update, delete, HITs of a type", () => {
  it("lists own and system types with Query, MustBeRequestable, MustBeOwnedByCaller and pages", async () => {
    const t = await sim();
    for (let k = 0; k < 3; k++) {
      await t.client.send(new CreateQualificationTypeCommand({ Name: `Gold test ${k}`, Description: "storm tweets", Keywords: "disaster", QualificationTypeStatus: "Active", Test: TEST_FORM, TestDurationInSeconds: 600 }));
    }
    await t.client.send(new CreateQualificationTypeCommand({ Name: "Manual", Description: "granted by hand", QualificationTypeStatus: "Active" }));
    const own = await t.client.send(new ListQualificationTypesCommand({ MustBeRequestable: false, MustBeOwnedByCaller: true, MaxResults: 100 }));
    expect(own.NumResults).toBe(4);
    expect(own.QualificationTypes!.map((q) => q.Name)).toEqual(["Gold test 0", "Gold test 1", "Gold test 2", "Manual"]);
    expect(own.QualificationTypes![0].CreationTime).toBeInstanceOf(Date);
    const requestable = await t.client.send(new ListQualificationTypesCommand({ MustBeRequestable: true, MustBeOwnedByCaller: true }));
    expect(requestable.QualificationTypes!.map((q) => q.Name)).toEqual(["Gold test 0", "Gold test 1", "Gold test 2"]);
    const all = await t.client.send(new ListQualificationTypesCommand({ MustBeRequestable: false, MaxResults: 100 }));
    expect(all.QualificationTypes!.map((q) => q.QualificationTypeId)).toContain(SYSTEM_QUALIFICATIONS.locale);
    const query = await t.client.send(new ListQualificationTypesCommand({ MustBeRequestable: false, Query: "GOLD disaster", MustBeOwnedByCaller: true }));
    expect(query.NumResults).toBe(3);
    const names: string[] = [];
    for await (const p of paginateListQualificationTypes({ client: t.client, pageSize: 2 }, { MustBeRequestable: false, MustBeOwnedByCaller: true })) {
      names.push(...p.QualificationTypes!.map((q) => q.Name!));
    }
    expect(names).toHaveLength(4);
    const missing = await sdkError(t.client.send(new ListQualificationTypesCommand({} as never)));
    expect(missing.name).toBe("ValidationException");
    expect(missing.message).toBe("1 validation error detected: Value null at 'mustBeRequestable' failed to satisfy constraint: Member must not be null");
  });

  it("updates description, status and test (TestDurationInSeconds required, no AutoGranted with a Test)", async () => {
    const t = await sim();
    const { QualificationType: q } = await t.client.send(new CreateQualificationTypeCommand({ Name: "Q", Description: "old", QualificationTypeStatus: "Active" }));
    expect(q!.IsRequestable).toBe(false);
    const noDuration = await sdkError(t.client.send(new UpdateQualificationTypeCommand({ QualificationTypeId: q!.QualificationTypeId, Test: TEST_FORM })));
    expect(noDuration.name).toBe("RequestError");
    expect(noDuration.message).toMatch(/^TestDurationInSeconds is required when a Test is given\. \(\d+\)$/);
    const up = await t.client.send(
      new UpdateQualificationTypeCommand({ QualificationTypeId: q!.QualificationTypeId, Description: "new", QualificationTypeStatus: "Inactive", Test: TEST_FORM, TestDurationInSeconds: 300, RetryDelayInSeconds: 60 }),
    );
    expect(up.QualificationType).toMatchObject({ Description: "new", QualificationTypeStatus: "Inactive", Test: TEST_FORM, TestDurationInSeconds: 300, RetryDelayInSeconds: 60, IsRequestable: true, Name: "Q" });
    const auto = await sdkError(t.client.send(new UpdateQualificationTypeCommand({ QualificationTypeId: q!.QualificationTypeId, AutoGranted: true })));
    expect(auto.message).toMatch(/^AutoGranted cannot be used with a Test\./);
    const badXml = await sdkError(t.client.send(new UpdateQualificationTypeCommand({ QualificationTypeId: q!.QualificationTypeId, Test: "<QuestionForm>", TestDurationInSeconds: 60 })));
    expect(badXml.name).toBe("ParameterValidationError");
    const system = await sdkError(t.client.send(new UpdateQualificationTypeCommand({ QualificationTypeId: SYSTEM_QUALIFICATIONS.adult, Description: "x" })));
    expect(system.TurkErrorCode).toBe("AWS.MechanicalTurk.PermissionDenied");
  });

  it("deletes a type: gone for Get and new HITs, its HIT types go, pending requests go, the name stays reserved 48 h", async () => {
    const t = await sim();
    const { QualificationType: q } = await t.client.send(new CreateQualificationTypeCommand({ Name: "Gone", Description: "d", QualificationTypeStatus: "Active", Test: TEST_FORM, TestDurationInSeconds: 60 }));
    const id = q!.QualificationTypeId!;
    const req = [{ QualificationTypeId: id, Comparator: "Exists" as const }];
    const { HITTypeId } = await t.client.send(new CreateHITTypeCommand({ AssignmentDurationInSeconds: 60, Reward: "0.10", Title: "t", Description: "d", QualificationRequirements: req }));
    requestQualification(t.sim.service, { workerId: "AWORKER00000001", qualificationTypeId: id, answers: [{ questionId: "q1", selectionIds: ["b"] }] });
    await t.client.send(new DeleteQualificationTypeCommand({ QualificationTypeId: id }));
    const get = await sdkError(t.client.send(new GetQualificationTypeCommand({ QualificationTypeId: id })));
    expect(get.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationTypeDoesNotExist");
    expect((await sdkError(t.client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 60, Question: HTML })))).TurkErrorCode).toBe("AWS.MechanicalTurk.HITTypeDoesNotExist");
    expect((await sdkError(t.client.send(new CreateHITCommand(hitInput({ QualificationRequirements: req }))))).TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationTypeDoesNotExist");
    expect((await t.client.send(new ListQualificationRequestsCommand({}))).NumResults).toBe(0);
    const again = await sdkError(t.client.send(new CreateQualificationTypeCommand({ Name: "Gone", Description: "d", QualificationTypeStatus: "Active" })));
    expect(again.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationTypeAlreadyExists");
    t.clock.advance(48 * 3600);
    await t.client.send(new CreateQualificationTypeCommand({ Name: "Gone", Description: "d", QualificationTypeStatus: "Active" }));
    expect((await sdkError(t.client.send(new DeleteQualificationTypeCommand({ QualificationTypeId: id })))).TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationTypeDoesNotExist");
  });

  it("lists the live HITs that require a type", async () => {
    const t = await sim();
    const { QualificationType: q } = await t.client.send(new CreateQualificationTypeCommand({ Name: "Req", Description: "d", QualificationTypeStatus: "Active" }));
    const req = [{ QualificationTypeId: q!.QualificationTypeId!, Comparator: "Exists" as const }];
    const a = await t.client.send(new CreateHITCommand(hitInput({ QualificationRequirements: req })));
    await t.client.send(new CreateHITCommand(hitInput()));
    const out = await t.client.send(new ListHITsForQualificationTypeCommand({ QualificationTypeId: q!.QualificationTypeId, MaxResults: 10 }));
    expect(out.HITs!.map((h) => h.HITId)).toEqual([a.HIT!.HITId]);
    expect(out.NextToken).toBeUndefined();
    const bad = await sdkError(t.client.send(new ListHITsForQualificationTypeCommand({ QualificationTypeId: "nope" })));
    expect(bad.name).toBe("ParameterValidationError");
  });
});

describe("qualification requests", () => {
  it("a test without an AnswerKey becomes a request the requester accepts or rejects; retries wait for the delay", async () => {
    const t = await sim();
    const { QualificationType: q } = await t.client.send(
      new CreateQualificationTypeCommand({ Name: "Manual test", Description: "d", QualificationTypeStatus: "Active", Test: TEST_FORM, TestDurationInSeconds: 60, RetryDelayInSeconds: 3600 }),
    );
    const id = q!.QualificationTypeId!;
    requestQualification(t.sim.service, { workerId: "AWORKER00000001", qualificationTypeId: id, answers: [{ questionId: "q1", selectionIds: ["b"] }] });
    t.clock.advance(5);
    requestQualification(t.sim.service, { workerId: "AWORKER00000002", qualificationTypeId: id, answers: [{ questionId: "q1", selectionIds: ["a"] }] });
    expect(() => requestQualification(t.sim.service, { workerId: "AWORKER00000001", qualificationTypeId: id })).toThrow(/cannot request/);
    const list = await t.client.send(new ListQualificationRequestsCommand({ QualificationTypeId: id, MaxResults: 1 }));
    expect(list.NumResults).toBe(1);
    expect(list.NextToken).toBeDefined();
    const first = list.QualificationRequests![0];
    expect(first).toMatchObject({ QualificationTypeId: id, WorkerId: "AWORKER00000001", Test: TEST_FORM });
    expect(first.Answer).toContain("<SelectionIdentifier>b</SelectionIdentifier>");
    expect(first.SubmitTime).toBeInstanceOf(Date);
    await t.client.send(new AcceptQualificationRequestCommand({ QualificationRequestId: first.QualificationRequestId, IntegerValue: 90 }));
    const score = await t.client.send(new GetQualificationScoreCommand({ QualificationTypeId: id, WorkerId: "AWORKER00000001" }));
    expect(score.Qualification).toMatchObject({ IntegerValue: 90, Status: "Granted" });
    const rest = await t.client.send(new ListQualificationRequestsCommand({}));
    expect(rest.QualificationRequests!.map((r) => r.WorkerId)).toEqual(["AWORKER00000002"]);
    await t.client.send(new RejectQualificationRequestCommand({ QualificationRequestId: rest.QualificationRequests![0].QualificationRequestId, Reason: "wrong" }));
    const gone = await sdkError(t.client.send(new AcceptQualificationRequestCommand({ QualificationRequestId: rest.QualificationRequests![0].QualificationRequestId })));
    expect(gone.name).toBe("RequestError");
    expect(gone.TurkErrorCode).toBe("AWS.MechanicalTurk.QualificationRequestDoesNotExist");
    expect(() => requestQualification(t.sim.service, { workerId: "AWORKER00000002", qualificationTypeId: id })).toThrow(/retry delay/);
    t.clock.advance(3600);
    expect(requestQualification(t.sim.service, { workerId: "AWORKER00000002", qualificationTypeId: id })).toHaveProperty("requestId");
  });

  it("auto-granted types are granted on request; simulated workers ask for what a HIT requires", async () => {
    const t = await sim({ workers: { careful: 3 }, seed: 7 });
    const { QualificationType: auto } = await t.client.send(new CreateQualificationTypeCommand({ Name: "Auto", Description: "d", QualificationTypeStatus: "Active", AutoGranted: true, AutoGrantedValue: 5 }));
    const { QualificationType: manual } = await t.client.send(new CreateQualificationTypeCommand({ Name: "Manual", Description: "d", QualificationTypeStatus: "Active", Test: TEST_FORM, TestDurationInSeconds: 60 }));
    await t.client.send(new CreateHITCommand(hitInput({ QualificationRequirements: [{ QualificationTypeId: auto!.QualificationTypeId!, Comparator: "EqualTo", IntegerValues: [5] }] })));
    await t.client.send(new CreateHITCommand(hitInput({ QualificationRequirements: [{ QualificationTypeId: manual!.QualificationTypeId!, Comparator: "Exists" }] })));
    t.clock.advance(3600);
    const workers = t.sim.state.workers.map((w) => w.workerId);
    for (const w of workers) {
      const s = await t.client.send(new GetQualificationScoreCommand({ QualificationTypeId: auto!.QualificationTypeId, WorkerId: w }));
      expect(s.Qualification?.IntegerValue).toBe(5);
    }
    const requests = await t.client.send(new ListQualificationRequestsCommand({ QualificationTypeId: manual!.QualificationTypeId }));
    expect(requests.QualificationRequests!.map((r) => r.WorkerId).sort()).toEqual([...workers].sort());
  });
});

describe("HIT types, bonuses and uploaded files", () => {
  it("UpdateHITTypeOfHIT moves a HIT to another type's reward, title and requirements", async () => {
    const t = await sim();
    const hit = (await t.client.send(new CreateHITCommand(hitInput()))).HIT!;
    const { HITTypeId } = await t.client.send(new CreateHITTypeCommand({ AssignmentDurationInSeconds: 900, Reward: "1.25", Title: "New title", Description: "New", AutoApprovalDelayInSeconds: 60 }));
    await t.client.send(new UpdateHITTypeOfHITCommand({ HITId: hit.HITId, HITTypeId }));
    const got = (await t.client.send(new GetHITCommand({ HITId: hit.HITId }))).HIT!;
    expect(got).toMatchObject({ HITTypeId, HITGroupId: HITTypeId, Reward: "1.25", Title: "New title", AssignmentDurationInSeconds: 900, AutoApprovalDelayInSeconds: 60 });
    const noType = await sdkError(t.client.send(new UpdateHITTypeOfHITCommand({ HITId: hit.HITId, HITTypeId: "3NOSUCHTYPE" })));
    expect(noType.TurkErrorCode).toBe("AWS.MechanicalTurk.HITTypeDoesNotExist");
    const noHit = await sdkError(t.client.send(new UpdateHITTypeOfHITCommand({ HITId: "3NOSUCHHIT", HITTypeId })));
    expect(noHit.TurkErrorCode).toBe("AWS.MechanicalTurk.HITDoesNotExist");
  });

  it("lists bonus payments by HIT or assignment, paged", async () => {
    const t = await sim();
    const hit = (await t.client.send(new CreateHITCommand(hitInput()))).HIT!;
    const a1 = work(t, "AWORKER00000001", hit.HITId!, { q1: "a" });
    const a2 = work(t, "AWORKER00000002", hit.HITId!, { q1: "b" });
    await t.client.send(new SendBonusCommand({ WorkerId: "AWORKER00000001", AssignmentId: a1, BonusAmount: "0.25", Reason: "thanks" }));
    t.clock.advance(1);
    await t.client.send(new SendBonusCommand({ WorkerId: "AWORKER00000002", AssignmentId: a2, BonusAmount: "1", Reason: "great" }));
    const byAssignment = await t.client.send(new ListBonusPaymentsCommand({ AssignmentId: a2 }));
    expect(byAssignment.BonusPayments).toEqual([{ WorkerId: "AWORKER00000002", BonusAmount: "1.00", AssignmentId: a2, Reason: "great", GrantTime: new Date(t.clock.now()) }]);
    const all: string[] = [];
    for await (const p of paginateListBonusPayments({ client: t.client, pageSize: 1 }, { HITId: hit.HITId })) all.push(...p.BonusPayments!.map((b) => b.BonusAmount!));
    expect(all).toEqual(["0.25", "1.00"]);
    const neither = await sdkError(t.client.send(new ListBonusPaymentsCommand({})));
    expect(neither.message).toMatch(/^Either the HITId parameter or the AssignmentId parameter must be specified\./);
  });

  it("serves an uploaded file through a 60-second URL", async () => {
    const t = await sim();
    const hit = (await t.client.send(new CreateHITCommand(hitInput({ Question: FILE_FORM })))).HIT!;
    const id = t.sim.service.acceptHit({ workerId: "AWORKER00000001", hitId: hit.HITId! });
    t.sim.service.submitAssignment({ assignmentId: id, answers: [{ questionId: "photo", ...uploadAnswerFile(t.sim.service, "JPEG bytes") }] });
    const { FileUploadURL } = await t.client.send(new GetFileUploadURLCommand({ AssignmentId: id, QuestionIdentifier: "photo" }));
    expect(FileUploadURL).toMatch(new RegExp(`^${t.sim.url}/__simulator/files/`));
    const res = await fetch(FileUploadURL!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("JPEG bytes");
    t.clock.advance(61);
    expect((await fetch(FileUploadURL!)).status).toBe(403);
    const none = await sdkError(t.client.send(new GetFileUploadURLCommand({ AssignmentId: id, QuestionIdentifier: "other" })));
    expect(none.name).toBe("RequestError");
    const a = await t.client.send(new GetAssignmentCommand({ AssignmentId: id }));
    expect(a.Assignment?.Answer).toContain("<UploadedFileSizeInBytes>10</UploadedFileSizeInBytes>");
  });
});

describe("notifications", () => {
  const spec = { Destination: "https://sqs.us-east-1.amazonaws.com/123456789012/accord", Transport: "SQS" as const, Version: "2006-05-05", EventTypes: ["AssignmentSubmitted" as const, "AssignmentApproved" as const, "HITReviewable" as const, "HITExtended" as const] };

  it("validates the specification and sends the chosen events of the HIT type to the sink", async () => {
    const t = await sim();
    const { HITTypeId } = await t.client.send(new CreateHITTypeCommand({ AssignmentDurationInSeconds: 600, Reward: "0.50", Title: "t", Description: "d" }));
    const neither = await sdkError(t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId })));
    expect(neither.message).toMatch(/^You must specify either the Notification parameter or the Active parameter\./);
    const badDest = await sdkError(t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Notification: { ...spec, Destination: "not a queue" } })));
    expect(badDest.name).toBe("ParameterValidationError");
    const ping = await sdkError(t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Notification: { ...spec, EventTypes: ["Ping"] } })));
    expect(ping.message).toMatch(/^The value "Ping" is not valid for the parameter EventTypes\./);
    const badVersion = await sdkError(t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Notification: { ...spec, Version: "2020-01-01" } })));
    expect(badVersion.name).toBe("ParameterValidationError");
    expect((await sdkError(t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId: "3NOPE", Active: true })))).TurkErrorCode).toBe("AWS.MechanicalTurk.HITTypeDoesNotExist");
    await t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Notification: { ...spec, Version: "2014-08-15" } }));

    const hit = (await t.client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 3600, MaxAssignments: 1, Question: HTML }))).HIT!;
    const id = work(t, "AWORKER00000001", hit.HITId!, { q1: "a" });
    await t.client.send(new ApproveAssignmentCommand({ AssignmentId: id }));
    await t.client.send(new UpdateExpirationForHITCommand({ HITId: hit.HITId, ExpireAt: new Date(t.clock.now() + 7200_000) }));
    const sink = (await (await fetch(`${t.sim.url}/__simulator/notifications`)).json()) as { notifications: Array<{ Destination: string; Transport: string; Message: string }> };
    const events = sink.notifications.flatMap((n) => (JSON.parse(n.Message) as { Events: Array<{ EventType: string; HITId: string; AssignmentId?: string; EventTimestamp: string }> }).Events);
    expect(events.map((e) => e.EventType)).toEqual(["AssignmentSubmitted", "HITReviewable", "AssignmentApproved", "HITExtended"]);
    expect(events[0]).toMatchObject({ HITId: hit.HITId, AssignmentId: id });
    expect(events[0].EventTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(sink.notifications[0]).toMatchObject({ Destination: spec.Destination, Transport: "SQS" });
    expect(JSON.parse(sink.notifications[0].Message)).toMatchObject({ EventDocVersion: "2014-08-15" });

    await t.client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Active: false }));
    work(t, "AWORKER00000002", (await t.client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 3600, Question: HTML }))).HIT!.HITId!, { q1: "b" });
    expect(t.sim.state.extra!.notificationOutbox).toHaveLength(sink.notifications.length);
  });

  it("SendTestEventNotification sends one test message, Ping included", async () => {
    const t = await sim();
    await t.client.send(new SendTestEventNotificationCommand({ Notification: { Destination: "lab@example.org", Transport: "Email", Version: "2006-05-05", EventTypes: ["Ping"] }, TestEventType: "Ping" }));
    const [msg] = t.sim.state.extra!.notificationOutbox;
    expect(msg).toMatchObject({ Destination: "lab@example.org", Transport: "Email" });
    expect(JSON.parse(msg.Message).Events).toEqual([{ EventType: "Ping", EventTimestamp: expect.stringMatching(/Z$/) as string }]);
    const bad = await sdkError(t.client.send(new SendTestEventNotificationCommand({ Notification: { Destination: "x", Transport: "SNS", Version: "2006-05-05", EventTypes: ["Ping"] }, TestEventType: "Ping" })));
    expect(bad.name).toBe("ParameterValidationError");
  });
});

describe("review policies", () => {
  it("ScoreMyKnownAnswers scores each submission and approves or rejects; SimplePlurality reviews the HIT", async () => {
    const t = await sim();
    const hit = (
      await t.client.send(
        new CreateHITCommand(
          hitInput({
            AssignmentReviewPolicy: {
              PolicyName: "ScoreMyKnownAnswers/2011-09-01",
              Parameters: [
                { Key: "AnswerKey", MapEntries: [{ Key: "q1", Values: ["a"] }] },
                { Key: "ApproveIfKnownAnswerScoreIsAtLeast", Values: ["100"] },
                { Key: "RejectIfKnownAnswerScoreIsLessThan", Values: ["100"] },
                { Key: "RejectReason", Values: ["The known answer was wrong."] },
              ],
            },
            HITReviewPolicy: {
              PolicyName: "SimplePlurality/2011-09-01",
              Parameters: [
                { Key: "QuestionIds", Values: ["q2"] },
                { Key: "QuestionAgreementThreshold", Values: ["60"] },
              ],
            },
          }),
        ),
      )
    ).HIT!;
    const good = work(t, "AWORKER00000001", hit.HITId!, { q1: "a", q2: "x" });
    const bad = work(t, "AWORKER00000002", hit.HITId!, { q1: "b", q2: "x" });
    work(t, "AWORKER00000003", hit.HITId!, { q1: "a", q2: "y" });
    expect((await t.client.send(new GetAssignmentCommand({ AssignmentId: good }))).Assignment?.AssignmentStatus).toBe("Approved");
    const rejected = (await t.client.send(new GetAssignmentCommand({ AssignmentId: bad }))).Assignment!;
    expect(rejected).toMatchObject({ AssignmentStatus: "Rejected", RequesterFeedback: "The known answer was wrong." });
    const out = await t.client.send(new ListReviewPolicyResultsForHITCommand({ HITId: hit.HITId, RetrieveActions: true, RetrieveResults: true, MaxResults: 100 }));
    expect(out.AssignmentReviewPolicy).toEqual({ PolicyName: "ScoreMyKnownAnswers/2011-09-01" });
    expect(out.HITReviewPolicy).toEqual({ PolicyName: "SimplePlurality/2011-09-01" });
    const scores = out.AssignmentReviewReport!.ReviewResults!.filter((r) => r.Key === "KnownAnswerScore").map((r) => [r.SubjectId, r.Value]);
    expect(scores).toEqual([[good, "100"], [bad, "0"], [expect.any(String), "100"]]);
    expect(out.AssignmentReviewReport!.ReviewActions!.map((a) => [a.ActionName, a.Status])).toEqual([["approve", "Succeeded"], ["reject", "Succeeded"], ["approve", "Succeeded"]]);
    expect(out.AssignmentReviewReport!.ReviewActions![0].CompleteTime).toBeInstanceOf(Date);
    const hitResults = out.HITReviewReport!.ReviewResults!;
    expect(hitResults.find((r) => r.Key === "PluralityAnswer")).toMatchObject({ QuestionId: "q2", Value: "x", SubjectType: "HIT" });
    expect(hitResults.find((r) => r.Key === "HITAgreementScore")?.Value).toBe("100");
    const onlyHit = await t.client.send(new ListReviewPolicyResultsForHITCommand({ HITId: hit.HITId, PolicyLevels: ["HIT"] }));
    expect(onlyHit.AssignmentReviewReport).toBeUndefined();
    const badPolicy = await sdkError(t.client.send(new CreateHITCommand(hitInput({ HITReviewPolicy: { PolicyName: "Majority/2020" } }))));
    expect(badPolicy.name).toBe("ParameterValidationError");
  });
});
