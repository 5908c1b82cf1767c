import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { markTweetsGold, SKIP, unmarkTweetsGold } from "./gold-marking";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { applyGoldRequest, planGoldFromImport, requestGoldChange } from "./gold-requests";
import { loadGoldPool } from "./gold-pool";
import { ensureHumaidScheme } from "@/lib/labels/schemes";

const LABELS = HUMAID_LABELS.map((l) => l.value);

describe.each(testFlavors())("marking gold (%s)", (flavor) => {
  let t: TestDb;
  let eventId: string;
  let importId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    const schemeId = await ensureHumaidScheme(t.db);
    eventId = (await t.db.event.create({ data: { slug: "g", name: "g", type: "flood", schemeId, settings: {}, filters: {}, locations: [] } })).id;
    importId = (await t.db.importBatch.create({ data: { eventId, kind: "tweets", fileName: "f.csv", fileHash: "h", fileSize: 1 } })).id;
    // 3 labels × 6 labelled tweets, plus 4 without a scheme label.
    const rows = [
      ...["caution_and_advice", "sympathy_and_support", "not_humanitarian"].flatMap((label, c) => Array.from({ length: 6 }, (_, i) => ({ externalId: `${c + 1}0${i}`, sourceLabel: label }))),
      ...Array.from({ length: 4 }, (_, i) => ({ externalId: `90${i}`, sourceLabel: i % 2 ? "Not labeled" : null })),
    ];
    for (const r of rows) await t.db.tweet.create({ data: { eventId, importId, text: `tweet ${r.externalId}`, ...r } });
  });
  afterEach(async () => t.cleanup());

  const idOf = async (externalId: string) => (await t.db.tweet.findUniqueOrThrow({ where: { eventId_externalId: { eventId, externalId } } })).id;

  it("marks an unknown tweet gold and back; audits both; refuses labels outside the scheme", async () => {
    const id = await idOf("100");
    expect(await markTweetsGold(t.db, { eventId, picks: [{ id, label: "caution_and_advice" }], schemeLabels: LABELS, actorId: null })).toEqual({ changed: 1, retired: 0, skipped: {} });
    expect(await t.db.tweet.findUniqueOrThrow({ where: { id }, select: { role: true, goldLabel: true } })).toEqual({ role: "gold", goldLabel: "caution_and_advice" });
    expect(await markTweetsGold(t.db, { eventId, picks: [{ id, label: "caution_and_advice" }], schemeLabels: LABELS, actorId: null })).toEqual({ changed: 0, retired: 0, skipped: { [SKIP.alreadyGold]: 1 } });
    expect((await markTweetsGold(t.db, { eventId, picks: [{ id: await idOf("901"), label: "Not labeled" }], schemeLabels: LABELS, actorId: null })).skipped).toEqual({ [SKIP.noLabel]: 1 });
    // Unused gold goes back to an unknown tweet to annotate.
    expect(await unmarkTweetsGold(t.db, { eventId, ids: [id], actorId: null })).toEqual({ changed: 1, retired: 0, skipped: {} });
    expect(await t.db.tweet.findUniqueOrThrow({ where: { id }, select: { role: true, goldLabel: true, status: true } })).toEqual({ role: "unknown", goldLabel: null, status: "pending" });
    const audit = await t.db.auditLog.findMany({ where: { eventId, entityId: id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["mark-gold", "unmark-gold"]);
  });

  it("unmarking gold used in a qualification test retires it instead", async () => {
    const id = await idOf("200");
    await markTweetsGold(t.db, { eventId, picks: [{ id, label: "sympathy_and_support" }], schemeLabels: LABELS, actorId: null });
    await t.db.qualificationTest.create({ data: { eventId, schemeId: (await t.db.event.findUniqueOrThrow({ where: { id: eventId } })).schemeId, name: "q", goldTweetIds: [id], passPercent: 60, provider: "local", questionFormXml: "", answerKeyXml: "" } });
    expect(await unmarkTweetsGold(t.db, { eventId, ids: [id], actorId: null })).toEqual({ changed: 0, retired: 1, skipped: {} });
    expect(await t.db.tweet.findUniqueOrThrow({ where: { id }, select: { role: true, status: true } })).toEqual({ role: "gold", status: "retired" });
  });

  it("makes N per class from an upload's labels, seeded; the rest stay unknown; the pool check sees it", async () => {
    const plan = await planGoldFromImport(t.db, { eventId, importId, perClass: 4, seed: 5 });
    expect(plan.classes).toEqual([
      { label: "caution_and_advice", available: 6, picked: 4 },
      { label: "sympathy_and_support", available: 6, picked: 4 },
      { label: "not_humanitarian", available: 6, picked: 4 },
    ].sort((a, b) => LABELS.indexOf(a.label) - LABELS.indexOf(b.label)));
    expect(plan.remaining).toBe(22 - 12);
    // The same seed picks the same tweets; another seed (almost surely) others.
    expect((await planGoldFromImport(t.db, { eventId, importId, perClass: 4, seed: 5 })).picks).toEqual(plan.picks);
    expect((await planGoldFromImport(t.db, { eventId, importId, perClass: 4, seed: 6 })).picks).not.toEqual(plan.picks);

    const done = await applyGoldRequest(t.db, { eventId, actorId: null, request: { kind: "fromImport", importId, perClass: 4, seed: 5 } });
    expect(done.outcome.changed).toBe(12);
    const gold = await t.db.tweet.findMany({ where: { eventId, role: "gold" }, select: { id: true, goldLabel: true, sourceLabel: true } });
    expect(gold.map((g) => g.id).sort()).toEqual(plan.picks.map((p) => p.id).sort());
    expect(gold.every((g) => g.goldLabel === g.sourceLabel)).toBe(true);
    expect(await t.db.tweet.count({ where: { eventId, role: "unknown" } })).toBe(10);

    // 12 gold < 10 questions + 10 per HIT (the defaults): too small; 4/4/4 is balanced.
    const pool = await loadGoldPool(t.db, eventId);
    expect(pool).toMatchObject({ total: 12, needed: 20, tooSmall: true, unbalanced: false, balance: 1 });
  });

  it("marks every tweet matching the filters with its file label, and unmarks them", async () => {
    const marked = await applyGoldRequest(t.db, { eventId, actorId: null, request: { kind: "filter", mode: "mark", goldLabel: null, filter: { q: "tweet 90" } } });
    // 900 and 902 have no label, 901 has one outside the scheme.
    expect(marked.outcome).toEqual({ changed: 0, retired: 0, skipped: { [SKIP.noLabel]: 4 } });
    const all = await applyGoldRequest(t.db, { eventId, actorId: null, request: { kind: "filter", mode: "mark", goldLabel: "caution_and_advice", filter: { q: "tweet 30" } } });
    expect(all.outcome.changed).toBe(6);
    expect(await t.db.tweet.count({ where: { eventId, role: "gold", goldLabel: "caution_and_advice" } })).toBe(6);
    const unmarked = await applyGoldRequest(t.db, { eventId, actorId: null, request: { kind: "filter", mode: "unmark", goldLabel: null, filter: { role: "gold" } } });
    expect(unmarked.outcome.changed).toBe(6);
    expect(unmarked.message).toBe("6 unmarked.");
    expect(await t.db.tweet.count({ where: { eventId, role: "gold" } })).toBe(0);
  });

  it("runs a large change as a recorded 'gold' job, a small one at once", async () => {
    const request = { kind: "filter" as const, mode: "mark" as const, goldLabel: null, filter: { q: "tweet 10" } };
    const queued = await requestGoldChange(t.db, { eventId, actorId: null, request }, 5);
    expect(queued.queued).toBe(true);
    expect(await t.db.tweet.count({ where: { eventId, role: "gold" } })).toBe(0);
    const job = await t.db.job.findFirstOrThrow({ where: { eventId, type: JOBS.gold.type } });
    expect(await drainJobs(t.db, { registry: accordJobs({ loadClassifier: null }), types: [JOBS.gold.type] })).toEqual(["succeeded"]);
    expect(await t.db.tweet.count({ where: { eventId, role: "gold", goldLabel: "caution_and_advice" } })).toBe(6);
    expect((await t.db.job.findUniqueOrThrow({ where: { id: job.id } })).result).toMatchObject({ changed: 6, message: "6 marked as gold." });
    const inline = await requestGoldChange(t.db, { eventId, actorId: null, request: { ...request, mode: "unmark" } }, 10);
    expect(inline).toEqual({ queued: false, message: "6 unmarked." });
  });
});
