import "server-only";
import type { Db } from "@/lib/db/client";
import { tokenCostCents } from "./label-run";

/** An event's LLM runs, newest first, with their job's progress (the Data tab's card). */
export type LlmRunRow = {
  id: string;
  model: string;
  status: string;
  passes: number;
  temperature: number;
  tweetsTotal: number;
  tweetsLabelled: number;
  noAnswer: number;
  goldCorrect: number;
  goldTotal: number;
  promptTokens: number;
  completionTokens: number;
  costCents: number;
  currency: string;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  progress: { done: number; total: number | null; message: string | null } | null;
};

export async function listLlmRuns(db: Db, eventId: string, take = 10): Promise<LlmRunRow[]> {
  const runs = await db.llmRun.findMany({ where: { eventId }, orderBy: { createdAt: "desc" }, take });
  const jobs = new Map(
    (await db.job.findMany({ where: { id: { in: runs.flatMap((r) => (r.jobId ? [r.jobId] : [])) } }, select: { id: true, progressDone: true, progressTotal: true, message: true } })).map((j) => [j.id, j]),
  );
  return runs.map((r) => {
    const job = r.jobId ? jobs.get(r.jobId) : undefined;
    return {
      id: r.id,
      model: r.model,
      status: r.status,
      passes: r.passes,
      temperature: r.temperature,
      tweetsTotal: r.tweetsTotal,
      tweetsLabelled: r.tweetsLabelled,
      noAnswer: r.noAnswer,
      goldCorrect: r.goldCorrect,
      goldTotal: r.goldTotal,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      costCents: tokenCostCents(r.promptTokens, r.completionTokens, r.inputPricePerMillion, r.outputPricePerMillion),
      currency: r.currency,
      error: r.error,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      progress: job ? { done: job.progressDone, total: job.progressTotal, message: job.message } : null,
    };
  });
}
