import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { attentionChecksFor, attentionOf } from "@/lib/crowd/attention-checks";
import { answerFields, parseQuestionFormAnswers } from "@/lib/crowd/mturk/answers";
import { MIN_REJECTION_MESSAGE_LENGTH } from "@/lib/crowd/prolific/api-types";
import { ASSIGNMENT_STATUS, DECISION } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { prolificTaskHandlers } from "@/lib/task/prolific-route";
import { saveCrowdPolicy } from "./prelaunch-check";
import { setupProlificCampaign, takeScreening, workOnProlific, type ProlificCampaign } from "./prolific-fixture";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { answers, otherLabel, PUBLISH_OPTIONS, publishQueued, syncUntilIdle } from "./test-fixture";

// Instructed-response attention checks on Prolific (issue 31): with the checks on and failed checks rejected, a
// submission failing both of its HIT's 2 checks (a study of 20 estimated minutes) is rejected as FAILED_CHECK with a
// message naming them, one failed check is not enough, the study's rejection cap holds (the rest are held), and the
// checks are neither judgments nor gold.

const participant = (i: number) => `7100000000000000000000${String(i).padStart(2, "0")}`;
const POLICY = { attentionChecks: true, rejectFailedChecks: true };

/** What Accord asked Prolific to reject: submission, category, message. */
function recordRejections(f: ProlificCampaign): Array<[string, string, string]> {
  const rejections: Array<[string, string, string]> = [];
  const reject = f.provider.client.rejectSubmission.bind(f.provider.client);
  f.provider.client.rejectSubmission = async (id, category, message) => {
    rejections.push([id, category, message]);
    return reject(id, category, message);
  };
  return rejections;
}

/** Each assignment's failed checks, recomputed from its stored answer document and its HIT's id. */
async function failedChecks(f: ProlificCampaign) {
  const rows = await f.db.assignment.findMany({ include: { answer: true, hit: { select: { id: true, _count: { select: { items: true } } } }, worker: { select: { externalId: true } } } });
  return rows.map((a) => {
    const checks = attentionChecksFor(a.hit.id, HUMAID_LABELS, a.hit._count.items);
    return { a, failed: attentionOf(checks, answerFields(parseQuestionFormAnswers(a.answer?.raw ?? "")), HUMAID_LABELS)?.failed ?? [] };
  });
}

/** Judgments are the tweets' answers only: per assignment one per HIT item (30), its gold among them 10. */
async function expectChecksNotJudgments(f: ProlificCampaign) {
  const rows = await f.db.assignment.findMany({ select: { id: true, goldTotal: true, hit: { select: { items: { select: { id: true } } } }, judgments: { select: { hitItemId: true } } } });
  expect(rows.length).toBeGreaterThan(0);
  for (const a of rows) {
    expect(a.judgments).toHaveLength(a.hit.items.length);
    expect(new Set(a.judgments.map((j) => j.hitItemId))).toEqual(new Set(a.hit.items.map((i) => i.id)));
    expect(a.goldTotal).toBe(10);
  }
}

/** Accord's Prolific task page behind a plain HTTP server (what Next.js does for app/prolific/task/route.ts). */
async function serve(handlers: ReturnType<typeof prolificTaskHandlers>): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
        const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === "POST" ? Buffer.concat(chunks) : undefined });
        const response = req.method === "POST" ? await handlers.POST(request) : await handlers.GET(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each(testFlavors())("Prolific attention checks in a campaign (%s)", (flavor) => {
  let f: ProlificCampaign | null = null;
  let server: Server | null = null;
  afterEach(async () => {
    await f?.close();
    f = null;
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
  });

  it("two failed checks reject as FAILED_CHECK with a message naming them; one does not; at the cap the next is held", async () => {
    const c = (f = await setupProlificCampaign({ flavor, unknown: 80 }));
    // The checks are off when the batch starts: the first participant's page shows none.
    await saveCrowdPolicy(c.db, { eventId: c.eventId, raw: { rejectionCapShare: 0.1 }, actorId: null });
    await createQualificationTest({ db: c.db, provider: c.provider, eventId: c.eventId, seed: 1 });
    for (let i = 0; i < 12; i++) expect((await takeScreening(c, participant(i), 10)).passed).toBe(true);
    const { batch } = await createHitBatch({ db: c.db, eventId: c.eventId, provider: c.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 4 } });
    expect(await publishQueued(c)).toEqual(["succeeded"]);
    const hits = await c.db.hit.findMany({ where: { batchId: batch.id }, orderBy: { seq: "asc" } });
    const rejections = recordRejections(c);

    // 0 works on a page without checks (all gold right); then the checks are turned on: 1–7 follow both with all
    // gold right; 8 follows both with gold below the rule; 9 fails one check; 10 and 11 fail both (all gold right).
    const failing: Record<number, number> = { 9: 1, 10: 2, 11: 2 };
    const subs = [await workOnProlific(c, participant(0), hits[0]!.id, answers(10, (it) => it.truth), 600)];
    await saveCrowdPolicy(c.db, { eventId: c.eventId, raw: { ...POLICY, rejectionCapShare: 0.1 }, actorId: null });
    for (let i = 1; i < 12; i++) {
      const hit = hits[Math.floor(i / 3)]!;
      const checks = attentionChecksFor(hit.id, HUMAID_LABELS, 30);
      const given = Object.fromEntries(checks.map((ch, k) => [ch.fieldName, k < (failing[i] ?? 0) ? otherLabel(ch.value) : ch.value]));
      subs.push(await workOnProlific(c, participant(i), hit.id, answers(i === 8 ? 4 : 10, (it) => it.truth), 600, given));
    }
    await syncUntilIdle(c);
    const byWorker = async (i: number) => c.db.assignment.findFirstOrThrow({ where: { worker: { externalId: participant(i) } } });

    for (let i = 0; i < 8; i++) expect([(await byWorker(i)).status, (await byWorker(i)).excludedReason]).toEqual([ASSIGNMENT_STATUS.approved, null]);
    // The page without checks answered none: nothing it could have failed (not two failed checks).
    const before = await c.db.assignmentAnswer.findUniqueOrThrow({ where: { assignmentId: (await byWorker(0)).id } });
    expect(before.raw).not.toContain("check-");
    // Below the gold rule with the checks followed: approved and excluded, as without checks (gold is no check).
    const below = await byWorker(8);
    expect(below.status).toBe(ASSIGNMENT_STATUS.approved);
    expect(below.excludedReason).toMatch(/^Approved and excluded: 4 of 10 gold tweets correct/);
    // One failed check in a 20-minute study: not a reason to reject.
    expect((await byWorker(9)).status).toBe(ASSIGNMENT_STATUS.approved);

    const rejected = await byWorker(10);
    expect([rejected.status, rejected.decision]).toEqual([ASSIGNMENT_STATUS.rejected, DECISION.reject]);
    const message = rejected.feedback ?? "";
    expect(message.length).toBeGreaterThanOrEqual(MIN_REJECTION_MESSAGE_LENGTH);
    const [first, second] = attentionChecksFor(hits[3]!.id, HUMAID_LABELS, 30);
    expect(message).toMatch(/^Your submission failed 2 of this study's attention checks \(/);
    for (const ch of [first!, second!]) {
      expect(message).toContain(`check ${ch.number} (after tweet ${ch.after}): asked for “${ch.name}”, answered “${HUMAID_LABELS.find((l) => l.value === otherLabel(ch.value))!.name}”`);
    }
    expect(rejections).toEqual([[subs[10], "FAILED_CHECK", message]]);
    expect(c.prolific.state.submissions[subs[10]!]!.status).toBe("REJECTED");

    // The cap (10% of 12 places = 1) is reached: the next is held for review, still awaiting review on Prolific.
    const held = await byWorker(11);
    expect([held.status, held.decision]).toEqual([ASSIGNMENT_STATUS.held, DECISION.hold]);
    expect(held.feedback).toMatch(/^Held for review: FAILED_CHECK would apply, but this study has rejected 1 of 12 places/);
    expect(c.prolific.state.submissions[subs[11]!]!.status).toBe("AWAITING REVIEW");

    // The grading the sync did is the one recomputed from the stored answers.
    const recomputed = new Map((await failedChecks(c)).map((r) => [r.a.worker.externalId, r.failed.length]));
    expect(Array.from({ length: 12 }, (_, i) => recomputed.get(participant(i)))).toEqual(Array.from({ length: 12 }, (_, i) => failing[i] ?? 0));
    await expectChecksNotJudgments(c);
  });

  it("simulated participants, spammers among them, on Accord's page over HTTP: who fails both checks is rejected up to the cap, then held", { timeout: 300_000 }, async () => {
    let campaign: ProlificCampaign | null = null;
    const http = await serve(prolificTaskHandlers({ db: () => campaign!.db, provider: async () => campaign!.provider }));
    server = http.server;
    // 15 participants for 15 places. The checks' labels follow the HIT ids (random per run), so how many spammers fail
    // both varies; each does with probability about 0.8, and 10 of them leave the cap (1) far behind.
    const mix = { careful: 3, average: 2, "spammer-random": 5, "spammer-constant": 5 };
    const c = (f = campaign = await setupProlificCampaign({ flavor, unknown: 100, participants: mix, taskUrl: `${http.url}/prolific/task` }));
    await saveCrowdPolicy(c.db, { eventId: c.eventId, raw: { ...POLICY, rejectionCapShare: 0.1 }, actorId: null });
    const test = await createQualificationTest({ db: c.db, provider: c.provider, eventId: c.eventId, seed: 1 });
    // The screening is not what this test is about: its study is paused and every participant is qualified.
    const screening = Object.values(c.prolific.state.studies).find((s) => s.internal_name?.startsWith("accord-qual:"))!;
    await c.provider.client.transitionStudy(screening.id, "PAUSE");
    for (const p of c.prolific.state.pool ?? []) await c.provider.grantQualification({ qualificationTypeId: test.providerQualTypeId as string, workerId: p.participantId });
    const { batch } = await createHitBatch({ db: c.db, eventId: c.eventId, provider: c.provider, options: { ...PUBLISH_OPTIONS, rewardCents: 300, hitCount: 5 } });
    expect(await publishQueued(c)).toEqual(["succeeded"]);
    const places = (await c.db.hit.findMany({ where: { batchId: batch.id } })).reduce((n, h) => n + h.maxAssignments, 0);
    const rejections = recordRejections(c);

    const participants = c.prolific.participants!;
    const studyIds = new Set((await c.db.hit.findMany({ where: { batchId: batch.id } })).map((h) => (h.providerHitId ?? "").split(":")[0]));
    const done = () => Object.values(c.prolific.state.submissions).filter((s) => studyIds.has(s.study_id) && s.status === "AWAITING REVIEW");
    for (let round = 0; round < 60 && done().length < places; round++) {
      await participants.step();
      c.pclock.advance(300);
    }
    expect(participants.stats.errors.filter((e) => e.includes("/prolific/task"))).toEqual([]);
    expect(done()).toHaveLength(places);
    await syncUntilIdle(c);

    const profileOf = new Map((c.prolific.state.pool ?? []).map((p) => [p.participantId, p.profile]));
    const graded = await failedChecks(c);
    expect(graded).toHaveLength(places);
    const failing = graded.filter((g) => g.failed.length >= 2);
    const cap = Math.floor(0.1 * places);
    // Spammers fail the checks (a random answer, or one label for every item, while the 2 checks ask for different ones).
    expect(failing.filter((g) => profileOf.get(g.a.worker.externalId)?.startsWith("spammer")).length).toBeGreaterThan(cap);
    // Careful participants follow the instructions.
    for (const g of graded) if (profileOf.get(g.a.worker.externalId) === "careful") expect(g.failed.length, g.a.worker.externalId).toBeLessThan(2);

    // Who fails both is rejected as FAILED_CHECK with the message naming its failed checks, up to the cap; the rest held.
    const rejected = failing.filter((g) => g.a.decision === DECISION.reject);
    expect(rejected).toHaveLength(Math.min(cap, failing.length));
    for (const g of rejected) {
      expect((g.a.feedback ?? "").length).toBeGreaterThanOrEqual(MIN_REJECTION_MESSAGE_LENGTH);
      for (const name of g.failed) expect(g.a.feedback).toContain(name);
      expect(c.prolific.state.submissions[g.a.providerAssignmentId]!.status).toBe("REJECTED");
    }
    expect(new Set(rejections.map(([id, category, message]) => `${id} ${category} ${message}`))).toEqual(new Set(rejected.map((g) => `${g.a.providerAssignmentId} FAILED_CHECK ${g.a.feedback}`)));
    for (const g of failing.filter((x) => x.a.decision !== DECISION.reject)) {
      expect([g.a.status, g.a.decision]).toEqual([ASSIGNMENT_STATUS.held, DECISION.hold]);
      expect(g.a.feedback).toMatch(new RegExp(`^Held for review: FAILED_CHECK would apply, but this study has rejected ${cap} of ${places} places`));
    }
    // Fewer than two failed checks: never rejected nor held for the checks.
    for (const g of graded.filter((x) => x.failed.length < 2)) expect(g.a.decision).toBe(DECISION.approve);
    await expectChecksNotJudgments(c);
  });
});
