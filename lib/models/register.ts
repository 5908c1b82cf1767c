import { setImportClassifierLoader } from "@/lib/ingest/import-job";
import { registerJobHandler } from "@/lib/jobs/runner";
import { loadImportClassifier } from "./import-classifier";
import { runTrainModelJob, TRAIN_MODEL_JOB } from "./train-job";

/** The Models section's background work: the training job, and the classifier the import job applies. */
export function registerModelJobs(): void {
  registerJobHandler(TRAIN_MODEL_JOB, (ctx) => runTrainModelJob(ctx));
  setImportClassifierLoader(loadImportClassifier);
}
