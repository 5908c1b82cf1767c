import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { dedupeTokens } from "@/lib/ingest/dedupe/normalize";
import { DEMO_EVENTS, DEMO_LABELS, DEMO_PROLIFIC_EVENT, generateTweets } from "./generate";
import { seedDemo } from "./seed-demo";
import { seedSyntheticCampaign } from "./synthetic-campaign";

describe("demo tweet generator", () => {
  it("is deterministic, covers every HumAID label, and writes tweets that pass the 3-word filter", () => {
    const spec = DEMO_EVENTS[0];
    const a = generateTweets(spec, { count: 2000, seed: "s", idBase: 1_900_000_000_000_000_000n });
    const b = generateTweets(spec, { count: 2000, seed: "s", idBase: 1_900_000_000_000_000_000n });
    expect(a).toEqual(b);
    expect(new Set(a.map((t) => t.externalId)).size).toBe(2000);
    expect(new Set(a.map((t) => t.text)).size).toBe(2000);
    expect(new Set(DEMO_LABELS)).toEqual(new Set(HUMAID_LABELS.map((l) => l.value)));
    const labels = new Set(a.map((t) => t.label));
    for (const l of DEMO_LABELS) expect(labels.has(l), l).toBe(true);
    for (const t of a) expect(dedupeTokens(t.text).length, t.text).toBeGreaterThanOrEqual(3);
    // Ids are 19-digit numbers growing with time.
    expect(a.every((t) => /^\d{19}$/.test(t.externalId))).toBe(true);
    const other = generateTweets(spec, { count: 50, seed: "other", idBase: 1_900_000_000_000_000_000n });
    expect(other.map((t) => t.text)).not.toEqual(a.slice(0, 50).map((t) => t.text));
  });
});

describe.each(testFlavors())("seedDemo and the synthetic campaign on %s", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("seeds an empty database once, returns the same truth later, and stays out of a used database", async () => {
    const options = { tweetsPerEvent: [120, 100, 80, 40], goldPerEvent: 30 };
    const first = await seedDemo(t.db, options);
    expect(first.created).toBe(true);
    expect(first.events.map((e) => e.slug)).toEqual([...DEMO_EVENTS, DEMO_PROLIFIC_EVENT].map((e) => e.slug));
    expect(first.truth.size).toBe(120 + 100 + 80 + 40 + 4 * 30);
    const events = await t.db.event.findMany({ select: { type: true, slug: true, provider: true } });
    expect(new Set(events.map((e) => e.type)).size).toBe(4);
    // Three MTurk events and the small Prolific one.
    expect(events.filter((e) => e.provider === "prolific").map((e) => e.slug)).toEqual([DEMO_PROLIFIC_EVENT.slug]);
    expect(events.filter((e) => e.provider === "mturk")).toHaveLength(3);
    expect(await t.db.tweet.count({ where: { role: "gold" } })).toBe(120);
    const gold = await t.db.tweet.findMany({ where: { role: "gold" }, select: { externalId: true, goldLabel: true } });
    for (const g of gold) expect(g.goldLabel).toBe(first.truth.get(g.externalId));

    const again = await seedDemo(t.db, options);
    expect(again.created).toBe(false);
    expect(again.events).toEqual(first.events);
    expect([...again.truth.entries()].sort()).toEqual([...first.truth.entries()].sort());
    expect(await t.db.tweet.count()).toBe(460);
  });

  it("does not touch a database that already has other events", async () => {
    const scheme = await t.db.labelScheme.create({ data: { slug: "x", name: "x" } });
    await t.db.event.create({ data: { slug: "mine", name: "Mine", type: "flood", locations: [], schemeId: scheme.id, settings: {}, filters: {} } });
    const r = await seedDemo(t.db, { tweetsPerEvent: [10], goldPerEvent: 10 });
    expect(r).toEqual({ events: [], truth: new Map(), created: false });
    expect(await t.db.event.count()).toBe(1);
  });

  it("writes a consistent finished campaign by the paper's rules", async () => {
    const demo = await seedDemo(t.db, { tweetsPerEvent: [200, 10, 10], goldPerEvent: 30 });
    const eventId = demo.events[0].id;
    const tweets = await t.db.tweet.findMany({ where: { eventId }, select: { id: true, externalId: true } });
    const truth = new Map(tweets.map((tw) => [tw.id, demo.truth.get(tw.externalId) as string]));
    const r = await seedSyntheticCampaign(t.db, { eventId, truth, labels: DEMO_LABELS, hits: 8, seed: 1, openHits: 1 });
    expect(r.hits).toBe(8);
    expect(await t.db.hit.count({ where: { eventId } })).toBe(8);
    expect(await t.db.hitItem.count()).toBe(8 * 30);
    expect(r.judgments).toBe(r.assignments * 30);
    expect(await t.db.judgment.count()).toBe(r.judgments);
    // Decided assignments: approved iff ≥ 7/10 gold correct.
    const decided = await t.db.assignment.findMany({ where: { decision: { not: null } }, select: { status: true, goldCorrect: true, goldTotal: true } });
    for (const a of decided) expect(a.status === "approved").toBe((a.goldCorrect as number) * 10 >= 7 * (a.goldTotal as number));
    // Accepted labels meet 2/3 of their approved judgments.
    const accepted = await t.db.acceptedLabel.findMany({ where: { eventId } });
    expect(accepted.length).toBe(r.acceptedTweets);
    for (const a of accepted) expect(3 * a.topVotes).toBeGreaterThanOrEqual(2 * a.totalVotes);
    expect(await t.db.tweet.count({ where: { eventId, status: "accepted" } })).toBe(r.acceptedTweets);
    expect(await t.db.tweet.count({ where: { eventId, status: "in_hit" } })).toBe(20);
    expect(await t.db.hit.count({ where: { eventId, status: "published" } })).toBe(1);
    // Ledger and audit: one reward and one fee per approved assignment, one audit row per decision.
    expect(await t.db.costEntry.count({ where: { kind: "reward" } })).toBe(r.approved);
    expect(await t.db.auditLog.count({ where: { entityType: "assignment" } })).toBe(decided.length);
    const snapshots = await t.db.metricSnapshot.findMany({ where: { eventId }, orderBy: { at: "asc" } });
    expect(snapshots.length).toBe(12);
    expect(snapshots[snapshots.length - 1].fleissKappa).toBeGreaterThan(0.3);
    const workers = await t.db.worker.aggregate({ _sum: { assignmentsApproved: true, assignmentsRejected: true } });
    expect(workers._sum.assignmentsApproved).toBe(r.approved);
    expect(workers._sum.assignmentsRejected).toBe(r.rejected);
  });
});
