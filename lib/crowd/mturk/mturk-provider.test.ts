import { createServer } from "node:net";
import { CreateHITCommand, MTurkClient, RequestError } from "@aws-sdk/client-mturk";
import { afterEach, describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { CrowdError, isCrowdError, type CrowdErrorCode } from "../errors";
import type { CrowdAssignment, PublishHitInput } from "../provider";
import { ManualClock } from "../simulator/clock";
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from "../simulator/server";
import { goldTweets, nastyItems, testWorker } from "../test-fixtures";
import { deriveUniqueRequestToken } from "../tokens";
import { createMturkClient, DEFAULT_SIMULATOR_URL, MTURK_ENDPOINTS, mturkEndpoint } from "./client";
import { hitIdFromMessage, stripServiceTimestamp, toCrowdError } from "./errors";
import { buildHitQuestionXml, externalSubmitUrl } from "./hit-question";
import { createMturkProvider, MturkProvider } from "./mturk-provider";
import { buildQualificationTest } from "./qualification-xml";

let sims: RunningSimulator[] = [];
afterEach(async () => {
  for (const s of sims) await s.stop();
  sims = [];
});

function passive(id: string) {
  return testWorker(id, { locale: { Country: "US" }, numberHitsApproved: 100 });
}

async function setup(opts: Omit<StartSimulatorOptions, "clock"> = {}, mode: "simulator" | "sandbox" = "simulator", maxAttempts?: number) {
  const clock = new ManualClock();
  const sim = await startSimulator({ seed: 3, workers: [passive("AWORKERONE0001"), passive("AWORKERTWO0002"), passive("AWORKERTHREE03")], ...opts, clock });
  sims.push(sim);
  const client = createMturkClient({ mode: "simulator", simulatorUrl: sim.url, maxAttempts });
  const provider = new MturkProvider({ client, mode, endpoint: sim.url, retries: maxAttempts === 1 ? 0 : 5, retryBaseMs: 20, throttleAttempts: maxAttempts === 1 ? 0 : 16, throttleGate: { baseMs: 20 } });
  return { sim, clock, provider };
}

function publishInput(accordHitId: string, extra: Partial<PublishHitInput> = {}): PublishHitInput {
  return {
    accordHitId,
    title: "Categorise disaster tweets",
    description: "Choose one category per tweet",
    keywords: "tweets, disaster, categorise",
    rewardCents: 50,
    maxAssignments: 3,
    lifetimeSeconds: 86_400,
    assignmentDurationSeconds: 3600,
    autoApprovalDelaySeconds: 259_200,
    questionXml: buildHitQuestionXml({ items: nastyItems(3), labels: HUMAID_LABELS, submitUrl: externalSubmitUrl("sandbox") }),
    ...extra,
  };
}

async function crowdError(p: Promise<unknown>, code: CrowdErrorCode): Promise<CrowdError> {
  try {
    await p;
  } catch (err) {
    expect(isCrowdError(err)).toBe(true);
    expect((err as CrowdError).code).toBe(code);
    return err as CrowdError;
  }
  throw new Error(`expected a CrowdError ${code}`);
}

async function collect(it: AsyncIterable<CrowdAssignment>): Promise<CrowdAssignment[]> {
  const out: CrowdAssignment[] = [];
  for await (const a of it) out.push(a);
  return out;
}

describe("client factory and tokens", () => {
  it("resolves endpoints per mode and requires credentials outside the simulator", () => {
    expect(mturkEndpoint({ mode: "production" })).toBe("https://mturk-requester.us-east-1.amazonaws.com");
    expect(mturkEndpoint({ mode: "sandbox" })).toBe(MTURK_ENDPOINTS.sandbox);
    expect(mturkEndpoint({ mode: "simulator" })).toBe(DEFAULT_SIMULATOR_URL);
    expect(() => createMturkClient({ mode: "production" })).toThrow(/needs AWS credentials/);
    expect(() => createMturkClient({ mode: "sandbox", credentials: { accessKeyId: "", secretAccessKey: "x" } })).toThrow(CrowdError);
    const c = createMturkClient({ mode: "sandbox", credentials: { accessKeyId: "AKID", secretAccessKey: "s" } });
    expect(c).toBeInstanceOf(MTurkClient);
    c.destroy();
  });

  it("derives deterministic tokens of at most 64 characters", () => {
    expect(deriveUniqueRequestToken("ckhit123")).toBe("accord-hit:ckhit123");
    const long = deriveUniqueRequestToken("x".repeat(200));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toBe(deriveUniqueRequestToken("x".repeat(200)));
    expect(long).not.toBe(deriveUniqueRequestToken("y".repeat(200)));
    expect(deriveUniqueRequestToken("with space")).toMatch(/^accord-hit:sha256:[0-9a-f]+$/);
    expect(() => deriveUniqueRequestToken("")).toThrow();
  });

  it("reads HIT ids out of HitAlreadyExists messages and strips service timestamps", () => {
    expect(hitIdFromMessage('There is already a HIT with the UniqueRequestToken "a". HITId: 3ABCDEFGHIJKLMNOPQRSTUVWXYZ123 (1700000000000)')).toBe("3ABCDEFGHIJKLMNOPQRSTUVWXYZ123");
    expect(hitIdFromMessage("The HIT 3PR3LXCWSFNV4OJWZBHIMQOIJVSX9G already exists")).toBe("3PR3LXCWSFNV4OJWZBHIMQOIJVSX9G");
    expect(hitIdFromMessage("no id here")).toBeUndefined();
    expect(stripServiceTimestamp("Hit X does not exist. (1624047673969)")).toBe("Hit X does not exist.");
    expect(stripServiceTimestamp("bad WorkerId. (1563818969320 s)")).toBe("bad WorkerId.");
  });
});

describe("MturkProvider against the simulator", () => {
  it("publishes a HIT once: a retry returns the same HIT with duplicate=true", async () => {
    const { sim, provider } = await setup();
    const first = await provider.publishHit(publishInput("hit-1"));
    expect(first.duplicate).toBe(false);
    expect(first.providerHitId).toMatch(/^[A-Z0-9]{30}$/);
    expect(first.expiresAt.getTime()).toBe(sim.clock.now() + 86_400_000);
    const again = await provider.publishHit(publishInput("hit-1"));
    expect(again).toEqual({ ...first, duplicate: true });
    expect(sim.state.hitOrder).toHaveLength(1);
    const hit = await provider.getHit({ providerHitId: first.providerHitId });
    expect(hit).toMatchObject({ status: "Assignable", maxAssignments: 3, rewardCents: 50, availableCount: 3, requesterAnnotation: "accord:hit-1" });
  });

  it("never duplicates HITs when responses are lost after the HIT was created", async () => {
    const { sim, provider } = await setup({ faults: { serviceFaultRate: 0.5, faultAfterApplyFraction: 1, operations: ["CreateHIT"] } });
    const results = [];
    for (let i = 0; i < 12; i++) results.push(await provider.publishHit(publishInput(`lost-${i}`)));
    expect(sim.stats.serviceFaults).toBeGreaterThan(0);
    expect(results.some((r) => r.duplicate)).toBe(true);
    expect(sim.state.hitOrder).toHaveLength(12);
    expect(new Set(results.map((r) => r.providerHitId)).size).toBe(12);
  });

  it("recovers the HIT id by listing when the error message has none", async () => {
    const { sim, provider: real } = await setup();
    const created = await real.publishHit(publishInput("listed", { requesterAnnotation: "accord:listed" }));
    // A real client whose CreateHIT answers HitAlreadyExists without naming the HIT.
    const client = createMturkClient({ mode: "simulator", simulatorUrl: sim.url });
    const realSend = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    (client as unknown as { send: (command: unknown) => Promise<unknown> }).send = async (command) => {
      if (command instanceof CreateHITCommand) {
        throw new RequestError({ message: "A HIT already exists for this token. (1700000000000)", $metadata: {}, TurkErrorCode: "AWS.MechanicalTurk.HitAlreadyExists" } as never);
      }
      return realSend(command);
    };
    const fake = client;
    const provider = new MturkProvider({ client: fake, mode: "simulator" });
    const out = await provider.publishHit(publishInput("listed", { requesterAnnotation: "accord:listed" }));
    expect(out).toMatchObject({ providerHitId: created.providerHitId, duplicate: true });
    const lost = await crowdError(provider.publishHit(publishInput("nowhere")), "hit_already_exists");
    expect(lost.message).toMatch(/could not be recovered/);
    client.destroy();
  });

  it("lists, approves, rejects and pays, with errors a researcher can act on", async () => {
    const { sim, provider, clock } = await setup({ balanceCents: 100 });
    const { providerHitId } = await provider.publishHit(publishInput("h"));
    const ids = ["AWORKERONE0001", "AWORKERTWO0002", "AWORKERTHREE03"].map((w, i) => {
      const id = sim.service.acceptHit({ workerId: w, hitId: providerHitId });
      clock.advance(10);
      sim.service.submitAssignment({ assignmentId: id, fields: { "item-1-item01x": HUMAID_LABELS[i].value } });
      return id;
    });
    const all = await collect(provider.listSubmittedAssignments({ providerHitId, pageSize: 2 }));
    expect(all.map((a) => a.assignmentId)).toEqual(ids);
    expect(all[0]).toMatchObject({ workerId: "AWORKERONE0001", providerHitId, status: "Submitted" });
    expect(all[0].submittedAt).toBeInstanceOf(Date);
    expect(all[0].answerXml).toContain("caution_and_advice");

    await provider.approveAssignment({ assignmentId: ids[0], feedback: "Thanks!" });
    expect(await provider.getBalance()).toEqual({ availableCents: 40, onHoldCents: 0 });
    const funds = await crowdError(provider.approveAssignment({ assignmentId: ids[1] }), "insufficient_funds");
    expect(funds.message).toMatch(/^Insufficient funds in the MTurk account \(ApproveAssignment\): .*Add funds/);
    expect(funds.message).not.toMatch(/\(\d{13}\)/);
    expect(funds.details.providerCode).toBe("AWS.MechanicalTurk.InsufficientFunds");
    await provider.approveAssignment({ assignmentId: ids[0] }); // approving twice is idempotent: no second charge
    expect((await provider.getBalance()).availableCents).toBe(40);
    await crowdError(provider.rejectAssignment({ assignmentId: ids[1], feedback: " " }), "invalid_parameter");
    await provider.rejectAssignment({ assignmentId: ids[1], feedback: "Only 5 of 10 gold tweets correct" });
    expect((await collect(provider.listSubmittedAssignments({ providerHitId, statuses: ["Rejected"] }))).map((a) => [a.assignmentId, a.requesterFeedback])).toEqual([
      [ids[1], "Only 5 of 10 gold tweets correct"],
    ]);
    await crowdError(provider.getHit({ providerHitId: "3NOSUCHHIT0000000000000000000Z" }), "not_found");
    await crowdError(provider.sendBonus({ workerId: "AWORKERONE0001", assignmentId: ids[0], amountCents: 50, reason: "x", uniqueToken: "b" }), "insufficient_funds");
    expect(await provider.sendBonus({ workerId: "AWORKERONE0001", assignmentId: ids[0], amountCents: 10, reason: "Great work", uniqueToken: "bonus-1" })).toEqual({ duplicate: false });
    expect(await provider.sendBonus({ workerId: "AWORKERONE0001", assignmentId: ids[0], amountCents: 10, reason: "Great work", uniqueToken: "bonus-1" })).toEqual({ duplicate: true });
    expect((await provider.getBalance()).availableCents).toBe(40 - 12);
    await crowdError(provider.sendBonus({ workerId: "AWORKERONE0001", assignmentId: ids[0], amountCents: 0, reason: "x", uniqueToken: "z" }), "invalid_parameter");
  });

  it("adds assignments idempotently, expires, extends and deletes (twice is fine)", async () => {
    const { sim, provider, clock } = await setup();
    const { providerHitId } = await provider.publishHit(publishInput("life", { maxAssignments: 1 }));
    expect(await provider.addAssignments({ providerHitId, count: 2, uniqueToken: "life-round-2" })).toEqual({ duplicate: false });
    expect(await provider.addAssignments({ providerHitId, count: 2, uniqueToken: "life-round-2" })).toEqual({ duplicate: true });
    expect((await provider.getHit({ providerHitId })).maxAssignments).toBe(3);
    const inc = await crowdError(provider.addAssignments({ providerHitId, count: 7, uniqueToken: "big" }), "invalid_assignment_increase");
    expect(inc.message).toMatch(/publish a new HIT instead/);

    const a = sim.service.acceptHit({ workerId: "AWORKERONE0001", hitId: providerHitId });
    sim.service.submitAssignment({ assignmentId: a, fields: { x: "y" } });
    await provider.expireHit({ providerHitId });
    expect((await provider.getHit({ providerHitId })).status).toBe("Reviewable");
    await crowdError(provider.deleteHit({ providerHitId }), "invalid_hit_state");
    const later = new Date(clock.now() + 7 * 86_400_000);
    await provider.extendHit({ providerHitId, expiresAt: later });
    expect(await provider.getHit({ providerHitId })).toMatchObject({ status: "Assignable", expiresAt: later });
    await provider.expireHit({ providerHitId });
    await provider.approveAssignment({ assignmentId: a });
    await provider.deleteHit({ providerHitId });
    await provider.deleteHit({ providerHitId });
    expect((await provider.getHit({ providerHitId })).status).toBe("Disposed");
  });

  it("qualifications, blocks and notifications; sandbox worker ids", async () => {
    const { sim, provider } = await setup({ rejectUnknownWorkers: true }, "sandbox");
    const built = buildQualificationTest({ gold: goldTweets(10), labels: HUMAID_LABELS });
    const input = { name: "HumAID qualification", description: "10 gold tweets", testXml: built.questionFormXml, answerKeyXml: built.answerKeyXml, testDurationSeconds: 900, retryDelaySeconds: 86_400 };
    const { qualificationTypeId } = await provider.createQualificationType(input);
    expect(sim.state.qualificationTypes[qualificationTypeId].AnswerKey).toBe(built.answerKeyXml);
    await crowdError(provider.createQualificationType(input), "already_exists");
    await crowdError(provider.createQualificationType({ ...input, name: "big", testXml: "x".repeat(70_000) }), "too_large");

    await provider.grantQualification({ qualificationTypeId, workerId: "AWORKERONE0001", value: 90 });
    expect(sim.state.qualifications[`${qualificationTypeId}|AWORKERONE0001`].IntegerValue).toBe(90);
    const sandbox = await crowdError(provider.grantQualification({ qualificationTypeId, workerId: "APRODUCTIONID1" }), "worker_not_found_sandbox");
    expect(sandbox.message).toMatch(/^Worker not found in the MTurk sandbox .*separate worker ids/);
    await provider.revokeQualification({ qualificationTypeId, workerId: "AWORKERONE0001", reason: "retest" });
    await crowdError(provider.revokeQualification({ qualificationTypeId, workerId: "AWORKERONE0001" }), "not_found");

    await provider.blockWorker({ workerId: "AWORKERTWO0002", reason: "spam" });
    expect(sim.state.blocks.AWORKERTWO0002?.reason).toBe("spam");
    await provider.unblockWorker({ workerId: "AWORKERTWO0002" });
    expect(sim.state.blocks.AWORKERTWO0002).toBeUndefined();

    const ids = Array.from({ length: 150 }, (_, i) => `AW${String(i).padStart(12, "0")}`);
    const before = sim.stats.byOperation.NotifyWorkers ?? 0;
    const out = await provider.notifyWorkers({ workerIds: ids, subject: "New work", message: "Hello" });
    expect(sim.stats.byOperation.NotifyWorkers - before).toBe(2);
    expect(out.failures).toHaveLength(150);
    expect(out.failures[0]).toMatchObject({ workerId: ids[0], kind: "hard" });
  });

  it("maps throttling, faults and an unreachable endpoint to stable codes", async () => {
    const { sim, provider } = await setup({ faults: { throttleFraction: 1 } }, "simulator", 1);
    const throttled = await crowdError(provider.getBalance(), "throttled");
    expect(throttled.message).toMatch(/MTurk is throttling requests \(GetAccountBalance\): Rate exceeded/);
    sim.setFaults({ serviceFaultRate: 1 });
    await crowdError(provider.getBalance(), "service_unavailable");

    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, "127.0.0.1", () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const offline = createMturkProvider({ mode: "simulator", simulatorUrl: `http://127.0.0.1:${port}`, maxAttempts: 1, retries: 1, retryBaseMs: 10 });
    const net = await crowdError(offline.getBalance(), "network");
    expect(net.message).toMatch(/Cannot reach the MTurk simulator at http:\/\/127\.0\.0\.1:\d+ .*npx accord simulator/);
  });

  it("paces throttled calls through one gate: the SDK does not retry them, every call waits for the same reopening", async () => {
    const clock = new ManualClock();
    const sim = await startSimulator({ seed: 3, workers: [passive("AWORKERONE0001")], clock, faults: { throttleRate: 40, throttleBurst: 4 } });
    sims.push(sim);
    const provider = createMturkProvider({ mode: "simulator", simulatorUrl: sim.url, throttleGate: { baseMs: 50 } });
    // Twelve lanes of five calls each: far over 4 at once and 40 per second.
    const balances = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const out = [];
        for (let i = 0; i < 5; i++) out.push((await provider.getBalance()).availableCents);
        return out;
      }),
    );
    expect(balances.flat()).toHaveLength(60);
    expect(sim.stats.throttled).toBeGreaterThan(0);
    // Each throttled request reached the gate (none was retried inside the SDK), and the gate paused less often than
    // it was told: the throttled calls of one opening close it once.
    expect(provider.gate.stats.throttled).toBe(sim.stats.throttled);
    expect(sim.stats.requests).toBe(60 + sim.stats.throttled);
    expect(provider.gate.stats.pauses).toBeGreaterThan(0);
    expect(provider.gate.stats.pauses).toBeLessThan(provider.gate.stats.throttled);

    // When the throttling does not stop, the call fails after its attempts with the throttled code.
    sim.setFaults({ throttleFraction: 1 });
    const stubborn = createMturkProvider({ mode: "simulator", simulatorUrl: sim.url, throttleAttempts: 2, throttleGate: { baseMs: 5 } });
    const before = sim.stats.requests;
    await crowdError(stubborn.getBalance(), "throttled");
    expect(sim.stats.requests - before).toBe(3);
  });

  it("keeps going when the SDK stops retrying, and approve/reject survive lost responses", async () => {
    // maxAttempts 1 = the SDK does not retry (as when its retry quota is exhausted): the provider's own attempts do.
    const { sim, clock } = await setup({ faults: { serviceFaultRate: 0.3, throttleFraction: 0.1, faultAfterApplyFraction: 0.5 } });
    const provider = new MturkProvider({ client: createMturkClient({ mode: "simulator", simulatorUrl: sim.url, maxAttempts: 1 }), mode: "simulator", retries: 8, retryBaseMs: 5, throttleGate: { baseMs: 5 } });
    const published = [];
    for (let i = 0; i < 15; i++) published.push(await provider.publishHit(publishInput(`flaky-${i}`)));
    expect(sim.state.hitOrder).toHaveLength(15);
    expect(new Set(published.map((p) => p.providerHitId)).size).toBe(15);
    expect(sim.stats.serviceFaults + sim.stats.throttled).toBeGreaterThan(0);

    sim.setFaults({ serviceFaultRate: 1, faultAfterApplyFraction: 1, operations: ["ApproveAssignment", "RejectAssignment"] });
    const hitId = published[0].providerHitId;
    const [a, b] = ["AWORKERONE0001", "AWORKERTWO0002"].map((w) => {
      const id = sim.service.acceptHit({ workerId: w, hitId });
      clock.advance(5);
      sim.service.submitAssignment({ assignmentId: id, fields: { x: "y" } });
      return id;
    });
    await provider.approveAssignment({ assignmentId: a });
    await provider.rejectAssignment({ assignmentId: b, feedback: "no" });
    expect(sim.state.assignments[a].status).toBe("Approved");
    expect(sim.state.assignments[b].status).toBe("Rejected");
    // but approving a rejected assignment (without override) is still an error
    sim.setFaults({});
    await crowdError(provider.approveAssignment({ assignmentId: b }), "invalid_assignment_state");

    // listing resumes from the last page's token after a transient failure
    for (const w of ["AWORKERTHREE03"]) {
      const id = sim.service.acceptHit({ workerId: w, hitId });
      sim.service.submitAssignment({ assignmentId: id, fields: { x: "y" } });
    }
    sim.setFaults({ serviceFaultRate: 0.4, faultAfterApplyFraction: 0, operations: ["ListAssignmentsForHIT"] });
    for (let round = 0; round < 5; round++) {
      expect((await collect(provider.listSubmittedAssignments({ providerHitId: hitId, pageSize: 1 }))).map((x) => x.workerId)).toEqual([
        "AWORKERONE0001",
        "AWORKERTWO0002",
        "AWORKERTHREE03",
      ]);
    }
  });

  it("toCrowdError keeps CrowdErrors and maps unknown errors", () => {
    const ce = new CrowdError("x", "not_found");
    expect(toCrowdError(ce, { operation: "GetHIT", mode: "production" })).toBe(ce);
    const unknown = toCrowdError(new Error("boom"), { operation: "GetHIT", mode: "production" });
    expect(unknown.code).toBe("unknown");
    expect(unknown.message).toBe("MTurk error (GetHIT): boom");
  });
});
