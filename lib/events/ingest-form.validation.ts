import { z } from "zod";
import { DEFAULT_INGEST_SETTINGS, ingestSettingsSchema, type IngestSettings } from "@/lib/ingest/settings";
import { intField } from "./procedure-form.validation";

/**
 * The upload filtering settings (Event.filters) as form fields: one zod shape shared by the "New event" form and the
 * event's Settings page. Checkboxes arrive as "on" or not at all; lib/ingest's schema validates the result.
 */
const D = DEFAULT_INGEST_SETTINGS;

const optionalCount = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.coerce.number<string>({ message: `${label} must be a whole number.` }).int(`${label} must be a whole number.`).positive(`${label} must be at least 1.`).optional());

export const ingestFormFields = {
  filterDate: z.literal("on").optional(),
  filterLocation: z.literal("on").optional(),
  noLocation: z.enum(["keep", "drop"]).default(D.location.noLocation),
  languageUndetermined: z.enum(["keep", "drop"]).default(D.language.undetermined),
  minWords: intField("Minimum words", 1, 100, D.wordCount.minWords),
  dedupeThreshold: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : String(D.duplicates.threshold)))
    .pipe(z.coerce.number<string>({ message: "A number between 0 and 1, e.g. 0.75." }).gt(0, "Above 0.").lt(1, "Below 1.")),
  outsideScheme: z.enum(["error", "keep", "ignore"]).default(D.labels.outsideScheme),
  // Sampling (HumAID §3.2): n per class up to a budget; only the Settings page shows it.
  sampling: z.literal("on").optional(),
  samplingPerClass: optionalCount("Tweets per class"),
  samplingBudget: optionalCount("Budget"),
  samplingSeed: intField("Seed", 0, 2_147_483_647, D.sampling.seed),
};

const ingestFormObject = z.object(ingestFormFields);

/** The Settings page's form: the fields, the event, the settings' fingerprint it was opened on, and why. */
export const editIngestSettingsSchema = ingestFormObject.extend({
  eventId: z.string().min(1).max(60),
  basis: z.string().regex(/^[0-9a-f]{64}$/, "Reload the page and try again."),
  reason: z.string().trim().max(500, "At most 500 characters.").optional(),
});
export type EditIngestSettingsForm = z.infer<typeof editIngestSettingsSchema>;
export type IngestFormFields = z.infer<typeof ingestFormObject>;

/** Field name in the form for an error path of lib/ingest's schema. */
const FIELD_OF: Record<string, keyof IngestFormFields> = {
  "wordCount.minWords": "minWords",
  "duplicates.threshold": "dedupeThreshold",
  "sampling.perClass": "samplingPerClass",
  "sampling.budget": "samplingBudget",
  "sampling.seed": "samplingSeed",
};

/**
 * The form's values applied over `before` (what the form does not show — the label map, the classifier step, the
 * languages, the limits — is kept), validated by lib/ingest's schema.
 */
export function ingestSettingsFromForm(form: IngestFormFields, before: IngestSettings): { ok: true; settings: IngestSettings } | { ok: false; fieldErrors: Record<string, string[]> } {
  const parsed = ingestSettingsSchema.safeParse({
    ...before,
    date: { ...before.date, enabled: form.filterDate === "on" },
    location: { ...before.location, enabled: form.filterLocation === "on", noLocation: form.noLocation },
    language: { ...before.language, undetermined: form.languageUndetermined },
    wordCount: { ...before.wordCount, minWords: form.minWords },
    duplicates: { ...before.duplicates, threshold: form.dedupeThreshold },
    labels: { ...before.labels, outsideScheme: form.outsideScheme },
    sampling: { ...before.sampling, enabled: form.sampling === "on", perClass: form.samplingPerClass ?? null, budget: form.samplingBudget ?? null, seed: form.samplingSeed },
  });
  if (parsed.success) return { ok: true, settings: parsed.data };
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = FIELD_OF[issue.path.join(".")] ?? "filters";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return { ok: false, fieldErrors };
}

/** Stored settings → the form's string values (checkboxes "on" or absent). */
export function ingestFormValues(s: IngestSettings) {
  return {
    filterDate: s.date.enabled ? ("on" as const) : undefined,
    filterLocation: s.location.enabled ? ("on" as const) : undefined,
    noLocation: s.location.noLocation,
    languageUndetermined: s.language.undetermined,
    minWords: String(s.wordCount.minWords),
    dedupeThreshold: String(s.duplicates.threshold),
    outsideScheme: s.labels.outsideScheme,
    sampling: s.sampling.enabled ? ("on" as const) : undefined,
    samplingPerClass: s.sampling.perClass === null ? "" : String(s.sampling.perClass),
    samplingBudget: s.sampling.budget === null ? "" : String(s.sampling.budget),
    samplingSeed: String(s.sampling.seed),
  };
}
