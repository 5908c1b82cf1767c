import "server-only";
import type { Db } from "@/lib/db/client";
import { LLM_RUN_STATUS } from "@/lib/db/enums";
import { llmEchoReport, type EchoOptions, type WorkerEcho } from "@/lib/metrics/llm-echo";
import { loadLlmCompare, tweetTexts } from "./load";

/** A worker's echo test in one event (the events with a finished LLM run). */
export type WorkerEchoFlag = { eventId: string; slug: string; eventName: string } & Omit<WorkerEcho, "evidence">;

/** The events with a finished LLM run (their latest one is what the test uses). */
async function eventsWithRuns(db: Db): Promise<Array<{ id: string; slug: string; name: string }>> {
  const ids = await db.llmRun.findMany({ where: { status: LLM_RUN_STATUS.done }, distinct: ["eventId"], select: { eventId: true } });
  if (ids.length === 0) return [];
  return db.event.findMany({ where: { id: { in: ids.map((r) => r.eventId) } }, select: { id: true, slug: true, name: true }, orderBy: { slug: "asc" } });
}

/**
 * Worker id → their flags (flagged events only), for the Workers page's "echoes the LLM" column. Computed on each
 * call over every event with a finished LLM run (HumAID scale: README's benchmark table).
 */
export async function echoFlagsByWorker(db: Db, options: EchoOptions = {}): Promise<Map<string, WorkerEchoFlag[]>> {
  const out = new Map<string, WorkerEchoFlag[]>();
  for (const e of await eventsWithRuns(db)) {
    const data = await loadLlmCompare(db, e.slug);
    if (!data?.run) continue;
    const r = llmEchoReport({ judgments: data.judgments, accepted: data.accepted, llm: data.llm, gold: data.workerGold, labels: data.labels.map((l) => l.value) }, options);
    for (const w of r.workers) {
      if (!w.flagged) continue;
      const { evidence: _evidence, ...rest } = w;
      void _evidence;
      const list = out.get(w.worker) ?? [];
      list.push({ eventId: e.id, slug: e.slug, eventName: e.name, ...rest });
      out.set(w.worker, list);
    }
  }
  return out;
}

export type WorkerEchoDetail = {
  eventId: string;
  slug: string;
  eventName: string;
  test: Omit<WorkerEcho, "evidence">;
  evidence: Array<{ externalId: string; text: string; accepted: string; llm: string; label: string; echoed: boolean }>;
};

/** One worker's echo test in every event with a finished LLM run they worked in, with the evidence tweets. */
export async function workerEchoDetail(db: Db, workerId: string, options: EchoOptions = {}): Promise<WorkerEchoDetail[]> {
  const worked = await db.judgment.findMany({ where: { workerId, counted: true, isGold: false }, distinct: ["tweetId"], select: { tweet: { select: { eventId: true } } }, take: 100_000 });
  const eventIds = new Set(worked.map((j) => j.tweet.eventId));
  const out: WorkerEchoDetail[] = [];
  for (const e of await eventsWithRuns(db)) {
    if (!eventIds.has(e.id)) continue;
    const data = await loadLlmCompare(db, e.slug);
    if (!data?.run) continue;
    const r = llmEchoReport({ judgments: data.judgments, accepted: data.accepted, llm: data.llm, gold: data.workerGold, labels: data.labels.map((l) => l.value) }, options);
    const w = r.workers.find((x) => x.worker === workerId);
    if (!w) continue;
    const texts = await tweetTexts(db, w.evidence.map((x) => x.tweet));
    const { evidence, ...test } = w;
    out.push({
      eventId: e.id,
      slug: e.slug,
      eventName: e.name,
      test,
      evidence: evidence.map((x) => ({ externalId: texts.get(x.tweet)?.externalId ?? "", text: texts.get(x.tweet)?.text ?? "", accepted: x.accepted, llm: x.llm, label: x.label, echoed: x.echoed })),
    });
  }
  return out;
}
