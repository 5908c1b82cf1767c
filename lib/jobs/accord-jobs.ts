import "server-only";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { runPublishJob } from "@/lib/campaign/publish";
import { runEventAnalysisJob } from "@/lib/analysis/analysis";
import { runGoldJob } from "@/lib/gold/gold-requests";
import { runReplayJob } from "@/lib/analysis/replay-job";
import { getProlificProvider } from "@/lib/campaign/providers";
import { runProlificReturnJob } from "@/lib/task/prolific-screening";
import { type ImportClassifierLoader, runImportJob } from "@/lib/ingest/import-job";
import { runJudgmentImportJob } from "@/lib/ingest/judgments/judgment-import-job";
import { loadImportClassifier } from "@/lib/models/import-classifier";
import { runTrainModelJob } from "@/lib/models/train-job";
import { UserError } from "@/lib/errors";
import { JOBS } from "./job-types";
import { runLlmLabelJob } from "./llm-label-job";
import { createJobRegistry, defineJob, type JobRegistry } from "./runner";

export type AccordJobOptions = {
  /** The crowd provider publishing uses instead of the event's (campaign simulations, tests). */
  provider?: CrowdProvider;
  /** HITs sent at once by the publish job. */
  publishConcurrency?: number;
  /** Where the import job's classifier step gets its model (default: the event's chosen or newest model). */
  loadClassifier?: ImportClassifierLoader | null;
};

/**
 * The one place where Accord's job handlers are put together: the web server (lib/startup/background.ts),
 * `accord worker` and `accord import` all run this registry, so a job runs the same wherever it is claimed.
 */
export function accordJobs({ provider, publishConcurrency, loadClassifier = loadImportClassifier }: AccordJobOptions = {}): JobRegistry {
  return createJobRegistry([
    defineJob(JOBS.publish, (ctx, payload) => runPublishJob(ctx, payload, { provider, concurrency: publishConcurrency })),
    defineJob(JOBS.import, (ctx, payload) => runImportJob(ctx, payload, { loadClassifier })),
    defineJob(JOBS.judgmentImport, runJudgmentImportJob),
    defineJob(JOBS.eventAnalysis, runEventAnalysisJob),
    defineJob(JOBS.trainModel, runTrainModelJob),
    defineJob(JOBS.gold, runGoldJob),
    defineJob(JOBS.replay, runReplayJob),
    defineJob(JOBS.llmLabel, async (ctx, payload) => {
      const summary = await runLlmLabelJob(ctx, payload);
      // A failed run fails its job (the runner may try it again: the run resumes where it stopped).
      if (summary.error) throw new UserError(summary.error);
      return summary;
    }),
    defineJob(JOBS.prolificReturn, (ctx, payload) => runProlificReturnJob(ctx, payload, { provider: getProlificProvider })),
  ]);
}
