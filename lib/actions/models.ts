"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActionUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { evaluatePredictions, type EvaluationScope, MAX_PREDICTIONS_BYTES } from "@/lib/models/evaluate-predictions";
import { applyModelToImports } from "@/lib/models/import-classifier";
import { requestModelTraining, trainRequestSchema } from "@/lib/models/train-job";
import { type ActionState, errorState, parseForm } from "./action-state";

const list = (v: unknown) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]);
const optionalInt = (v: unknown) => (v === undefined || v === null || String(v).trim() === "" ? null : Number(v));

const trainFormSchema = z.object({
  name: trainRequestSchema.shape.name,
  eventIds: z.preprocess(list, trainRequestSchema.shape.eventIds),
});

/** Queues a training job on the chosen events' accepted labels (refused when there are too few). */
export async function trainModelAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(trainFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const { jobId } = await requestModelTraining(getDb(), { request: parsed.data, userId: user.id });
    revalidatePath("/models");
    return { ok: true, message: `Training "${parsed.data.name}" started; its progress is shown below.`, data: { jobId } };
  } catch (err) {
    return errorState(err, formData);
  }
}

const evaluateFormSchema = z.object({
  scope: z.enum(["model", "events"]),
  modelId: z.string().max(60).optional(),
  eventIds: z.preprocess(list, z.array(z.string().min(1).max(60)).max(50)),
  split: z.enum(["train", "dev", "test", "all"]).default("test"),
  file: z
    .instanceof(File, { message: "Choose a CSV file with tweet_id,label." })
    .refine((f) => f.size > 0 && f.name !== "", "Choose a CSV file with tweet_id,label (it must not be empty).")
    .refine((f) => f.size <= MAX_PREDICTIONS_BYTES, `At most ${MAX_PREDICTIONS_BYTES / 1024} KB.`),
});

/** Scores an uploaded predictions CSV against a model's test split or events' accepted labels. */
export async function evaluatePredictionsAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    await requireActionUser("edit");
    const parsed = parseForm(evaluateFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const { scope: kind, modelId, eventIds, split, file } = parsed.data;
    let scope: EvaluationScope;
    if (kind === "model") {
      if (!modelId) throw new UserError("Choose a model.", "invalid_scope", { modelId: ["Choose a model."] });
      scope = { kind, modelId };
    } else {
      if (eventIds.length === 0) throw new UserError("Choose at least one event.", "invalid_scope", { eventIds: ["Choose at least one event."] });
      scope = { kind, eventIds, split };
    }
    const result = await evaluatePredictions(getDb(), { scope, csv: await file.text() });
    const f1 = result.scores.overall.weighted.f1.toFixed(3);
    return { ok: true, message: `Scored ${result.matched.toLocaleString("en-US")} predictions of ${file.name}: weighted F1 ${f1}.`, data: { evaluation: result } };
  } catch (err) {
    return errorState(err);
  }
}

const useFormSchema = z.object({
  modelId: z.string().min(1).max(60),
  eventId: z.string().min(1, "Choose an event.").max(60),
  dropLabels: z.preprocess(list, z.array(z.string().min(1).max(100)).max(100)),
  perClass: z.preprocess(optionalInt, z.number({ message: "A whole number." }).int("A whole number.").positive("At least 1.").max(1_000_000).nullable()),
  budget: z.preprocess(optionalInt, z.number({ message: "A whole number." }).int("A whole number.").positive("At least 1.").max(10_000_000).nullable()),
});

/** Applies a model at an event's future imports: drop predicted classes and/or sample per predicted class. */
export async function applyModelToImportsAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    await requireActionUser("edit");
    const parsed = parseForm(useFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    await applyModelToImports(db, parsed.data);
    const event = await db.event.findUnique({ where: { id: parsed.data.eventId }, select: { slug: true, name: true } });
    revalidatePath(`/models/${parsed.data.modelId}`);
    if (event) revalidatePath(`/events/${event.slug}/data`);
    const dropped = parsed.data.dropLabels.length ? `dropping ${parsed.data.dropLabels.join(", ")}` : "dropping nothing";
    const sampling = parsed.data.perClass || parsed.data.budget ? ", sampling per predicted class" : "";
    return { ok: true, message: `Imports of ${event?.name ?? "the event"} now run this model (${dropped}${sampling}).` };
  } catch (err) {
    return errorState(err, formData);
  }
}
