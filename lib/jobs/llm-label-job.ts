import "server-only";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { committedSpendCents } from "@/lib/campaign/estimate";
import { crowdBreaker } from "@/lib/campaign/sync/crowd-breakers";
import { clearOutage, recordOutage } from "@/lib/campaign/sync/outage";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { createLlmClient, LLM_CROWD, type LlmClient } from "@/lib/crowd/llm/client";
import { createLlmRun, executeLlmRun, type LlmRunSummary } from "@/lib/crowd/llm/label-run";
import { getLlmApiKey, getLlmSettings, llmSettingsSchema } from "@/lib/crowd/llm/settings";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { crowdCurrency } from "@/lib/events/event-currency";
import { DEFAULT_CURRENCY } from "@/lib/text/format";
import { JOBS } from "./job-types";
import { enqueueJob } from "./queue";
import type { JobContext } from "./runner";

/**
 * The `llm-label` job: one LLM run of an event (lib/crowd/llm/label-run.ts) with the endpoint from Settings, the
 * crowd breaker and outage banner of the crowd "llm", and the budget the event (and, in USD, all events) has left.
 */
export const llmRunOverridesSchema = z.object({
  model: llmSettingsSchema.shape.model.optional(),
  passes: llmSettingsSchema.shape.passes.optional(),
  temperature: llmSettingsSchema.shape.temperature.optional(),
});
export type LlmRunOverrides = z.infer<typeof llmRunOverridesSchema>;

/** Records a queued run with the current settings (and the overrides) and queues its job. */
export async function queueLlmRun(db: Db, { eventId, createdById, overrides = {} }: { eventId: string; createdById?: string | null; overrides?: LlmRunOverrides }): Promise<{ runId: string; jobId: string }> {
  const o = llmRunOverridesSchema.parse(overrides);
  const event = await db.event.findUnique({ where: { id: eventId }, select: { provider: true, archived: true, name: true } });
  if (!event) throw new UserError("No such event.", "not_found");
  if (event.archived) throw new UserError(`"${event.name}" is archived: unarchive it before labelling it with a language model.`);
  const s = await getLlmSettings(db);
  const run = await createLlmRun(db, {
    eventId,
    model: o.model ?? s.model,
    baseUrl: s.baseUrl,
    temperature: o.temperature ?? s.temperature,
    passes: o.passes ?? s.passes,
    inputPricePerMillion: s.inputPricePerMillion,
    outputPricePerMillion: s.outputPricePerMillion,
    currency: await crowdCurrency(db, event.provider),
    createdById,
  });
  const job = await enqueueJob(db, JOBS.llmLabel, { payload: { runId: run.id }, eventId, createdById, maxAttempts: 2 });
  await db.llmRun.update({ where: { id: run.id }, data: { jobId: job.id } });
  await writeAudit(db, {
    actorType: createdById ? "user" : "system",
    actorId: createdById ?? null,
    eventId,
    entityType: "llm-run",
    entityId: run.id,
    action: "queue-llm-run",
    details: { model: o.model ?? s.model, baseUrl: s.baseUrl, temperature: o.temperature ?? s.temperature, passes: o.passes ?? s.passes },
  });
  return { runId: run.id, jobId: job.id };
}

/** What the event may still spend in `currency` (minor units): its cap and, in USD, the all-events cap; null: no cap. */
export async function remainingBudgetCents(db: Db, eventId: string, currency: string): Promise<number | null> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { budgetCapCents: true } });
  const left: number[] = [];
  if (event.budgetCapCents !== null) left.push(event.budgetCapCents - (await committedSpendCents(db, currency, { eventId })));
  if (currency === DEFAULT_CURRENCY) {
    const global = (await getCrowdSettings(db)).budgetCapCents;
    if (global !== null) left.push(global - (await committedSpendCents(db, currency)));
  }
  return left.length ? Math.max(0, Math.min(...left)) : null;
}

export async function runLlmLabelJob(ctx: JobContext, { runId }: { runId: string }, { client }: { client?: LlmClient } = {}): Promise<LlmRunSummary> {
  const { db } = ctx;
  const run = await db.llmRun.findUniqueOrThrow({ where: { id: runId } });
  const s = await getLlmSettings(db);
  const llm =
    client ??
    createLlmClient({
      baseUrl: run.baseUrl,
      apiKey: await getLlmApiKey(db),
      model: run.model,
      temperature: run.temperature,
      timeoutMs: s.timeoutSeconds * 1000,
      breaker: crowdBreaker(LLM_CROWD),
      onOutage: (err) => void recordOutage(db, LLM_CROWD, err).catch(() => undefined),
      onRecovered: () => void clearOutage(db, LLM_CROWD).catch(() => undefined),
    });
  return executeLlmRun(db, runId, {
    client: llm,
    concurrency: s.concurrency,
    exampleCount: s.examples,
    remainingBudgetCents: await remainingBudgetCents(db, run.eventId, run.currency),
    progress: (done, total) => ctx.progress(done, total, `${done} of ${total} batches labelled`),
    throwIfCancelled: ctx.throwIfCancelled,
    signal: ctx.signal,
  });
}
