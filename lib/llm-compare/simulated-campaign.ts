import "server-only";
// Shared by the integration test (report.test.ts) and scripts/bench/llm-echo.ts (not used by the product).
import { createHitBatch } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { setupBulkCampaign } from "@/lib/campaign/reliability-fixture";
import { ACTIVE_HIT_STATUSES, syncDueHits } from "@/lib/campaign/sync";
import { LABELS, type CampaignFixture } from "@/lib/campaign/test-fixture";
import { LabellingModel } from "@/lib/crowd/llm/simulator/model";
import { addTextKeys, truthFromMap } from "@/lib/crowd/simulator/truth";
import { LLM_ECHO_MODEL_SEED } from "@/lib/crowd/simulator/workers-llm-echo";
import { LLM_RUN_STATUS } from "@/lib/db/enums";
import type { DbFlavor } from "@/lib/db/url";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { displayText } from "@/lib/text/display-text";

/**
 * A whole campaign on the MTurk simulator (qualification test, HITs of 20, sync decisions on a manual clock) with
 * the given worker mix, then the LLM's labels of the event's tweets written as a finished LlmRun from the LLM
 * simulator's model (seed 1, the truth, the scheme's labels in order): the model the llm-echo workers copy.
 * The caller closes the fixture.
 */
export async function runSimulatedEchoCampaign({ flavor = "sqlite", seed, hits, workers }: { flavor?: DbFlavor; seed: number; hits: number; workers: string }): Promise<{
  f: CampaignFixture;
  llmOf: Map<string, string>;
  tweets: number;
  echoIds: Set<string>;
  honestIds: Set<string>;
  cost: { promptTokens: number; completionTokens: number; inputPricePerMillion: number; outputPricePerMillion: number };
}> {
  const f = await setupBulkCampaign({ flavor, unknown: hits * 20, simulator: { seed, workers } });
  try {
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 4 });
    await createHitBatch({
      db: f.db,
      eventId: f.eventId,
      provider: f.provider,
      options: { hitCount: "all", rewardCents: 40, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise tweets", description: "Choose a category", keywords: "tweets", seed: 8 },
    });
    const published = await drainJobs(f.db, { registry: f.jobs, types: [JOBS.publish.type] });
    if (published.join() !== "succeeded") throw new Error(`publishing ended ${published.join()}`);
    for (let steps = 0; (await f.db.hit.count({ where: { status: { in: ACTIVE_HIT_STATUSES } } })) > 0; steps++) {
      if (steps > 3 * 288) throw new Error("the campaign did not finish within 3 simulated days");
      f.clock.advance(300);
      await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: f.provider, limit: 10 });
    }
    const tweets = await f.db.tweet.findMany({ where: { eventId: f.eventId }, select: { id: true, externalId: true, text: true } });
    const oracle = truthFromMap(addTextKeys(new Map(tweets.map((t) => [t.externalId, f.truth.get(t.id) as string])), tweets));
    const model = new LabellingModel({ seed: LLM_ECHO_MODEL_SEED, truth: oracle });
    const cost = { promptTokens: 120_000, completionTokens: 9_000, inputPricePerMillion: 0.15, outputPricePerMillion: 0.6 };
    const run = await f.db.llmRun.create({
      data: { eventId: f.eventId, model: "accord-sim-1", baseUrl: "http://127.0.0.1:9/v1", temperature: 0, promptVersion: "test", exampleTweetIds: [], status: LLM_RUN_STATUS.done, ...cost },
    });
    const llmOf = new Map(tweets.map((t) => [t.id, model.label(displayText(t.text), LABELS)]));
    await f.db.llmLabel.createMany({ data: tweets.map((t) => ({ runId: run.id, tweetId: t.id, pass: 0, label: llmOf.get(t.id) as string })) });
    const echoIds = new Set(f.sim.state.workers.filter((w) => w.profile === "llm-echo").map((w) => w.workerId));
    const honestIds = new Set(f.sim.state.workers.filter((w) => w.profile !== "llm-echo").map((w) => w.workerId));
    return { f, llmOf, tweets: tweets.length, echoIds, honestIds, cost };
  } catch (err) {
    await f.close();
    throw err;
  }
}
