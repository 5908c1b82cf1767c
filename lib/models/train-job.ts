import "server-only";
import { type TrainRequest, trainRequestSchema } from "./models.validation";
import type { Db, Prisma } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { saveClassifierModel } from "@/lib/classify/store";
import { trainClassifier, type TrainOptions } from "@/lib/classify/train";
import { JOBS } from "@/lib/jobs/job-types";
import { enqueueJob, renewLease } from "@/lib/jobs/queue";
import type { JobContext } from "@/lib/jobs/runner";
import { splitFingerprint } from "./evaluate-predictions";
import { type ScoresByEvent, scoreByEvent } from "./scores";
import { checkTrainable, loadModelSplits, MIN_PER_LABEL, SPLIT_SEED } from "./split-data";

/**
 * Training a model on events' accepted labels, as a recorded job: split (HumAID 70/10/20, as exported),
 * train on train with the setting chosen on dev (weighted F1), score on test (Table 7 style, overall and
 * per event), and save a new version of the named model with its training data and scores.
 */
export const TRAIN_MODEL_JOB = JOBS.trainModel.type;


/** What is stored in ClassifierModel.scores. */
export type StoredModelScores = ScoresByEvent & { split: "test"; seed: string };

export type TrainedOnSummary = {
  events: Array<{ id: string; slug: string; name: string }>;
  split: {
    seed: string;
    train: number;
    dev: number;
    test: number;
    minPerLabel: number;
    dropped: Record<string, Record<string, number>>;
    removedNearDuplicates: Record<string, number>;
    /** Of the test split's (id, label) rows: evaluations notice when the events' labels changed since. */
    testFingerprint: string;
  };
  jobId?: string;
};

type Progress = (done: number, message: string) => Promise<void>;
const STEPS = 5;

/** Checks the request and the data, then queues the training job. Returns the job id. */
export async function requestModelTraining(db: Db, { request, userId }: { request: TrainRequest; userId?: string | null }): Promise<{ jobId: string }> {
  const parsed = trainRequestSchema.parse(request);
  await checkTrainable(db, parsed.eventIds);
  const job = await enqueueJob(db, JOBS.trainModel, { payload: parsed, createdById: userId ?? null, maxAttempts: 2 });
  return { jobId: job.id };
}

/** The whole training run (the job's body; also callable directly). */
export async function trainModelOnEvents(
  db: Db,
  {
    request,
    jobId,
    progress = async () => undefined,
    options = {},
  }: {
    request: TrainRequest;
    jobId?: string;
    progress?: Progress;
    /** Training options (lib/classify defaults otherwise; the job uses the defaults). */
    options?: TrainOptions;
  },
) {
  const { name, eventIds } = trainRequestSchema.parse(request);
  await progress(0, "checking the accepted labels");
  await checkTrainable(db, eventIds);
  await progress(1, "splitting 70/10/20 (as exported)");
  const splits = await loadModelSplits(db, eventIds);
  const { train, dev, test } = splits.rows;
  const trainLabels = new Set(train.map((r) => r.label));
  if (trainLabels.size < 2 || test.length === 0) {
    throw new UserError(
      `Too few accepted labels to train a model: the split left ${train.length} training and ${test.length} test tweets with ${trainLabels.size} label${trainLabels.size === 1 ? "" : "s"}.`,
      "too_few_labels",
    );
  }
  await progress(2, `training on ${train.length.toLocaleString("en-US")} tweets (setting chosen on ${dev.length.toLocaleString("en-US")} dev tweets)`);
  const model = trainClassifier({
    texts: train.map((r) => r.text),
    labels: train.map((r) => r.label),
    dev: dev.length > 0 ? { texts: dev.map((r) => r.text), labels: dev.map((r) => r.label) } : undefined,
    options: { metric: "weighted-f1", ...options },
  });
  await progress(3, `scoring on ${test.length.toLocaleString("en-US")} test tweets`);
  const predicted = model.predict(test.map((r) => r.text));
  const labelOrder = [...new Set([...model.labels, ...test.map((r) => r.label)])].sort();
  const scored = scoreByEvent(
    test.map((r, i) => ({ event: r.event, gold: r.label, pred: predicted[i] })),
    labelOrder,
  );
  const scores: StoredModelScores = { split: "test", seed: SPLIT_SEED, ...scored };
  await progress(4, "saving the model");
  const trainedOn: TrainedOnSummary = {
    events: splits.events,
    split: { seed: SPLIT_SEED, train: train.length, dev: dev.length, test: test.length, minPerLabel: MIN_PER_LABEL, dropped: splits.dropped, removedNearDuplicates: splits.removed, testFingerprint: splitFingerprint(test) },
    ...(jobId ? { jobId } : {}),
  };
  const saved = await saveClassifierModel(db, {
    name,
    model,
    schemeId: splits.schemeId,
    trainedOn: trainedOn as unknown as Record<string, Prisma.InputJsonValue>,
    scores: scores as unknown as Prisma.InputJsonValue,
  });
  await progress(STEPS, `saved ${saved.name} v${saved.version}: weighted F1 ${scores.overall.weighted.f1.toFixed(3)} on test`);
  return { model: saved, scores };
}

/** Training blocks this process's event loop: hold the lease long enough that no other worker takes the job over. */
const TRAINING_LEASE_MS = 30 * 60_000;

export async function runTrainModelJob(ctx: JobContext, request: TrainRequest): Promise<Prisma.InputJsonValue> {
  await renewLease(ctx.db, { jobId: ctx.job.id, owner: ctx.owner, leaseMs: TRAINING_LEASE_MS });
  const { model, scores } = await trainModelOnEvents(ctx.db, {
    request,
    jobId: ctx.job.id,
    progress: async (done, message) => {
      await ctx.throwIfCancelled();
      await ctx.progress(done, STEPS, message, true);
      await renewLease(ctx.db, { jobId: ctx.job.id, owner: ctx.owner, leaseMs: TRAINING_LEASE_MS });
    },
  });
  return { modelId: model.id, name: model.name, version: model.version, weightedF1: scores.overall.weighted.f1 };
}
