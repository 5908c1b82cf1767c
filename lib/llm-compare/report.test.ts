import { afterEach, describe, expect, it } from "vitest";
import { createHitBatch } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { setupBulkCampaign } from "@/lib/campaign/reliability-fixture";
import { ACTIVE_HIT_STATUSES, syncDueHits } from "@/lib/campaign/sync";
import { LABELS, type CampaignFixture } from "@/lib/campaign/test-fixture";
import { LabellingModel } from "@/lib/crowd/llm/simulator/model";
import { addTextKeys, truthFromMap } from "@/lib/crowd/simulator/truth";
import { LLM_ECHO_MODEL_SEED } from "@/lib/crowd/simulator/workers-llm-echo";
import { LLM_RUN_STATUS } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { displayText } from "@/lib/text/display-text";
import { llmCompareReport } from "./report";

const HITS = 30;

/**
 * A campaign on the MTurk simulator with 18 honest workers (careful, average, sloppy) and 2 llm-echo workers; the
 * LLM's labels of the event's tweets are written as a finished LlmRun from the same simulated model (seed, truth,
 * labels in the scheme's order) the echo workers copy. The report flags both echo workers and no honest one.
 */
describe.each(testFlavors())("the LLM-vs-crowd report of a simulated campaign with two echo workers among 20 (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("flags both llm-echo workers and no honest worker, and compares the LLM with the accepted labels", async () => {
    f = await setupBulkCampaign({ flavor, unknown: HITS * 20, simulator: { seed: 5, workers: "careful:6,average:8,sloppy:4,llm-echo:2" } });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 4 });
    await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: "all", rewardCents: 40, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise tweets", description: "Choose a category", keywords: "tweets", seed: 8 },
    });
    expect(await drainJobs(f.db, { registry: f.jobs, types: [JOBS.publish.type] })).toEqual(["succeeded"]);
    let steps = 0;
    while ((await f.db.hit.count({ where: { status: { in: ACTIVE_HIT_STATUSES } } })) > 0) {
      expect(++steps, "the campaign should finish within 3 simulated days").toBeLessThan(3 * 288);
      f.clock.advance(300);
      await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: f.provider, limit: 10 });
    }

    // The LLM crowd's run, written directly: the simulated model's temperature-0 label of each tweet as shown.
    const tweets = await f.db.tweet.findMany({ where: { eventId: f.eventId }, select: { id: true, externalId: true, text: true } });
    const oracle = truthFromMap(addTextKeys(new Map(tweets.map((t) => [t.externalId, f.truth.get(t.id) as string])), tweets));
    const model = new LabellingModel({ seed: LLM_ECHO_MODEL_SEED, truth: oracle });
    const run = await f.db.llmRun.create({
      data: { eventId: f.eventId, model: "accord-sim-1", baseUrl: "http://127.0.0.1:9/v1", temperature: 0, promptVersion: "test", exampleTweetIds: [], status: LLM_RUN_STATUS.done, promptTokens: 120_000, completionTokens: 9_000, inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 },
    });
    const llmOf = new Map(tweets.map((t) => [t.id, model.label(displayText(t.text), LABELS)]));
    await f.db.llmLabel.createMany({ data: tweets.map((t) => ({ runId: run.id, tweetId: t.id, pass: 0, label: llmOf.get(t.id) as string })) });

    const report = (await llmCompareReport(f.db, "reliability"))!;
    const echoIds = new Set(f.sim.state.workers.filter((w) => w.profile === "llm-echo").map((w) => w.workerId));
    const honestIds = new Set(f.sim.state.workers.filter((w) => w.profile !== "llm-echo").map((w) => w.workerId));
    expect(echoIds.size).toBe(2);
    const flagged = report.echo.workers.filter((w) => w.flagged).map((w) => w.workerId);
    expect(flagged.sort()).toEqual([...echoIds].sort());
    expect(report.echo.workers.filter((w) => honestIds.has(w.workerId) && w.flagged)).toEqual([]);
    expect(report.echo.workers.filter((w) => honestIds.has(w.workerId) && w.tested).length).toBeGreaterThan(5);
    for (const w of report.echo.workers.filter((x) => x.flagged)) {
      expect(w.pAdjusted!).toBeLessThanOrEqual(0.05);
      expect(w.evidence.length).toBeGreaterThan(0);
      expect(w.evidence.filter((e) => e.label === e.llm).length).toBe(w.echoes > 20 ? 20 : w.echoes);
      expect(w.evidence.every((e) => e.text.length > 0 && e.accepted !== e.llm)).toBe(true);
    }

    // The comparison: every accepted tweet compared; the confusion table adds up; κ inside its interval.
    const accepted = await f.db.acceptedLabel.findMany({ where: { eventId: f.eventId }, select: { tweetId: true, label: true } });
    expect(report.tweets.accepted).toBe(accepted.length);
    expect(report.tweets.compared).toBe(accepted.length);
    expect(report.confusion.flat().reduce((a, b) => a + b, 0)).toBe(accepted.length);
    expect(report.tweets.disagreements).toBe(accepted.filter((a) => llmOf.get(a.tweetId) !== a.label).length);
    expect(report.kappaInterval![0]).toBeLessThanOrEqual(report.kappa!);
    expect(report.kappaInterval![1]).toBeGreaterThanOrEqual(report.kappa!);
    expect(report.goldAccuracy.llm.total).toBe(20);
    expect(report.cost.llm).toEqual({ currency: "USD", total: (120_000 * 0.15 + 9_000 * 0.6) / 1e6, perLabel: (120_000 * 0.15 + 9_000 * 0.6) / 1e6 / tweets.length });
    const ledger = (await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents as number;
    expect(report.cost.crowd).toEqual([{ currency: "USD", total: ledger / 100, perAcceptedLabel: ledger / 100 / accepted.length }]);
    expect(report.disagreements[0].examples[0].tweetId).toMatch(/^1\d{17}$/);
  });
});
