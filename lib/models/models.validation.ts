import { z } from "zod";
import { formList, optionalNumber } from "@/lib/validation/form-fields";

// The model forms' schemas (train, evaluate, use at imports), shared by the forms and their server actions.

export const MODEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,79}$/;

/** A training request: the action's input and the "train-model" job's payload. */
export const trainRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the model a name.")
    .max(80, "At most 80 characters.")
    .regex(MODEL_NAME_PATTERN, "Letters, digits, spaces, dots, dashes and underscores only."),
  eventIds: z.array(z.string().min(1).max(60)).min(1, "Choose at least one event.").max(50, "At most 50 events."),
});
export type TrainRequest = z.infer<typeof trainRequestSchema>;

/** Below the server actions' 1 MB body limit (next.config.js), with room for the form's other fields. */
export const MAX_PREDICTIONS_BYTES = 960 * 1024;

export const trainFormSchema = z.object({
  name: trainRequestSchema.shape.name,
  eventIds: formList(trainRequestSchema.shape.eventIds),
});

/** Predictions scored against a model's test split or events' accepted labels; the scope each needs is checked here. */
export const evaluateFormSchema = z
  .object({
    scope: z.enum(["model", "events"]),
    modelId: z.string().max(60).optional(),
    eventIds: formList(z.array(z.string().min(1).max(60)).max(50)),
    split: z.enum(["train", "dev", "test", "all"]).default("test"),
    file: z
      .instanceof(File, { message: "Choose a CSV file with tweet_id,label." })
      .refine((f) => f.size > 0 && f.name !== "", "Choose a CSV file with tweet_id,label (it must not be empty).")
      .refine((f) => f.size <= MAX_PREDICTIONS_BYTES, `At most ${MAX_PREDICTIONS_BYTES / 1024} KB.`),
  })
  .superRefine((v, ctx) => {
    if (v.scope === "model" && !v.modelId) ctx.addIssue({ code: "custom", path: ["modelId"], message: "Choose a model." });
    if (v.scope === "events" && v.eventIds.length === 0) ctx.addIssue({ code: "custom", path: ["eventIds"], message: "Choose at least one event." });
  });

const count = (max: number) =>
  optionalNumber(z.number({ message: "A whole number." }).int("A whole number.").positive("At least 1.").max(max)).transform((v) => v ?? null);

export const useModelFormSchema = z.object({
  modelId: z.string().min(1).max(60),
  eventId: z.string().min(1, "Choose an event.").max(60),
  dropLabels: formList(z.array(z.string().min(1).max(100)).max(100)),
  perClass: count(1_000_000),
  budget: count(10_000_000),
});
