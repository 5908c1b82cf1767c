import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { type ClassifierModelMeta, listClassifierModels } from "@/lib/classify/store";
import type { ClassificationReport } from "@/lib/metrics/classification";
import type { EventScores } from "./scores";
import { trainRequestSchema } from "./models.validation";
import { TRAIN_MODEL_JOB } from "./train-job";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/** Reads for the Models pages. Model bytes are never selected here. */

const reportSchema = z.object({
  n: z.number(),
  accuracy: z.number(),
  perClass: z.array(z.object({ label: z.string(), precision: z.number(), recall: z.number(), f1: z.number(), support: z.number() })),
  macro: z.object({ precision: z.number(), recall: z.number(), f1: z.number() }),
  weighted: z.object({ precision: z.number(), recall: z.number(), f1: z.number() }),
  confusion: z.object({ labels: z.array(z.string()), matrix: z.array(z.array(z.number())) }),
});
const eventScoresSchema = z.object({
  slug: z.string(),
  name: z.string(),
  n: z.number(),
  classes: z.number().default(0),
  accuracy: z.number(),
  weighted: z.object({ precision: z.number(), recall: z.number(), f1: z.number() }),
  macroF1: z.number(),
});
const storedScoresSchema = z.object({ overall: reportSchema, perEvent: z.array(eventScoresSchema) });
const trainedOnSchema = z.object({
  events: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string() })).default([]),
  rows: z.number().optional(),
  labels: z.record(z.string(), z.number()).default({}),
  trainingMs: z.number().optional(),
  dev: z.object({ rows: z.number(), metric: z.string(), score: z.number() }).optional(),
  split: z
    .object({ seed: z.string(), train: z.number(), dev: z.number(), test: z.number(), dropped: z.record(z.string(), z.record(z.string(), z.number())).default({}) })
    .optional(),
  options: z.object({ linear: z.object({ loss: z.string(), c: z.number(), classWeight: z.string() }).partial() }).partial().optional(),
});

export type ModelScoresView = { overall: ClassificationReport; perEvent: EventScores[] };
export type TrainedOnView = z.infer<typeof trainedOnSchema>;

export type ModelRow = Omit<ClassifierModelMeta, "scores" | "trainedOn"> & { scores: ModelScoresView | null; trainedOn: TrainedOnView; schemeName: string | null };

function view(meta: ClassifierModelMeta, schemes: Map<string, string>): ModelRow {
  const scores = storedScoresSchema.safeParse(meta.scores);
  const trainedOn = trainedOnSchema.safeParse(meta.trainedOn ?? {});
  return {
    ...meta,
    scores: scores.success ? scores.data : null,
    trainedOn: trainedOn.success ? trainedOn.data : { events: [], labels: {} },
    schemeName: meta.schemeId ? (schemes.get(meta.schemeId) ?? null) : null,
  };
}

async function schemeNames(db: Db): Promise<Map<string, string>> {
  const rows = await db.labelScheme.findMany({ select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function listModels(db: Db): Promise<ModelRow[]> {
  const [models, schemes] = await Promise.all([listClassifierModels(db), schemeNames(db)]);
  return models.map((m) => view(m, schemes));
}

export async function getModel(db: Db, id: string): Promise<ModelRow | null> {
  const meta = await db.classifierModel.findUnique({
    where: { id },
    select: { id: true, name: true, version: true, kind: true, schemeId: true, trainedOn: true, scores: true, createdAt: true },
  });
  if (!meta) return null;
  return view(meta, await schemeNames(db));
}

export type TrainableEvent = { id: string; slug: string; name: string; schemeId: string; schemeName: string; accepted: number };

/** Events with their accepted labels (gold and retired tweets excluded), for the train and evaluate forms. */
export async function trainableEvents(db: Db): Promise<TrainableEvent[]> {
  const [events, counts] = await Promise.all([
    db.event.findMany({ where: { archived: false }, orderBy: { name: "asc" }, select: { id: true, slug: true, name: true, schemeId: true, scheme: { select: { name: true } } } }),
    db.acceptedLabel.groupBy({ by: ["eventId"], where: { tweet: { role: TWEET_ROLE.unknown, status: { not: TWEET_STATUS.retired } } }, _count: { _all: true } }),
  ]);
  const byEvent = new Map(counts.map((c) => [c.eventId, c._count._all]));
  return events.map((e) => ({ id: e.id, slug: e.slug, name: e.name, schemeId: e.schemeId, schemeName: e.scheme.name, accepted: byEvent.get(e.id) ?? 0 }));
}

export type TrainingJobView = {
  id: string;
  state: string;
  name: string;
  eventCount: number;
  progressDone: number;
  progressTotal: number | null;
  message: string | null;
  error: string | null;
  modelId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

const jobResultSchema = z.object({ modelId: z.string() });

/** The latest training jobs (newest first). */
export async function listTrainingJobs(db: Db, { take = 10 }: { take?: number } = {}): Promise<TrainingJobView[]> {
  const jobs = await db.job.findMany({
    where: { type: TRAIN_MODEL_JOB },
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, state: true, payload: true, result: true, progressDone: true, progressTotal: true, message: true, error: true, createdAt: true, finishedAt: true },
  });
  return jobs.map((j) => {
    const payload = trainRequestSchema.safeParse(j.payload);
    const result = jobResultSchema.safeParse(j.result);
    return {
      id: j.id,
      state: j.state,
      name: payload.success ? payload.data.name : "(invalid request)",
      eventCount: payload.success ? payload.data.eventIds.length : 0,
      progressDone: j.progressDone,
      progressTotal: j.progressTotal,
      message: j.message,
      error: j.error,
      modelId: result.success ? result.data.modelId : null,
      createdAt: j.createdAt,
      finishedAt: j.finishedAt,
    };
  });
}

/** Events that use this model at import time (chosen explicitly in their ingest settings). */
export async function eventsUsingModel(db: Db, modelId: string): Promise<Array<{ slug: string; name: string }>> {
  const events = await db.event.findMany({ where: { archived: false }, select: { slug: true, name: true, filters: true } });
  const chosen = z.object({ classifier: z.object({ modelId: z.string(), enabled: z.boolean().optional() }) });
  return events
    .filter((e) => {
      const p = chosen.safeParse(e.filters);
      return p.success && p.data.classifier.modelId === modelId && p.data.classifier.enabled !== false;
    })
    .map(({ slug, name }) => ({ slug, name }));
}
