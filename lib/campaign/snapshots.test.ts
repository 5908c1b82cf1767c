import { afterEach, describe, expect, it } from "vitest";
import { testFlavors } from "@/lib/db/test-db";
import { encodeJudgments } from "@/lib/metrics/judgments";
import { eventAgreementReport } from "@/lib/metrics/report";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { table3Figures } from "@/lib/metrics/table3";
import { MEASURES, parseStoredScopes, toStoredFigures } from "@/lib/analysis/table3-scopes";
import { computeEventAgreement, recordMetricSnapshot } from "./snapshots";
import { answers, type CampaignFixture, type ItemView, otherLabel, publishQueued, setupCampaign, syncUntilIdle, takeTest, work } from "./test-fixture";

const W = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003", "AWORKER0000004", "AWORKER0000005", "AWORKER0000006"];
const SPAMMER = "ASPAMMER000001";

// The agreement snapshot reads the event's judgments with one raw query; it must see exactly what the metrics'
// definition asks for: the approved (counted) judgments of unknown tweets of this event, in submission order
// (κ and observed agreement use each tweet's FIRST three, so the order matters on extended HITs).
describe.each(testFlavors())("the event's agreement for its snapshots (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("is Table 3 over the counted judgments of unknown tweets, first three by submission order", async () => {
    f = await setupCampaign({ flavor, unknown: 40, workerIds: [...W, SPAMMER] });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    for (const w of [...W, SPAMMER]) await takeTest(f, w, 10);
    const { batch } = await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: 2, rewardCents: 50, lifetimeSeconds: 86_400, durationSeconds: 3_600, autoApprovalSeconds: 259_200, title: "T", description: "D", keywords: "k", seed: 5 },
    });
    expect(await publishQueued(f)).toEqual(["succeeded"]);
    const [h1, h2] = await f.db.hit.findMany({ where: { batchId: batch.id }, orderBy: { seq: "asc" }, select: { id: true, providerHitId: true } });
    expect(await computeEventAgreement(f.db, f.eventId)).toBeNull();

    // HIT 1: two of the first three workers leave tweets 12–19 unanswered, so the HIT is extended; then one
    // worker answers every tweet wrongly and one rightly. Tweets 0–11 have five judgments whose first three agree.
    await work(f, W[0], h1.id, answers(10, (it) => it.truth));
    await work(f, W[1], h1.id, answers(10, (it) => (it.index < 12 ? it.truth : null)));
    await work(f, W[2], h1.id, answers(10, (it) => (it.index < 12 ? it.truth : null)));
    // HIT 2: a spammer's assignment is rejected (gold 2/10): its judgments never count.
    await work(f, W[0], h2.id, answers(10, (it) => it.truth));
    await work(f, SPAMMER, h2.id, answers(2, (it) => otherLabel(it.truth, 3)));
    await work(f, W[1], h2.id, answers(10, (it) => (it.index % 2 ? it.truth : otherLabel(it.truth, 1))));
    await syncUntilIdle(f);
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: h1.id } })).status).toBe("extended");
    for (const [w, answer] of [
      [W[3], (it: ItemView) => otherLabel(it.truth)],
      [W[4], (it: ItemView) => it.truth],
    ] as const) {
      for (const h of [h1, h2]) {
        if (f.sim.service.listAssignableHits(w).includes(h.providerHitId as string)) await work(f, w, h.id, answers(10, answer));
      }
      await syncUntilIdle(f);
    }
    expect((await f.db.hit.findUniqueOrThrow({ where: { id: h1.id } })).status).toBe("approved");
    const approvedOnH1 = await f.db.assignment.count({ where: { hitId: h1.id, status: "approved" } });
    expect(approvedOnH1).toBe(5);
    expect(await f.db.judgment.count({ where: { isGold: false, counted: true, hitItem: { hitId: h1.id } } })).toBe(20 * approvedOnH1 - 2 * 8); // two left 8 unanswered
    expect(await f.db.assignment.count({ where: { worker: { externalId: SPAMMER }, status: "rejected" } })).toBe(1);

    // The same measures from the judgments read through the ORM, in submission order.
    const rows = await f.db.judgment.findMany({
      where: { counted: true, isGold: false, tweet: { eventId: f.eventId } },
      select: { tweetId: true, workerId: true, label: true },
      orderBy: [{ createdAt: "asc" }, { assignmentId: "asc" }],
    });
    const expected = eventAgreementReport(encodeJudgments(rows.map((r) => ({ item: r.tweetId, annotator: r.workerId, label: r.label })), { duplicates: "first" }));
    const report = await computeEventAgreement(f.db, f.eventId);
    expect(report).toEqual(expected);
    expect(report?.annotations).toBe(rows.length);
    expect(report?.items).toBe(40);
    // The data is order-sensitive (κ and observed agreement see the first three judgments: on HIT 1's tweets 0–11
    // those agree fully, the last three do not), so the equality above checks the order too.
    const reversed = eventAgreementReport(encodeJudgments(rows.toReversed().map((r) => ({ item: r.tweetId, annotator: r.workerId, label: r.label })), { duplicates: "first" }));
    expect(reversed.fleissKappa).not.toBeCloseTo(report?.fleissKappa as number, 3);
    expect(report?.firstJudgments).toEqual({ count: 3, items: 40, excludedItems: 0 });

    // The snapshot stores Table 3 in both scopes: all judged tweets, and only those with an accepted label (every
    // tweet here got one, so five labels are withdrawn to make the scopes differ).
    const withdrawn = await f.db.acceptedLabel.findMany({ where: { eventId: f.eventId }, select: { id: true }, orderBy: { tweetId: "asc" }, take: 5 });
    await f.db.acceptedLabel.deleteMany({ where: { id: { in: withdrawn.map((w) => w.id) } } });
    const snap = await recordMetricSnapshot(f.db, f.eventId);
    const scopes = parseStoredScopes(snap?.scopes);
    const acceptedIds = new Set((await f.db.acceptedLabel.findMany({ where: { eventId: f.eventId }, select: { tweetId: true } })).map((a) => a.tweetId));
    expect(acceptedIds.size).toBe(35);
    const agreedRows = rows.filter((r) => acceptedIds.has(r.tweetId)).map((r) => ({ item: r.tweetId, annotator: r.workerId, label: r.label }));
    const expectedAgreed = toStoredFigures(table3Figures(encodeJudgments(agreedRows, { duplicates: "first" })));
    for (const m of MEASURES) expect(scopes?.agreed[m]).toBeCloseTo(expectedAgreed[m] as number, 12);
    expect(scopes?.agreed.judgments).toBe(expectedAgreed.judgments);
    expect(scopes?.all.fleissKappa).toBeCloseTo(report?.fleissKappa as number, 12);
    expect(scopes?.agreed.items).toBe(35);
    expect(scopes?.all.items).toBe(40);

    // Another event's judgments are not this event's.
    const other = await f.db.event.create({ data: { slug: "other-event", name: "Other", type: "flood", schemeId: (await f.db.event.findUniqueOrThrow({ where: { id: f.eventId } })).schemeId, settings: {}, filters: {}, locations: [] } });
    expect(await computeEventAgreement(f.db, other.id)).toBeNull();
  });
});
