import "server-only";
import { countedJudgments } from "@/lib/analysis/counted-judgments";
import { ledgerByCurrency } from "@/lib/campaign/ledger-currency";
import type { Db } from "@/lib/db/client";
import { LLM_RUN_STATUS, TWEET_ROLE } from "@/lib/db/enums";
import { majorityOverPasses } from "@/lib/metrics/llm-compare";

/** What the LLM-vs-crowd report of one event is computed from (read only; the LLM crowd writes LlmRun/LlmLabel). */
export type LlmCompareData = {
  event: { id: string; slug: string; name: string; provider: string };
  /** Scheme labels in order, with their display names. */
  labels: Array<{ value: string; name: string }>;
  run: {
    id: string;
    model: string;
    createdAt: Date;
    passes: number;
    temperature: number;
    goldCorrect: number;
    goldTotal: number;
    promptTokens: number;
    completionTokens: number;
    inputPricePerMillion: number;
    outputPricePerMillion: number;
    currency: string;
    exampleTweetIds: string[];
  } | null;
  /** Tweet id → the LLM's label (majority over passes; absent when it gave none or its passes tied). */
  llm: Map<string, string>;
  /** Tweets of the run with no label (no answer in any pass, or a tie between passes). */
  llmNoLabel: number;
  accepted: Map<string, string>;
  /** Gold tweet id → gold label, for the gold tweets the run labelled that were not its prompt's examples. */
  gold: Map<string, string>;
  judgments: Array<{ tweet: string; worker: string; label: string }>;
  /** Worker id → gold correct/total in this event. */
  workerGold: Map<string, { correct: number; total: number }>;
  workers: Map<string, { externalId: string; provider: string }>;
  /** The crowd's ledger for the event, per currency (minor units). */
  crowdCost: Array<{ currency: string; minor: number }>;
};

/** The event's latest finished LLM run (status done), or null. */
export async function latestDoneRun(db: Db, eventId: string) {
  return db.llmRun.findFirst({ where: { eventId, status: LLM_RUN_STATUS.done }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

export async function loadLlmCompare(db: Db, slug: string): Promise<LlmCompareData | null> {
  const event = await db.event.findUnique({ where: { slug }, select: { id: true, slug: true, name: true, provider: true, schemeId: true } });
  if (!event) return null;
  const [labelRows, runRow, acceptedRows, judgments, goldGroups, crowdCost] = await Promise.all([
    db.label.findMany({ where: { schemeId: event.schemeId }, orderBy: { position: "asc" }, select: { value: true, name: true } }),
    latestDoneRun(db, event.id),
    db.acceptedLabel.findMany({ where: { eventId: event.id }, select: { tweetId: true, label: true } }),
    countedJudgments(db, event.id),
    db.judgment.groupBy({ by: ["workerId", "correct"], where: { isGold: true, tweet: { eventId: event.id } }, _count: { _all: true } }),
    ledgerByCurrency(db, { eventId: event.id }),
  ]);
  const exampleTweetIds = runRow && Array.isArray(runRow.exampleTweetIds) ? (runRow.exampleTweetIds as unknown[]).filter((x): x is string => typeof x === "string") : [];
  const llm = new Map<string, string>();
  let llmNoLabel = 0;
  const gold = new Map<string, string>();
  if (runRow) {
    const passes = new Map<string, Array<string | null>>();
    for (const l of await db.llmLabel.findMany({ where: { runId: runRow.id }, select: { tweetId: true, label: true } })) {
      let list = passes.get(l.tweetId);
      if (!list) passes.set(l.tweetId, (list = []));
      list.push(l.label);
    }
    for (const [tweet, list] of passes) {
      const label = majorityOverPasses(list);
      if (label === null) llmNoLabel++;
      else llm.set(tweet, label);
    }
    const examples = new Set(exampleTweetIds);
    const goldTweets = await db.tweet.findMany({ where: { eventId: event.id, role: TWEET_ROLE.gold, goldLabel: { not: null } }, select: { id: true, goldLabel: true } });
    for (const t of goldTweets) if (passes.has(t.id) && !examples.has(t.id)) gold.set(t.id, t.goldLabel as string);
  }
  const workerGold = new Map<string, { correct: number; total: number }>();
  for (const g of goldGroups) {
    const c = workerGold.get(g.workerId) ?? { correct: 0, total: 0 };
    c.total += g._count._all;
    if (g.correct) c.correct += g._count._all;
    workerGold.set(g.workerId, c);
  }
  const workerIds = [...new Set([...judgments.map((j) => j.annotator), ...workerGold.keys()])];
  const workerRows = workerIds.length ? await db.worker.findMany({ where: { id: { in: workerIds } }, select: { id: true, externalId: true, provider: true } }) : [];
  return {
    event: { id: event.id, slug: event.slug, name: event.name, provider: event.provider },
    labels: labelRows,
    run: runRow
      ? {
          id: runRow.id,
          model: runRow.model,
          createdAt: runRow.createdAt,
          passes: runRow.passes,
          temperature: runRow.temperature,
          goldCorrect: runRow.goldCorrect,
          goldTotal: runRow.goldTotal,
          promptTokens: runRow.promptTokens,
          completionTokens: runRow.completionTokens,
          inputPricePerMillion: runRow.inputPricePerMillion,
          outputPricePerMillion: runRow.outputPricePerMillion,
          currency: runRow.currency,
          exampleTweetIds,
        }
      : null,
    llm,
    llmNoLabel,
    accepted: new Map(acceptedRows.map((a) => [a.tweetId, a.label])),
    gold,
    judgments: judgments.map((j) => ({ tweet: j.item, worker: j.annotator, label: j.label })),
    workerGold,
    workers: new Map(workerRows.map((w) => [w.id, { externalId: w.externalId, provider: w.provider }])),
    crowdCost: crowdCost.map((c) => ({ currency: c.currency, minor: c.minor })),
  };
}

/** Tweet id → external id and text, for the tweets a report shows. */
export async function tweetTexts(db: Db, ids: readonly string[]): Promise<Map<string, { externalId: string; text: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.tweet.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, externalId: true, text: true } });
  return new Map(rows.map((r) => [r.id, { externalId: r.externalId, text: r.text }]));
}
