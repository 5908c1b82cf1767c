import "server-only";
import type { Db } from "@/lib/db/client";
import { minorToMajor } from "@/lib/text/format";
import { llmCompare, llmRunCost, type CompareTweet } from "@/lib/metrics/llm-compare";
import { llmEchoReport, type EchoOptions } from "@/lib/metrics/llm-echo";
import { loadLlmCompare, tweetTexts, type LlmCompareData } from "./load";

/**
 * The LLM against the crowd on one event, as the Agreement page, the workers' pages and `accord llm compare --json`
 * show it (README: "The LLM against the crowd"). Tweets are named by their external id; workers by theirs.
 */
export type TweetRef = { tweetId: string; text: string };
export type EchoWorkerJson = {
  workerId: string;
  crowd: string;
  disagreementTweets: number;
  echoes: number;
  expectedEchoes: number;
  goldCorrect: number;
  goldTotal: number;
  tested: boolean;
  p: number | null;
  pAdjusted: number | null;
  flagged: boolean;
  /** Flagged workers only: the disagreement tweets they judged (echoed first, at most 20). */
  evidence: Array<TweetRef & { accepted: string; llm: string; label: string }>;
};
export type LlmCompareJson = {
  event: string;
  run: { id: string; model: string; createdAt: string; passes: number; temperature: number; exampleTweets: number } | null;
  tweets: { accepted: number; llmLabelled: number; llmNoLabel: number; compared: number; disagreements: number };
  goldAccuracy: { llm: { correct: number; total: number; accuracy: number | null }; crowd: { correct: number; total: number; accuracy: number | null } };
  agreement: number | null;
  kappa: number | null;
  kappaInterval: [number, number] | null;
  labels: string[];
  confusion: number[][];
  noAnswer: number[];
  disagreements: Array<{ accepted: string; llm: string; count: number; examples: TweetRef[] }>;
  cost: {
    llm: { currency: string; total: number; perLabel: number | null } | null;
    crowd: Array<{ currency: string; total: number; perAcceptedLabel: number | null }>;
  };
  echo: { alpha: number; minTweets: number; tested: number; flagged: number; workers: EchoWorkerJson[] };
};

export const LLM_COMPARE_JSON_KEYS = ["event", "run", "tweets", "goldAccuracy", "agreement", "kappa", "kappaInterval", "labels", "confusion", "noAnswer", "disagreements", "cost", "echo"] as const;

export type ReportOptions = EchoOptions & { resamples?: number };

/** The report from loaded data; its tweets are named by internal id and have no text yet (withTexts). */
export function buildLlmCompareReport(data: LlmCompareData, options: ReportOptions = {}): LlmCompareJson {
  const ref = (id: string): TweetRef => ({ tweetId: id, text: "" });
  const labels = data.labels.map((l) => l.value);
  const tweets: CompareTweet[] = [];
  for (const [tweet, accepted] of data.accepted) tweets.push({ tweet, accepted, llm: data.llm.get(tweet) ?? null });
  for (const [tweet, gold] of data.gold) tweets.push({ tweet, gold, llm: data.llm.get(tweet) ?? null });
  const figures = llmCompare(tweets, labels, { resamples: options.resamples });
  const echo = data.run ? llmEchoReport({ judgments: data.judgments, accepted: data.accepted, llm: data.llm, gold: data.workerGold, labels }, options) : null;
  let crowdCorrect = 0;
  let crowdTotal = 0;
  for (const g of data.workerGold.values()) {
    crowdCorrect += g.correct;
    crowdTotal += g.total;
  }
  const acceptedCount = data.accepted.size;
  const llmTotal = data.run ? llmRunCost(data.run) : 0;
  return {
    event: data.event.slug,
    run: data.run
      ? { id: data.run.id, model: data.run.model, createdAt: data.run.createdAt.toISOString(), passes: data.run.passes, temperature: data.run.temperature, exampleTweets: data.run.exampleTweetIds.length }
      : null,
    tweets: { accepted: acceptedCount, llmLabelled: data.llm.size, llmNoLabel: data.llmNoLabel, compared: figures.compared, disagreements: figures.confusion.reduce((s, row, i) => s + row.reduce((t, x, j) => t + (i === j ? 0 : x), 0), 0) },
    goldAccuracy: {
      llm: figures.gold,
      crowd: { correct: crowdCorrect, total: crowdTotal, accuracy: crowdTotal > 0 ? crowdCorrect / crowdTotal : null },
    },
    agreement: figures.agreement,
    kappa: figures.kappa,
    kappaInterval: figures.kappaInterval,
    labels: figures.labels,
    confusion: figures.confusion,
    noAnswer: figures.noAnswer,
    disagreements: figures.pairs.map((p) => ({ accepted: p.accepted, llm: p.llm, count: p.count, examples: p.examples.map(ref) })),
    cost: {
      llm: data.run ? { currency: data.run.currency, total: llmTotal, perLabel: data.llm.size > 0 ? llmTotal / data.llm.size : null } : null,
      crowd: data.crowdCost.map((c) => {
        const total = minorToMajor(c.minor, c.currency);
        return { currency: c.currency, total, perAcceptedLabel: acceptedCount > 0 ? total / acceptedCount : null };
      }),
    },
    echo: {
      alpha: echo?.alpha ?? options.alpha ?? 0.05,
      minTweets: echo?.minTweets ?? options.minTweets ?? 5,
      tested: echo?.tested ?? 0,
      flagged: echo?.flagged ?? 0,
      workers: (echo?.workers ?? []).map((w) => ({
        workerId: data.workers.get(w.worker)?.externalId ?? w.worker,
        crowd: data.workers.get(w.worker)?.provider ?? "",
        disagreementTweets: w.tweets,
        echoes: w.echoes,
        expectedEchoes: w.expected,
        goldCorrect: w.goldCorrect,
        goldTotal: w.goldTotal,
        tested: w.tested,
        p: w.p,
        pAdjusted: w.pAdjusted,
        flagged: w.flagged,
        evidence: w.flagged ? w.evidence.map((e) => ({ ...ref(e.tweet), accepted: e.accepted, llm: e.llm, label: e.label })) : [],
      })),
    },
  };
}

/** The report with its tweets (named by internal id while computed) named by external id, with their text. */
function withTexts(r: LlmCompareJson, texts: ReadonlyMap<string, { externalId: string; text: string }>): LlmCompareJson {
  const ref = <T extends TweetRef>(t: T): T => ({ ...t, tweetId: texts.get(t.tweetId)?.externalId ?? t.tweetId, text: texts.get(t.tweetId)?.text ?? "" });
  return {
    ...r,
    disagreements: r.disagreements.map((d) => ({ ...d, examples: d.examples.map(ref) })),
    echo: { ...r.echo, workers: r.echo.workers.map((w) => ({ ...w, evidence: w.evidence.map(ref) })) },
  };
}

/** Loads and computes the report of an event (null: no such event). */
export async function llmCompareReport(db: Db, slug: string, options: ReportOptions = {}): Promise<LlmCompareJson | null> {
  const data = await loadLlmCompare(db, slug);
  if (!data) return null;
  const raw = buildLlmCompareReport(data, options);
  const ids = [...raw.disagreements.flatMap((d) => d.examples.map((e) => e.tweetId)), ...raw.echo.workers.flatMap((w) => w.evidence.map((e) => e.tweetId))];
  return withTexts(raw, await tweetTexts(db, ids));
}
