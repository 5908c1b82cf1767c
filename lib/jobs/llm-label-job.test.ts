import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_LLM_SETTINGS, saveLlmSettings } from "@/lib/crowd/llm/settings";
import { startLlmSimulator, type RunningLlmSimulator } from "@/lib/crowd/llm/simulator/server";
import { COST_KIND, JOB_STATE, LLM_RUN_STATUS, PROVIDER_KIND, TWEET_ROLE } from "@/lib/db/enums";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "./accord-jobs";
import { JOBS } from "./job-types";
import { queueLlmRun, remainingBudgetCents } from "./llm-label-job";
import { drainJobs } from "./runner";

const LABELS = HUMAID_LABELS.map((l) => l.value);
let t: TestDb | null = null;
let sim: RunningLlmSimulator | null = null;
afterEach(async () => {
  await sim?.stop();
  await t?.cleanup();
  t = null;
  sim = null;
});

async function eventWith(budgetCapCents: number | null) {
  t = await createTestDb();
  const schemeId = await ensureHumaidScheme(t.db);
  const event = await t.db.event.create({ data: { slug: "job-llm", name: "Job LLM", type: "flood", schemeId, provider: PROVIDER_KIND.local, locations: [], settings: {}, filters: {}, budgetCapCents } });
  for (let i = 0; i < 43; i++) {
    const gold = i >= 20;
    await t.db.tweet.create({ data: { eventId: event.id, externalId: String(i), text: `job tweet ${i}`, role: gold ? TWEET_ROLE.gold : TWEET_ROLE.unknown, goldLabel: gold ? LABELS[i % LABELS.length] : null } });
  }
  return { db: t.db, eventId: event.id };
}

describe("the llm-label job", () => {
  it("knows what the event's budget has left: its cap minus its ledger (the LLM's own entries too)", async () => {
    const { db, eventId } = await eventWith(1_000);
    expect(await remainingBudgetCents(db, eventId, "USD")).toBe(1_000);
    await db.costEntry.create({ data: { eventId, kind: COST_KIND.llm, amountCents: 650, reference: "llm:earlier" } });
    expect(await remainingBudgetCents(db, eventId, "USD")).toBe(350);
    await db.event.update({ where: { id: eventId }, data: { budgetCapCents: null } });
    expect(await remainingBudgetCents(db, eventId, "USD")).toBeNull();
  });

  it("refuses a run the budget left cannot pay for, before any call, and the job fails with why", async () => {
    const { db, eventId } = await eventWith(5);
    sim = await startLlmSimulator({ port: 0 });
    await saveLlmSettings(db, { ...DEFAULT_LLM_SETTINGS, baseUrl: sim.baseURL, inputPricePerMillion: 1_000, outputPricePerMillion: 1_000 });
    const { runId, jobId } = await queueLlmRun(db, { eventId });
    await drainJobs(db, { registry: accordJobs(), types: [JOBS.llmLabel.type] });
    const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job.state).toBe(JOB_STATE.failed);
    expect(job.error).toMatch(/^The run would cost about \d+ \(minor units of USD\) but the event's budget has 5 left/);
    expect((await db.llmRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe(LLM_RUN_STATUS.failed);
    expect(sim.stats.requests).toBe(0);
    expect(await db.auditLog.findMany({ where: { eventId, entityId: runId }, select: { action: true, entityType: true } })).toEqual([{ action: "queue-llm-run", entityType: "llm-run" }]);
  });

  it("refuses to queue a run of an archived event", async () => {
    const { db, eventId } = await eventWith(null);
    await db.event.update({ where: { id: eventId }, data: { archived: true } });
    await expect(queueLlmRun(db, { eventId })).rejects.toThrow(/is archived/);
    expect(await db.llmRun.count()).toBe(0);
  });
});
