import { z } from "zod";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { DEFAULT_INGEST_SETTINGS, type IngestSettings } from "@/lib/ingest/settings";
import { DEFAULT_PROCEDURE_SETTINGS } from "@/lib/procedure/settings";
import { ingestFormFields, ingestFormValues, ingestSettingsFromForm } from "./ingest-form.validation";
import { procedureFormFields, procedureFormValues, ruleFieldErrors } from "./procedure-form.validation";
import { allAtOnce, type FieldErrors, mergeErrors, parseFieldByField } from "./form-checks";

/**
 * The "New event" form: one zod schema shared by the form (defaults, hints) and the server action
 * (validation). Every field arrives as a string from FormData.
 */
export const EVENT_TYPES = ["earthquake", "flood", "hurricane", "cyclone", "typhoon", "wildfire", "tornado", "other"] as const;

export type EventLocation = { name: string; aliases: string[]; bbox?: [number, number, number, number] };

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const dateField = optionalText.pipe(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Use the format YYYY-MM-DD.")
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "Not a valid date.")
    .optional(),
);

/** Parses "Name | alias, alias | minLon,minLat,maxLon,maxLat" lines into locations; returns errors per line. */
export function parseLocations(text: string): { locations: EventLocation[]; errors: string[] } {
  const locations: EventLocation[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    const [namePart, aliasPart = "", bboxPart = ""] = trimmed.split("|").map((p) => p.trim());
    if (!namePart) {
      errors.push(`Line ${i + 1}: a location needs a name before the first "|".`);
      return;
    }
    const aliases = aliasPart
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    const loc: EventLocation = { name: namePart.slice(0, 120), aliases: aliases.map((a) => a.slice(0, 120)) };
    if (bboxPart) {
      const nums = bboxPart.split(",").map((n) => Number(n.trim()));
      const [minLon, minLat, maxLon, maxLat] = nums;
      const valid =
        nums.length === 4 &&
        nums.every((n) => Number.isFinite(n)) &&
        minLon >= -180 &&
        maxLon <= 180 &&
        minLat >= -90 &&
        maxLat <= 90 &&
        minLon < maxLon &&
        minLat < maxLat;
      if (!valid) {
        errors.push(`Line ${i + 1}: the box must be "minLon,minLat,maxLon,maxLat" in degrees (min below max).`);
        return;
      }
      loc.bbox = [minLon, minLat, maxLon, maxLat];
    }
    locations.push(loc);
  });
  if (locations.length > 200) errors.push("At most 200 target locations.");
  return { locations, errors };
}

/** Locations back to the textarea format (to show an event's settings). */
export function formatLocations(locations: readonly EventLocation[]): string {
  return locations
    .map((l) => [l.name, l.aliases.join(", "), l.bbox ? l.bbox.join(",") : ""].join(" | ").replace(/( \| )+$/, ""))
    .join("\n");
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,79}$/;

/** "Hurricane Maria 2017" → "hurricane_maria_2017" (HumAID's event names look like this). */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60);
  return s || "event";
}

export const newEventFormSchema = z
  .object({
    name: z.string().trim().min(3, "Give the event a name of at least 3 characters.").max(120, "At most 120 characters."),
    slug: optionalText.pipe(z.string().regex(SLUG_PATTERN, "Lowercase letters, digits, _ and - only (at most 80).").optional()),
    type: z
      .string()
      .trim()
      .toLowerCase()
      .min(2, "Choose or type the kind of disaster.")
      .max(40, "At most 40 characters.")
      .regex(/^[a-z0-9 _-]+$/, "Letters, digits, spaces, _ and - only."),
    startDate: dateField,
    endDate: dateField,
    locations: z.string().max(20_000, "Too many locations.").optional().default(""),
    schemeId: z.string().trim().min(1, "Choose a label scheme."),
    // A crowd kind; which crowds exist is the registry's to say (checked by createEventFromForm on the server).
    provider: z.string().trim().regex(/^[a-z][a-z0-9_-]{0,31}$/, "Choose a crowd.").default(PROVIDER_KIND.mturk),
    budgetCapDollars: optionalText.pipe(
      z
        .string()
        .regex(/^\d{1,7}(\.\d{1,2})?$/, "Dollars, e.g. 250 or 99.50.")
        .optional(),
    ),
    ...procedureFormFields,
    ...ingestFormFields,
  })
  .superRefine((v, ctx) => {
    if (v.startDate && v.endDate && v.endDate < v.startDate) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: "The end date is before the start date." });
    }
    const { errors } = parseLocations(v.locations);
    if (errors.length) ctx.addIssue({ code: "custom", path: ["locations"], message: errors.join(" ") });
  });

export type NewEventForm = z.infer<typeof newEventFormSchema>;

/** Everything the New-event form can be told, in one reply: its fields, the dates and locations, the rules, the filtering. */
export function newEventFormErrors(raw: Record<string, unknown>): FieldErrors {
  const dates = parseFieldByField({ startDate: dateField, endDate: dateField }, raw);
  const errors: FieldErrors = { ...dates.errors };
  if (dates.values.startDate && dates.values.endDate && dates.values.endDate < dates.values.startDate) errors.endDate = ["The end date is before the start date."];
  if (typeof raw.locations === "string") {
    const { errors: locationErrors } = parseLocations(raw.locations);
    if (locationErrors.length) errors.locations = [locationErrors.join(" ")];
  }
  const ingest = parseFieldByField(ingestFormFields, raw);
  const ingestSettings = Object.keys(ingest.errors).length ? null : ingestSettingsFromForm(ingest.values, DEFAULT_INGEST_SETTINGS);
  return mergeErrors(mergeErrors(mergeErrors(errors, ruleFieldErrors(raw)), ingest.errors), ingestSettings && !ingestSettings.ok ? ingestSettings.fieldErrors : {});
}

/** The New-event action's input: the form schema, answering with every problem at once. */
export const newEventFormInput = allAtOnce(newEventFormSchema, newEventFormErrors);

/** The ingest settings (Event.filters) of the form, validated by lib/ingest's schema. */
export function filtersFromForm(form: NewEventForm): IngestSettings {
  const r = ingestSettingsFromForm(form, DEFAULT_INGEST_SETTINGS);
  if (!r.ok) throw new UserError("Please correct the upload filtering settings.", "invalid_settings", r.fieldErrors);
  return r.settings;
}

/** The form's default values (the paper's settings), shown as placeholders and defaults. */
export const NEW_EVENT_DEFAULTS = {
  ...procedureFormValues(DEFAULT_PROCEDURE_SETTINGS),
  ...ingestFormValues(DEFAULT_INGEST_SETTINGS),
} as const;

const eventIdSchema = z.object({ eventId: z.string().min(1).max(60) });

export const requestAnalysisSchema = eventIdSchema.extend({ force: z.enum(["1", "0"]).optional() });

/** The Agreement tab's "Replay the recorded work under the current rules". */
export const startReplaySchema = eventIdSchema;

export const archiveEventSchema = eventIdSchema.extend({ archived: z.enum(["true", "false"]) });

export const goldTweetSchema = z.object({
  tweetId: z.string().min(1).max(60),
  reason: z.string().trim().max(500).optional(),
});
