import { z } from "zod";
import { llmSettingsSchema } from "./settings";

// The admin's "Language model endpoint" form (strings from the browser). The key field is write-only and named so
// that a failed submit never echoes it (lib/actions/action-state.ts keeps "secret" fields out of the echo).
const num = (min: number, max: number, what: string, int = false) =>
  z.coerce.number({ message: `${what}: a number.` }).refine((n) => n >= min && n <= max && (!int || Number.isInteger(n)), `${what}: ${int ? "a whole number" : "a number"} from ${min} to ${max}.`);

export const llmSettingsFormSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/, message: "An http(s) base URL, e.g. http://127.0.0.1:11434/v1." }),
  model: z.string().trim().min(1, "The model id, e.g. gpt-4o-mini or llama3.1:8b.").max(200),
  temperature: num(0, 2, "Temperature"),
  concurrency: num(1, 64, "Concurrency", true),
  passes: num(1, 9, "Passes", true),
  examples: num(0, 10, "Examples", true),
  timeoutSeconds: num(5, 600, "Timeout", true),
  inputPricePerMillion: num(0, 100_000, "Input price"),
  outputPricePerMillion: num(0, 100_000, "Output price"),
  apiSecretKey: z.string().trim().max(1024, "At most 1024 characters.").optional(),
});
export type LlmSettingsForm = z.infer<typeof llmSettingsFormSchema>;

/** The form's values as the settings' (the same bounds; checked again when saved). */
export function formToSettings(form: LlmSettingsForm) {
  const { apiSecretKey, ...values } = form;
  return { ...llmSettingsSchema.parse(values), apiKey: apiSecretKey || undefined };
}

/** Researcher's "Add LLM labels": the event, and optionally other passes or temperature than Settings'. */
export const addLlmLabelsFormSchema = z.object({
  eventId: z.string().min(1).max(100),
  passes: z.preprocess((v) => (v === "" ? undefined : v), num(1, 9, "Passes", true).optional()),
});
