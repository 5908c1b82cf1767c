import { z } from "zod";
import { goldJobSchema } from "@/lib/gold/gold.validation";
import { trainRequestSchema } from "@/lib/models/models.validation";

/**
 * Every kind of recorded job Accord runs: its type (the Job.type column) and the zod schema of its payload, checked
 * when the job is enqueued and again when it runs. Light on purpose (zod only): enqueuing code imports it without the
 * handlers, which are put together in lib/jobs/accord-jobs.ts.
 */
export type JobSpec<P> = { type: string; payloadSchema: z.ZodType<P> };

function jobSpec<P>(type: string, payloadSchema: z.ZodType<P>): JobSpec<P> {
  return { type, payloadSchema };
}

export const JOBS = {
  publish: jobSpec("publish", z.object({ batchId: z.string().min(1) })),
  /** rerun: a completed import read again with the event's current settings (its tweets are replaced). */
  import: jobSpec("import", z.object({ importId: z.string().min(1), filePath: z.string().min(1), rerun: z.boolean().optional() })),
  /** Another platform's judgments into an event (lib/ingest/judgments/judgment-import-job.ts). */
  judgmentImport: jobSpec("judgment-import", z.object({ importId: z.string().min(1), filePath: z.string().min(1) })),
  eventAnalysis: jobSpec("event-analysis", z.object({ eventId: z.string().min(1) })),
  trainModel: jobSpec("train-model", trainRequestSchema),
  gold: jobSpec("gold", goldJobSchema),
  /** The Agreement tab's replay of an event's recorded work under a grid of thresholds (lib/analysis/replay-job.ts). */
  replay: jobSpec("replay", z.object({ eventId: z.string().min(1) })),
  /** A failed screening's return request that Prolific refused or did not answer, asked again (lib/task/prolific-screening.ts). */
  prolificReturn: jobSpec("prolific-return", z.object({ submissionId: z.string().min(1).max(100), reason: z.string().min(1).max(500) })),
  /** An LLM run labelling an event's tweets (lib/jobs/llm-label-job.ts, lib/crowd/llm/label-run.ts). */
  llmLabel: jobSpec("llm-label", z.object({ runId: z.string().min(1).max(100) })),
} as const;

export type JobPayload<S> = S extends JobSpec<infer P> ? P : never;
