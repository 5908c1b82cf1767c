"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { evaluatePredictions } from "@/lib/models/evaluate-predictions";
import { applyModelToImports } from "@/lib/models/import-classifier";
import { evaluateFormSchema, trainFormSchema, useModelFormSchema } from "@/lib/models/models.validation";
import { requestModelTraining } from "@/lib/models/train-job";
import { formAction } from "./define-action";

/** Queues a training job on the chosen events' accepted labels (refused when there are too few). */
export const trainModelAction = formAction({ access: "edit", input: trainFormSchema }, async ({ user, input }) => {
  const { jobId } = await requestModelTraining(getDb(), { request: input, userId: user.id });
  revalidatePath("/models");
  return { ok: true, message: `Training "${input.name}" started; its progress is shown below.`, data: { jobId } };
});

/** Scores an uploaded predictions CSV against a model's test split or events' accepted labels. */
export const evaluatePredictionsAction = formAction(
  { access: "edit", input: evaluateFormSchema, echo: false },
  async ({ input: { scope, modelId, eventIds, split, file } }) => {
    const result = await evaluatePredictions(getDb(), {
      scope: scope === "model" ? { kind: scope, modelId: modelId ?? "" } : { kind: scope, eventIds, split },
      csv: await file.text(),
    });
    const f1 = result.scores.overall.weighted.f1.toFixed(3);
    return { ok: true, message: `Scored ${result.matched.toLocaleString("en-US")} predictions of ${file.name}: weighted F1 ${f1}.`, data: { evaluation: result } };
  },
);

/** Applies a model at an event's future imports: drop predicted classes and/or sample per predicted class. */
export const applyModelToImportsAction = formAction({ access: "edit", input: useModelFormSchema }, async ({ input }) => {
  const event = await applyModelToImports(getDb(), input);
  revalidatePath(`/models/${input.modelId}`);
  revalidatePath(`/events/${event.slug}/data`);
  const dropped = input.dropLabels.length ? `dropping ${input.dropLabels.join(", ")}` : "dropping nothing";
  const sampling = input.perClass || input.budget ? ", sampling per predicted class" : "";
  return { ok: true, message: `Imports of ${event.name} now run this model (${dropped}${sampling}).` };
});
