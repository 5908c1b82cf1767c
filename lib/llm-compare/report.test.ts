import { afterEach, describe, expect, it } from "vitest";
import type { CampaignFixture } from "@/lib/campaign/test-fixture";
import { testFlavors } from "@/lib/db/test-db";
import { llmCompareReport } from "./report";
import { runSimulatedEchoCampaign } from "./simulated-campaign";

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
    const c = await runSimulatedEchoCampaign({ flavor, seed: 5, hits: HITS, workers: "careful:6,average:8,sloppy:4,llm-echo:2" });
    f = c.f;
    const { llmOf, echoIds, honestIds } = c;
    const report = (await llmCompareReport(f.db, "reliability"))!;
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
    expect(report.cost.llm).toEqual({ currency: "USD", total: (120_000 * 0.15 + 9_000 * 0.6) / 1e6, perLabel: (120_000 * 0.15 + 9_000 * 0.6) / 1e6 / c.tweets });
    const ledger = (await f.db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents as number;
    expect(report.cost.crowd).toEqual([{ currency: "USD", total: ledger / 100, perAcceptedLabel: ledger / 100 / accepted.length }]);
    expect(report.disagreements[0].examples[0].tweetId).toMatch(/^1\d{17}$/);
  });
});
