import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { COST_KIND, DECISION, LLM_RUN_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { unexpectedErrorMessage, UserError } from "@/lib/errors";
import { gradeAssignment } from "@/lib/procedure/grading";
import { parseProcedureSettings, type ProcedureSettings } from "@/lib/procedure/settings";
import { createRng, seedFrom, shuffled } from "@/lib/util/random";
import type { LlmClient } from "./client";
import { labelItems } from "./label-items";
import { buildLabelRequest, itemIds, pickExamples, PROMPT_VERSION, type PromptExample, type SchemeLabel } from "./prompt";

/**
 * The labelling engine of an LLM run (issue 32): the event's tweets in batches shaped like its HITs (unknown tweets
 * with gold, as the event's settings say), each batch one chat-completion call (plus one follow-up for the items it
 * answered outside the scheme; then no answer), `concurrency` calls at once. Each batch's gold is graded like a
 * worker's assignment (the event's assignmentApproval rule). Labels are written once per tweet and pass (a batch
 * already written is skipped when a run resumes), tokens are added after every answered call, and the run's cost
 * goes to the ledger as one entry `llm:<runId>`.
 */
export type LlmRunParams = {
  eventId: string;
  model: string;
  baseUrl: string;
  temperature: number;
  passes: number;
  inputPricePerMillion: number;
  outputPricePerMillion: number;
  currency: string;
  createdById?: string | null;
  jobId?: string | null;
};

type RunTweet = { id: string; text: string; goldLabel: string | null };
type Batch = { index: number; unknown: RunTweet[]; gold: RunTweet[] };

export type LlmRunSummary = {
  runId: string;
  model: string;
  status: string;
  tweetsTotal: number;
  tweetsLabelled: number;
  noAnswer: number;
  goldCorrect: number;
  goldTotal: number;
  /** Batches whose gold met the event's approval rule, of those with gold. */
  hitsApproved: number;
  hitsGraded: number;
  promptTokens: number;
  completionTokens: number;
  costCents: number;
  currency: string;
  error: string | null;
};

export type LabelRunOptions = {
  client: LlmClient;
  concurrency: number;
  /** What the event may still spend, in the run's currency's minor units (null: no cap). */
  remainingBudgetCents: number | null;
  /** Gold tweets shown as examples when the run starts (default 3). */
  exampleCount?: number;
  progress?: (done: number, total: number) => Promise<void>;
  throwIfCancelled?: () => Promise<void>;
  signal?: AbortSignal;
};

/** Cents (minor units, rounded up) of a token bill at prices per million tokens. */
export function tokenCostCents(promptTokens: number, completionTokens: number, inputPerMillion: number, outputPerMillion: number): number {
  const major = (promptTokens * inputPerMillion + completionTokens * outputPerMillion) / 1_000_000;
  return Math.max(0, Math.ceil(Math.round(major * 100 * 1e6) / 1e6));
}

async function loadScheme(db: Db, eventId: string): Promise<{ scheme: SchemeLabel[]; settings: ProcedureSettings }> {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { name: true, settings: true, scheme: { select: { labels: { orderBy: { position: "asc" }, select: { value: true, name: true, description: true } } } } } });
  if (!event) throw new UserError("No such event.", "not_found");
  if (event.scheme.labels.length < 2) throw new UserError(`The label scheme of "${event.name}" has fewer than two labels: there is nothing for a model to choose.`);
  let settings: ProcedureSettings;
  try {
    settings = parseProcedureSettings(event.settings);
  } catch (err) {
    throw new UserError(`The rule settings of event "${event.name}" are invalid (${err instanceof Error ? err.message : String(err)}).`, "invalid_settings");
  }
  return { scheme: event.scheme.labels, settings };
}

async function loadTweets(db: Db, eventId: string): Promise<{ unknown: RunTweet[]; gold: RunTweet[] }> {
  const select = { id: true, text: true, goldLabel: true } as const;
  const [unknown, gold] = await Promise.all([
    db.tweet.findMany({ where: { eventId, role: TWEET_ROLE.unknown, duplicateOfId: null, status: { not: TWEET_STATUS.retired } }, select, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.tweet.findMany({ where: { eventId, role: TWEET_ROLE.gold, goldLabel: { not: null }, retiredAt: null, duplicateOfId: null }, select, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  ]);
  return { unknown, gold };
}

/** Batches shaped like the event's HITs: unknownPerHit unknown tweets with goldPerHit graded gold (gold reused in turn when short). */
export function makeBatches(unknown: readonly RunTweet[], gradedGold: readonly RunTweet[], settings: Pick<ProcedureSettings, "unknownPerHit" | "goldPerHit">): Batch[] {
  const goldPer = Math.min(settings.goldPerHit, gradedGold.length);
  const batches: Batch[] = [];
  let g = 0;
  const takeGold = () => Array.from({ length: goldPer }, () => gradedGold[g++ % gradedGold.length]);
  if (unknown.length === 0) {
    for (let i = 0; i < gradedGold.length; i += Math.max(1, settings.goldPerHit)) batches.push({ index: batches.length, unknown: [], gold: gradedGold.slice(i, i + Math.max(1, settings.goldPerHit)) });
    return batches;
  }
  for (let i = 0; i < unknown.length; i += settings.unknownPerHit) batches.push({ index: batches.length, unknown: unknown.slice(i, i + settings.unknownPerHit), gold: takeGold() });
  return batches;
}

/** Records a queued run of the event (its examples are chosen when it starts). */
export async function createLlmRun(db: Db, p: LlmRunParams): Promise<{ id: string }> {
  return db.llmRun.create({
    data: {
      eventId: p.eventId,
      jobId: p.jobId ?? null,
      model: p.model,
      baseUrl: p.baseUrl,
      temperature: p.temperature,
      passes: p.passes,
      promptVersion: PROMPT_VERSION,
      exampleTweetIds: [],
      inputPricePerMillion: p.inputPricePerMillion,
      outputPricePerMillion: p.outputPricePerMillion,
      currency: p.currency,
      createdById: p.createdById ?? null,
      status: LLM_RUN_STATUS.queued,
    },
    select: { id: true },
  });
}

/** A rough upper estimate of a run's cost before it starts (characters/4 per token, each batch once plus a follow-up share). */
export function estimateRunCents(batches: readonly Batch[], scheme: readonly SchemeLabel[], examples: readonly PromptExample[], run: { passes: number; inputPricePerMillion: number; outputPricePerMillion: number }): number {
  let prompt = 0;
  let completion = 0;
  for (const b of batches) {
    const items = [...b.unknown, ...b.gold];
    const request = buildLabelRequest(scheme, examples, items.map((t, i) => ({ id: `item-${i + 1}`, text: t.text })));
    prompt += Math.ceil(JSON.stringify(request).length / 4) + 20;
    completion += items.length * 12 + 10;
  }
  return tokenCostCents(prompt * run.passes * 1.1, completion * run.passes * 1.1, run.inputPricePerMillion, run.outputPricePerMillion);
}

class BudgetReached extends Error {}

/** An unexpected failure (a database error, a bug): logged under a reference; the run shows only that. */
function unexpected(runId: string, err: unknown): string {
  const reference = randomUUID().slice(0, 8);
  console.error(`[accord] LLM run ${runId} failed (reference ${reference}):`, err);
  return unexpectedErrorMessage(reference);
}

/** Runs (or resumes) a run to its end; the run's row holds the outcome. */
export async function executeLlmRun(db: Db, runId: string, opts: LabelRunOptions): Promise<LlmRunSummary> {
  const run = await db.llmRun.findUniqueOrThrow({ where: { id: runId } });
  const { scheme, settings } = await loadScheme(db, run.eventId);
  const tweets = await loadTweets(db, run.eventId);
  const stored = Array.isArray(run.exampleTweetIds) ? (run.exampleTweetIds as string[]) : [];
  const exampleTweets = stored.length > 0 ? tweets.gold.filter((g) => stored.includes(g.id)) : pickExamples(tweets.gold, scheme, Math.max(0, opts.exampleCount ?? 3));
  const exampleIds = new Set(exampleTweets.map((t) => t.id));
  const examples: PromptExample[] = exampleTweets.map((t) => ({ text: t.text, label: t.goldLabel as string }));
  const gradedGold = tweets.gold.filter((g) => !exampleIds.has(g.id));
  const batches = makeBatches(tweets.unknown, gradedGold, settings);
  const distinct = new Set(batches.flatMap((b) => [...b.unknown, ...b.gold].map((t) => t.id)));

  if (run.status === LLM_RUN_STATUS.queued && opts.remainingBudgetCents !== null) {
    const estimate = estimateRunCents(batches, scheme, examples, run);
    if (estimate > opts.remainingBudgetCents) {
      const error = `The run would cost about ${estimate} (minor units of ${run.currency}) but the event's budget has ${Math.max(0, opts.remainingBudgetCents)} left; raise the budget cap or lower the prices.`;
      await db.llmRun.update({ where: { id: runId }, data: { status: LLM_RUN_STATUS.failed, error, finishedAt: new Date(), tweetsTotal: distinct.size, exampleTweetIds: [...exampleIds] } });
      throw new UserError(error, "over_budget");
    }
  }
  await db.llmRun.update({ where: { id: runId }, data: { status: LLM_RUN_STATUS.running, error: null, tweetsTotal: distinct.size, exampleTweetIds: [...exampleIds] } });

  const tasks = batches.flatMap((b) => Array.from({ length: run.passes }, (_, pass) => ({ batch: b, pass })));
  let done = 0;
  let hitsApproved = 0;
  let hitsGraded = 0;
  let spentTokens = { prompt: run.promptTokens, completion: run.completionTokens };
  const costSoFar = () => tokenCostCents(spentTokens.prompt, spentTokens.completion, run.inputPricePerMillion, run.outputPricePerMillion);

  const addTokens = async (prompt: number, completion: number) => {
    spentTokens = { prompt: spentTokens.prompt + prompt, completion: spentTokens.completion + completion };
    await db.llmRun.update({ where: { id: runId }, data: { promptTokens: { increment: prompt }, completionTokens: { increment: completion } } });
  };

  let writes: Promise<unknown> = Promise.resolve();
  const labelBatch = async ({ batch, pass }: { batch: Batch; pass: number }) => {
    const members = [...batch.unknown, ...batch.gold];
    const key = batch.unknown.length > 0 ? batch.unknown : batch.gold;
    const written = await db.llmLabel.count({ where: { runId, pass, tweetId: { in: key.map((t) => t.id) } } });
    if (written === key.length) return; // written before this run resumed
    const order = shuffled(members, createRng(seedFrom(runId, batch.index, pass)));
    const ids = itemIds(order.length);
    const answers = await labelItems(opts.client, scheme, examples, ids.map((id, i) => ({ id, text: order[i].text })), { onUsage: addTokens, signal: opts.signal });
    const answerOf = new Map(ids.map((id, i) => [order[i].id, answers.get(id) ?? null]));
    const grade = batch.gold.length > 0 ? gradeAssignment({ goldAnswers: batch.gold.map((g) => ({ given: answerOf.get(g.id), expected: g.goldLabel as string })), settings }) : null;
    // One batch writes at a time: a gold tweet can be in several batches of a pass, and two transactions inserting
    // its row at once would conflict on PostgreSQL.
    const write = writes.then(() =>
      db.$transaction(async (tx) => {
        const existing = new Set((await tx.llmLabel.findMany({ where: { runId, pass, tweetId: { in: members.map((t) => t.id) } }, select: { tweetId: true } })).map((r) => r.tweetId));
        if (key.every((t) => existing.has(t.id))) return; // another worker wrote this batch meanwhile
        const rows = members.filter((t, i, all) => !existing.has(t.id) && all.findIndex((u) => u.id === t.id) === i).map((t) => ({ runId, tweetId: t.id, pass, label: answerOf.get(t.id) ?? null }));
        if (rows.length) await tx.llmLabel.createMany({ data: rows });
        if (grade) await tx.llmRun.update({ where: { id: runId }, data: { goldCorrect: { increment: grade.correct }, goldTotal: { increment: grade.total } } });
      }),
    );
    writes = write.catch(() => undefined);
    await write;
    if (grade) {
      hitsGraded++;
      if (grade.decision === DECISION.approve) hitsApproved++;
    }
  };

  let failure: unknown = null;
  let next = 0;
  const worker = async () => {
    while (failure === null && next < tasks.length) {
      const task = tasks[next++];
      try {
        await opts.throwIfCancelled?.();
        if (opts.remainingBudgetCents !== null && costSoFar() >= opts.remainingBudgetCents) throw new BudgetReached();
        await labelBatch(task);
        done++;
        await opts.progress?.(done, tasks.length);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, tasks.length)) }, worker));

  const [labelled, noAnswer, fresh] = await Promise.all([
    db.llmLabel.groupBy({ by: ["tweetId"], where: { runId }, _count: { _all: true } }),
    db.llmLabel.count({ where: { runId, label: null } }),
    db.llmRun.findUniqueOrThrow({ where: { id: runId } }),
  ]);
  const tweetsLabelled = labelled.filter((r) => r._count._all >= run.passes).length;
  const costCents = tokenCostCents(fresh.promptTokens, fresh.completionTokens, run.inputPricePerMillion, run.outputPricePerMillion);
  if (fresh.promptTokens + fresh.completionTokens > 0) {
    const data = { eventId: run.eventId, kind: COST_KIND.llm, amountCents: costCents, reference: `llm:${runId}` };
    await db.costEntry.upsert({ where: { reference: data.reference }, create: data, update: { amountCents: costCents } });
  }
  const cancelled = failure !== null && (failure as Error).name === "JobCancelled";
  const status = failure === null ? LLM_RUN_STATUS.done : cancelled ? LLM_RUN_STATUS.cancelled : LLM_RUN_STATUS.failed;
  const error =
    failure === null || cancelled
      ? null
      : failure instanceof BudgetReached
        ? `Stopped: the run's cost reached what the event's budget had left (${opts.remainingBudgetCents} minor units of ${run.currency}).`
        : failure instanceof UserError
          ? failure.message
          : unexpected(runId, failure);
  await db.llmRun.update({ where: { id: runId }, data: { status, error, tweetsLabelled, noAnswer, finishedAt: new Date() } });
  if (cancelled) throw failure;
  const summary: LlmRunSummary = {
    runId,
    model: run.model,
    status,
    tweetsTotal: distinct.size,
    tweetsLabelled,
    noAnswer,
    goldCorrect: fresh.goldCorrect,
    goldTotal: fresh.goldTotal,
    hitsApproved,
    hitsGraded,
    promptTokens: fresh.promptTokens,
    completionTokens: fresh.completionTokens,
    costCents,
    currency: run.currency,
    error,
  };
  return summary;
}
