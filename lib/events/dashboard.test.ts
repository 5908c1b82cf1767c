import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReplay } from "@/lib/cli/commands/replay";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { seedEventFixture, type EventFixture } from "@/lib/demo/fixture";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { encodeJudgments } from "@/lib/metrics/judgments";
import { eventAgreementReport } from "@/lib/metrics/report";
import { loadEventAgreement, snapshotSeries } from "@/lib/analysis/agreement";
import { analysisStatus, computeEventAnalysis, EVENT_ANALYSIS_JOB, requestEventAnalysis } from "@/lib/analysis/analysis";
import { compareEvents } from "@/lib/analysis/compare";
import { listEvents, eventListQuerySchema } from "./event-list";
import { findEventBySlug } from "./event-lookup";
import { goldHealth } from "@/lib/gold/gold-health";
import { loadGoldRuleRisk } from "@/lib/gold/gold-rule-risk";
import { formatMoney } from "@/lib/text/format";
import { loadRecordedEvent, replayEvent, replayOutcomes } from "@/lib/analysis/replay";
import { goldRuleRisk, posteriorBelow, predictedRejectProbability } from "@/lib/procedure/wrong-decisions";
import { hitListQuerySchema, listEventHits, loadHitDetail } from "./hits";
import { loadEventOverview } from "./overview";
import { listTweets, tweetQuerySchema, TWEETS_PAGE_SIZE } from "./tweets";
import { listWorkers, workerQuerySchema } from "./workers";

const registry = accordJobs();

describe.each(testFlavors())("dashboard loaders on %s", (flavor) => {
  let t: TestDb;
  let ev: EventFixture;
  let other: EventFixture;
  beforeAll(async () => {
    t = await createTestDb(flavor);
    ev = await seedEventFixture(t.db, { slug: "quake_a", tweets: 260, gold: 40, campaign: { hits: 10, seed: 3, openHits: 2, snapshots: 6 } });
    other = await seedEventFixture(t.db, { slug: "flood_b", type: "flood", tweets: 60, gold: 20, idBase: 1_700_000_000_000_000_000n, campaign: { hits: 2, seed: 4 } });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("overview: the funnel, HIT and assignment counts, decisions over time, spend and the latest decisions agree with the rows", async () => {
    const event = await findEventBySlug(t.db, "quake_a");
    expect(event?.settings.hitSize).toBe(30);
    const o = await loadEventOverview(t.db, { id: ev.eventId, budgetCapCents: 100_000 });
    const c = ev.campaign!;
    expect(o.funnel.tweets).toBe(260);
    expect(o.funnel.gold).toBe(40);
    expect(o.funnel.inHits).toBe(10 * 20);
    expect(o.funnel.pending).toBe(60);
    expect(o.funnel.accepted).toBe(c.acceptedTweets);
    expect(o.funnel.unresolved).toBe(c.unresolvedTweets);
    // Judged: the tweets with a stored judgment (a HIT that ended without work leaves its tweets unjudged).
    const judged = new Set((await t.db.judgment.findMany({ where: { tweet: { eventId: ev.eventId, role: "unknown" } }, select: { tweetId: true } })).map((j) => j.tweetId));
    expect(judged.size).toBeGreaterThanOrEqual(c.acceptedTweets);
    expect(o.funnel.judged).toBe(judged.size);
    expect(o.hitsTotal).toBe(10);
    expect(o.hitStatus.published).toBe(2);
    expect(o.assignmentsTotal).toBe(c.assignments);
    expect(o.assignmentStatus.approved ?? 0).toBe(c.approved);
    expect(o.assignmentStatus.rejected ?? 0).toBe(c.rejected);
    const decided = o.decisions.buckets.reduce((s, b) => s + b.approve + b.reject + b.hold, 0);
    expect(decided).toBe(c.approved + c.rejected);
    // Buckets are contiguous and ordered.
    for (let i = 1; i < o.decisions.buckets.length; i++) expect(o.decisions.buckets[i].t - o.decisions.buckets[i - 1].t).toBe(o.decisions.bucketSeconds * 1000);
    const ledger = await t.db.costEntry.aggregate({ where: { eventId: ev.eventId }, _sum: { amountCents: true } });
    expect(o.spend.totalCents).toBe(ledger._sum.amountCents);
    expect(o.spend.overTime.at(-1)?.cumulativeCents).toBe(ledger._sum.amountCents);
    expect(o.spend.overTime[0].cumulativeCents).toBe(0);
    expect(o.spend.costPerAcceptedLabelCents).toBeCloseTo((ledger._sum.amountCents ?? 0) / c.acceptedTweets, 6);
    expect(o.latestDecisions.length).toBe(15);
    const first = o.latestDecisions[0];
    expect(first.workerExternalId).toMatch(/^A[A-Z0-9]{13}$/);
    expect(first.hitSeq).toBeGreaterThan(0);
    expect(first.threshold).toBe("7/10");
    expect(first.reason).toMatch(/gold tweets correct/);
    for (let i = 1; i < o.latestDecisions.length; i++) expect(o.latestDecisions[i - 1].at.getTime()).toBeGreaterThanOrEqual(o.latestDecisions[i].at.getTime());
  });

  it("gold rule risk: exact binomial figures for the event, and the whole-record rule against its rejections", async () => {
    const event = (await findEventBySlug(t.db, "quake_a"))!;
    const g = await loadGoldRuleRisk(t.db, { id: event.id, schemeId: event.scheme.id, settings: event.settings });
    expect(g.risk.honest.map((h) => h.reject)).toEqual(goldRuleRisk(event.settings, { labels: 11 }).honest.map((h) => h.reject));
    expect(g.risk.honest[0].reject).toBeCloseTo(0.3503892816, 10);
    const assignments = await t.db.assignment.findMany({ where: { hit: { eventId: ev.eventId }, goldTotal: { not: null } }, select: { workerId: true, status: true, goldCorrect: true, goldTotal: true } });
    expect(g.wholeRecord.rejections).toBe(assignments.filter((a) => a.status === "rejected").length);
    expect(g.wholeRecord.workers).toBe(new Set(assignments.map((a) => a.workerId)).size);
    // recomputed by hand: a worker is spared when their pooled record does not put accuracy below 7/10 with 95%
    const byWorker = new Map<string, { c: number; t: number; rejected: number }>();
    for (const a of assignments) {
      const w = byWorker.get(a.workerId) ?? { c: 0, t: 0, rejected: 0 };
      w.c += a.goldCorrect ?? 0;
      w.t += a.goldTotal ?? 0;
      if (a.status === "rejected") w.rejected++;
      byWorker.set(a.workerId, w);
    }
    const spared = [...byWorker.values()].filter((w) => w.rejected > 0 && posteriorBelow(w.c, w.t, 0.7) <= 0.95);
    expect(g.wholeRecord.workersSpared).toBe(spared.length);
    expect(g.wholeRecord.rejectionsKept).toBe(spared.reduce((n, w) => n + w.rejected, 0));
  });

  it("replay: the event's own thresholds reproduce its decisions exactly; the grid moves the way the rules say", async () => {
    const event = (await findEventBySlug(t.db, "quake_a"))!;
    const recorded = await loadRecordedEvent(t.db, event.id);
    expect(recorded.hits.length).toBe(8); // 10 HITs, 2 still open
    const { hits, outcome } = replayEvent(recorded, event.settings);
    const dbHits = await t.db.hit.findMany({ where: { eventId: event.id, status: { in: ["approved", "unresolved"] } }, select: { id: true, status: true, maxAssignments: true } });
    const state = new Map(hits.map((h) => [h.id, h]));
    for (const h of dbHits) {
      expect(state.get(h.id)?.state).toBe(h.status);
      expect(state.get(h.id)?.assignmentsUsed).toBe(h.maxAssignments);
    }
    const approvedIds = new Set(
      (await t.db.assignment.findMany({ where: { hit: { eventId: event.id, status: { in: ["approved", "unresolved"] } }, status: "approved" }, select: { id: true } })).map((a) => a.id),
    );
    expect(outcome.assignmentsApproved).toBe(approvedIds.size);
    const labels = await t.db.acceptedLabel.findMany({ where: { eventId: event.id }, select: { tweetId: true, label: true } });
    const replayed = hits.flatMap((h) => h.accepted).sort((a, b) => a.tweetId.localeCompare(b.tweetId));
    expect(replayed).toEqual(labels.map((l) => ({ tweetId: l.tweetId, label: l.label })).sort((a, b) => a.tweetId.localeCompare(b.tweetId)));
    const ledger = await t.db.costEntry.aggregate({ where: { eventId: event.id, hit: { status: { in: ["approved", "unresolved"] } } }, _sum: { amountCents: true } });
    expect(outcome.costCents).toBe(ledger._sum.amountCents);
    // The grid: 45 threshold sets, the event's own first; a stricter gold rule never approves more assignments.
    const grid = replayOutcomes(recorded, event.settings);
    expect(grid).toHaveLength(45);
    expect(grid[0]).toMatchObject({ actual: true, assignmentApproval: "7/10", tweetAcceptance: "2/3", hitApproval: "14/20", assignmentsApproved: approvedIds.size });
    const at = (gold: string) => grid.filter((g) => g.assignmentApproval === gold && g.tweetAcceptance === "2/3" && g.hitApproval === "16/20")[0];
    expect(at("8/10").assignmentsApproved).toBeLessThanOrEqual(at("6/10").assignmentsApproved);
    // accord replay --event SLUG --json prints the same grid
    let out = "";
    const stdout = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
    expect(await runReplay(["--event", "quake_a", "--json"], { db: t.db, stdout })).toBe(0);
    const printed = JSON.parse(out) as Array<Record<string, unknown>>;
    expect(Object.keys(printed[0])).toEqual(["assignmentApproval", "tweetAcceptance", "hitApproval", "actual", "assignmentsApproved", "labelsAccepted", "hitsApproved", "hitsUnresolved", "hitsOutOfData", "costCents", "fleissKappa", "krippendorffAlpha"]);
    expect(printed).toEqual(grid.map((g) => ({ ...g })));
    // The table form prints the cost in the crowd's currency (this MTurk event's dollars).
    out = "";
    expect(await runReplay(["--event", "quake_a"], { db: t.db, stdout })).toBe(0);
    expect(out.split("\n")[2]).toContain(formatMoney(grid[0]!.costCents, "USD"));
  });

  it("agreement: the latest snapshot, a thinned history, and Table 2 from the accepted labels", async () => {
    const event = (await findEventBySlug(t.db, "quake_a"))!;
    const a = await loadEventAgreement(t.db, { id: event.id, schemeId: event.scheme.id });
    expect(a.snapshotsTotal).toBe(6);
    expect(a.series.length).toBe(6);
    expect(a.latest?.judgments).toBe(a.series.at(-1)?.judgments);
    expect(a.acceptedTotal).toBe(ev.campaign!.acceptedTweets);
    expect(a.distribution.reduce((s, r) => s + r.accepted, 0)).toBe(a.acceptedTotal);
    expect(a.distribution.map((r) => r.label)).toContain("rescue_volunteering_or_donation_effort");
    // The mean agreement per label comes from the background analysis: none has run yet.
    expect(a.distribution.every((r) => r.meanAgreement === null)).toBe(true);
    // Many snapshots are thinned in the database to at most the limit, keeping the first and the last.
    const many = Array.from({ length: 500 }, (_, i) => ({ eventId: other.eventId, at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)), judgments: i + 1, tweetsAccepted: i, fleissKappa: i / 1000 }));
    await t.db.metricSnapshot.deleteMany({ where: { eventId: other.eventId } });
    await t.db.metricSnapshot.createMany({ data: many });
    const thin = await snapshotSeries(t.db, other.eventId, "all", 100);
    expect(thin.total).toBe(500);
    expect(thin.series.length).toBeLessThanOrEqual(102);
    expect(thin.series[0].judgments).toBe(1);
    expect(thin.series.at(-1)?.judgments).toBe(500);
  });

  it("analysis: Table 3 equals lib/metrics over the counted judgments; majority vs Dawid–Skene adds up; it runs as a job", async () => {
    const analysis = await computeEventAnalysis(t.db, ev.eventId);
    const counted = await t.db.judgment.findMany({ where: { counted: true, isGold: false, tweet: { eventId: ev.eventId } }, orderBy: [{ createdAt: "asc" }, { assignmentId: "asc" }], select: { tweetId: true, workerId: true, label: true } });
    const report = eventAgreementReport(encodeJudgments(counted.map((j) => ({ item: j.tweetId, annotator: j.workerId, label: j.label }))));
    expect(analysis.judgments).toBe(counted.length);
    expect(analysis.table3.fleissKappa).toBeCloseTo(report.fleissKappa, 12);
    expect(analysis.table3.krippendorffAlpha).toBeCloseTo(report.krippendorffAlpha, 12);
    expect(analysis.table3.averageObservedAgreement).toBeCloseTo(report.averageObservedAgreement, 12);
    expect(analysis.table3.averageMajorityAgreement).toBeCloseTo(report.averageMajorityAgreement, 12);
    // bootstrap intervals (1,000 seeded resamples over tweets) around the all-judged figures, and for the agreed scope
    const ci = analysis.intervals!;
    for (const k of ["fleissKappa", "krippendorffAlpha", "averageObservedAgreement", "averageMajorityAgreement"] as const) {
      const [lo, hi] = ci.all[k]!;
      expect(lo).toBeLessThanOrEqual(report[k]);
      expect(hi).toBeGreaterThanOrEqual(report[k]);
      expect(ci.agreed[k]).not.toBeNull();
    }
    const cmp = analysis.comparison;
    expect(cmp.sameLabel + cmp.differentLabel + cmp.majorityUndecided).toBe(cmp.tweets);
    expect(cmp.majorityAccepted).toBe(cmp.sameLabel + cmp.differentLabel);
    expect(cmp.goldAnchors).toBeGreaterThan(0);
    expect(analysis.differences.length).toBe(Math.min(analysis.differencesTotal, 300));
    for (const d of analysis.differences) expect(d.majority).not.toBe(d.dawidSkene);
    expect(analysis.perLabel.reduce((s, p) => s + p.judgments, 0)).toBe(counted.length);
    expect(analysis.perLabel.reduce((s, p) => s + p.dawidSkene, 0)).toBe(cmp.tweets);
    for (const p of analysis.perLabel) if (p.specificAgreement !== null) expect(p.specificAgreement).toBeGreaterThanOrEqual(0);

    expect((await analysisStatus(t.db, ev.eventId)).stale).toBe(true);
    expect(await requestEventAnalysis(t.db, { eventId: ev.eventId })).toBe(true);
    expect(await requestEventAnalysis(t.db, { eventId: ev.eventId })).toBe(false); // already queued
    expect(await drainJobs(t.db, { registry, types: [EVENT_ANALYSIS_JOB] })).toEqual(["succeeded"]);
    const status = await analysisStatus(t.db, ev.eventId);
    expect(status.stale).toBe(false);
    expect(status.analysis?.table3.fleissKappa).toBeCloseTo(report.fleissKappa, 12);
    const event = (await findEventBySlug(t.db, "quake_a"))!;
    const withMeans = await loadEventAgreement(t.db, { id: event.id, schemeId: event.scheme.id });
    for (const r of withMeans.distribution) if (r.accepted > 0) expect(r.meanAgreement).toBeGreaterThanOrEqual(2 / 3 - 1e-9);
    // The analysis' majority vote is the sync loop's rule: the same accepted count per label.
    for (const r of withMeans.distribution) expect(status.analysis?.perLabel.find((p) => p.label === r.label)?.majority ?? 0).toBe(r.accepted);
    // Fresh: nothing to do; forced: a new run, and only the newest result is kept.
    expect(await requestEventAnalysis(t.db, { eventId: ev.eventId })).toBe(false);
    expect(await requestEventAnalysis(t.db, { eventId: ev.eventId, force: true })).toBe(true);
    await drainJobs(t.db, { registry, types: [EVENT_ANALYSIS_JOB] });
    expect(await t.db.job.count({ where: { type: EVENT_ANALYSIS_JOB, eventId: ev.eventId } })).toBe(1);
  });

  it("HITs: a page with assignment counts and gold scores; a HIT's detail with every answer and the audit trail", async () => {
    const list = await listEventHits(t.db, ev.eventId, hitListQuerySchema.parse({}));
    expect(list.total).toBe(10);
    expect(list.rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const r of list.rows) {
      expect(r.unknownTweets).toBe(20);
      expect(r.assignments.total).toBeGreaterThanOrEqual(3);
      expect(r.goldScore).not.toBeNull();
    }
    const open = await listEventHits(t.db, ev.eventId, hitListQuerySchema.parse({ status: "published", sort: "-seq" }));
    expect(open.rows.map((r) => r.seq)).toEqual([10, 9]);
    expect(open.rows.every((r) => r.assignments.submitted === r.assignments.total)).toBe(true);
    const bad = hitListQuerySchema.parse({ status: "nonsense", page: "-3", sort: "x" });
    expect(bad).toEqual({ status: undefined, page: 1, sort: "seq" });

    const detail = await loadHitDetail(t.db, ev.eventId, 1);
    expect(detail?.items.length).toBe(30);
    expect(detail?.items.filter((i) => i.isGold).length).toBe(10);
    const answered = Object.values(detail!.answers).reduce((s, a) => s + Object.keys(a).length, 0);
    expect(answered).toBe(30 * detail!.assignments.length);
    expect(detail!.audit.filter((a) => a.entityType === "assignment").length).toBe(detail!.assignments.length);
    expect(await loadHitDetail(t.db, ev.eventId, 999)).toBeNull();
  });

  it("tweets: keyset pages walk every row once, forwards and backwards, with filters and search", async () => {
    const all = await t.db.tweet.findMany({ where: { eventId: ev.eventId }, orderBy: { externalId: "asc" }, select: { externalId: true } });
    const seen: string[] = [];
    let q = tweetQuerySchema.parse({});
    let first = await listTweets(t.db, ev.eventId, q);
    expect(first.total).toBe(300);
    expect(first.prevBefore).toBeNull();
    let page = first;
    for (;;) {
      seen.push(...page.rows.map((r) => r.externalId));
      if (!page.nextAfter) break;
      q = tweetQuerySchema.parse({ after: page.nextAfter });
      page = await listTweets(t.db, ev.eventId, q);
    }
    expect(seen).toEqual(all.map((a) => a.externalId));
    // Back from the last page to the first.
    const back: string[] = [...page.rows.map((r) => r.externalId)];
    while (page.prevBefore) {
      page = await listTweets(t.db, ev.eventId, tweetQuerySchema.parse({ before: page.prevBefore }));
      back.unshift(...page.rows.map((r) => r.externalId));
    }
    expect(back).toEqual(seen);
    expect(page.rows.length).toBe(TWEETS_PAGE_SIZE);

    const gold = await listTweets(t.db, ev.eventId, tweetQuerySchema.parse({ role: "gold" }));
    expect(gold.total).toBe(40);
    const accepted = await listTweets(t.db, ev.eventId, tweetQuerySchema.parse({ status: "accepted", label: "sympathy_and_support" }));
    expect(accepted.rows.every((r) => r.acceptedLabel?.label === "sympathy_and_support")).toBe(true);
    const someText = (await t.db.tweet.findFirstOrThrow({ where: { eventId: ev.eventId, role: "unknown" }, select: { text: true, externalId: true } }));
    const word = someText.text.split(" ").find((w) => w.length > 6) ?? someText.text.slice(0, 8);
    const found = await listTweets(t.db, ev.eventId, tweetQuerySchema.parse({ q: word.toUpperCase() }));
    expect(found.rows.some((r) => r.externalId === someText.externalId)).toBe(true);
    const byId = await listTweets(t.db, ev.eventId, tweetQuerySchema.parse({ q: someText.externalId }));
    expect(byId.rows.map((r) => r.externalId)).toEqual([someText.externalId]);
    first = await listTweets(t.db, ev.eventId, tweetQuerySchema.parse({ q: "no tweet says this" }));
    expect(first.total).toBe(0);
  });

  it("gold health: a gold tweet with a wrong expert label is missed by otherwise-good workers and flagged", async () => {
    const health = async () => goldHealth(t.db, { eventId: ev.eventId, stats: (await computeEventAnalysis(t.db, ev.eventId)).goldStats });
    const rows = await health();
    expect(rows.length).toBe(40);
    const used = rows.filter((r) => r.shown > 0);
    expect(used.length).toBeGreaterThan(0);
    // Every graded gold answer is counted once.
    const graded = await t.db.judgment.count({ where: { isGold: true, tweet: { eventId: ev.eventId }, assignment: { goldTotal: { not: null } } } });
    expect(rows.reduce((s, r) => s + r.shown, 0)).toBe(graded);
    // Mislabel the most used gold tweet: the good workers' answers (the truth) now count as misses.
    const victim = used.sort((a, b) => b.goodShown - a.goodShown)[0];
    const wrongLabel = victim.goldLabel === "not_humanitarian" ? "sympathy_and_support" : "not_humanitarian";
    await t.db.tweet.update({ where: { id: victim.id }, data: { goldLabel: wrongLabel } });
    const judgments = await t.db.judgment.findMany({ where: { tweetId: victim.id }, select: { assignmentId: true, tweetId: true, label: true } });
    const key = (j: (typeof judgments)[number]) => ({ assignmentId_tweetId: { assignmentId: j.assignmentId, tweetId: j.tweetId } });
    for (const j of judgments) await t.db.judgment.update({ where: key(j), data: { correct: j.label === wrongLabel } });
    const after = await health();
    const flagged = after.find((r) => r.id === victim.id)!;
    expect(flagged.goodMissRate).toBeGreaterThan(0.5);
    expect(flagged.topWrongLabel).toBe(victim.goldLabel);
    if (flagged.goodShown >= 5) {
      expect(flagged.suspicious).toBe(true);
      expect(after[0].id).toBe(victim.id);
    }
    // Restore for the other tests.
    await t.db.tweet.update({ where: { id: victim.id }, data: { goldLabel: victim.goldLabel } });
    for (const j of judgments) await t.db.judgment.update({ where: key(j), data: { correct: j.label === victim.goldLabel } });
  });

  it("events list, compare and workers show the same figures", async () => {
    const { rows, types } = await listEvents(t.db, eventListQuerySchema.parse({ sort: "tweets", dir: "desc" }));
    expect(rows.map((r) => r.slug)).toEqual(["quake_a", "flood_b"]);
    expect(types).toEqual(["earthquake", "flood"]);
    const a = rows[0];
    expect(a.tweets).toBe(260);
    expect(a.gold).toBe(40);
    expect(a.hits).toEqual({ total: 10, published: 10, approved: expect.any(Number), pending: 2, byStatus: expect.any(Object) });
    // the breakdown names every HIT: its statuses add up to the total, approved among them
    expect(Object.values(a.hits.byStatus).reduce((x, y) => x + y, 0)).toBe(10);
    expect(a.hits.byStatus.approved).toBe(a.hits.approved);
    expect(a.accepted).toBe(ev.campaign!.acceptedTweets);
    expect(a.fleissKappa).not.toBeNull();
    const filtered = await listEvents(t.db, eventListQuerySchema.parse({ type: "flood" }));
    expect(filtered.rows.map((r) => r.slug)).toEqual(["flood_b"]);
    const searched = await listEvents(t.db, eventListQuerySchema.parse({ q: "QUAKE" }));
    expect(searched.rows.map((r) => r.slug)).toEqual(["quake_a"]);

    const cmp = await compareEvents(t.db);
    expect(cmp.rows.map((r) => r.slug)).toEqual(["quake_a", "flood_b"]);
    expect(cmp.labels.length).toBe(11);
    expect(cmp.rows[0].accepted).toBe(ev.campaign!.acceptedTweets);

    const w = await listWorkers(t.db, workerQuerySchema.parse({ sort: "hits", dir: "desc" }));
    expect(w.total).toBe(50);
    expect(w.rows[0].hits).toBeGreaterThanOrEqual(w.rows[1].hits);
    const withTime = w.rows.filter((r) => r.hits > 0);
    expect(withTime.every((r) => r.medianSeconds !== null && r.medianSeconds >= 240)).toBe(true);
    const spammers = await listWorkers(t.db, workerQuerySchema.parse({ sort: "gold", dir: "asc" }));
    // Sorted by gold accuracy, the weakest worker comes first. (Which workers pass the qualification test varies
    // with the seeded campaign's database ids: some runs have no spammer who worked, so no fixed threshold.)
    const accuracies = spammers.rows.filter((r) => r.hits > 0 && r.goldAccuracy !== null).map((r) => r.goldAccuracy as number);
    expect(accuracies).toEqual([...accuracies].sort((a, b) => a - b));
    expect(accuracies[0]).toBeLessThan(accuracies[accuracies.length - 1]);
    // Each worker who did gold work: the odds under the gold rule of the event they worked most in, from their record there.
    const worked = w.rows.filter((r) => r.goldOdds);
    expect(worked.length).toBeGreaterThan(0);
    for (const r of worked) {
      const o = r.goldOdds!;
      const rows = await t.db.assignment.findMany({ where: { workerId: r.id, goldTotal: { not: null }, hit: { event: { slug: o.event } } }, select: { goldCorrect: true, goldTotal: true } });
      expect([o.goldCorrect, o.goldTotal]).toEqual([rows.reduce((s, a) => s + (a.goldCorrect ?? 0), 0), rows.reduce((s, a) => s + (a.goldTotal ?? 0), 0)]);
      expect(o.rule).toBe("≥ 7/10 of 10 gold");
      expect(o.rejectNext).toBeCloseTo(predictedRejectProbability(10, { num: 7, den: 10 }, o.goldCorrect, o.goldTotal), 12);
      expect(o.posteriorBelow).toBeCloseTo(posteriorBelow(o.goldCorrect, o.goldTotal, 0.7), 12);
      expect(o.wholeRecordRejects).toBe(o.posteriorBelow > 0.95);
    }
  });
});
