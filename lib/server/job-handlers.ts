import { runPublishJob } from "@/lib/campaign/publish";
import { EVENT_ANALYSIS_JOB, runEventAnalysisJob } from "@/lib/events/analysis";
import { registerImportJobHandler } from "@/lib/ingest/import-job";
import { registerJobHandler } from "@/lib/jobs/runner";
import { registerModelJobs } from "@/lib/models/register";

// Every job type Accord runs, registered in one place for the server process and `accord worker`.
export function registerJobHandlers(): void {
  registerJobHandler("publish", (ctx) => runPublishJob(ctx));
  registerImportJobHandler();
  registerJobHandler(EVENT_ANALYSIS_JOB, (ctx) => runEventAnalysisJob(ctx));
  registerModelJobs();
}
