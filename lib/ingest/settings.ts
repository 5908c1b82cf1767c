import { z } from "zod";
import { UserError } from "@/lib/errors";
import { DEFAULT_DEDUPE_THRESHOLD } from "./dedupe/normalize";
import { uploadColumnsSchema } from "./columns.validation";
import { labelMapSchema } from "./label-map.validation";
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_LINE_BYTES } from "./limits";

/**
 * Per-event ingest settings (Event.filters): one entry per step of the HumAID filtering pipeline
 * (§3.1–3.2), each with the paper's behaviour as its default. The event's date range and target
 * locations live on the Event itself (startDate, endDate, locations).
 */
const stepToggle = (enabled: boolean) => z.boolean().default(enabled);

export const ingestSettingsSchema = z.object({
  date: z
    .object({
      enabled: stepToggle(true),
      /** Rows without a time column: take the time encoded in a tweet (snowflake) id. */
      timeFromId: z.boolean().default(true),
    })
    .prefault({}),
  location: z
    .object({
      enabled: stepToggle(true),
      /** Rows with no coordinates, place or user location. */
      noLocation: z.enum(["keep", "drop"]).default("keep"),
    })
    .prefault({}),
  language: z
    .object({
      enabled: stepToggle(true),
      languages: z.array(z.string().trim().toLowerCase().min(2).max(8)).min(1).default(["en"]),
      /** Rows whose language cannot be determined (Twitter's "und", or an unreliable detection). */
      undetermined: z.enum(["keep", "drop"]).default("keep"),
    })
    .prefault({}),
  classifier: z
    .object({
      enabled: stepToggle(false),
      /** Predicted classes to remove (the paper removed tweets classified as not humanitarian). */
      dropLabels: z.array(z.string().trim().min(1)).default(["not_humanitarian"]),
    })
    .prefault({}),
  wordCount: z
    .object({
      enabled: stepToggle(true),
      minWords: z.number().int().min(1).max(100).default(3),
    })
    .prefault({}),
  duplicates: z
    .object({
      enabled: stepToggle(true),
      threshold: z.number().gt(0).lt(1).default(DEFAULT_DEDUPE_THRESHOLD),
      /** Also compare with the tweets already stored for the event. */
      againstStored: z.boolean().default(true),
    })
    .prefault({}),
  sampling: z
    .object({
      enabled: stepToggle(false),
      by: z.enum(["label", "prediction"]).default("label"),
      perClass: z.number().int().positive().nullable().default(null),
      budget: z.number().int().positive().nullable().default(null),
      seed: z.number().int().default(1),
    })
    .prefault({})
    .refine((s) => !s.enabled || s.perClass !== null || s.budget !== null, {
      message: "sampling needs a number per class or a budget",
      path: ["perClass"],
    }),
  labels: z
    .object({
      /** A label that is not in the event's scheme (tweet imports; for gold it is always an error). */
      outsideScheme: z.enum(["error", "keep", "ignore"]).default("error"),
      /**
       * The event's label map, applied before the scheme check: a file's label → a scheme label, a new label
       * kept as is (tweet imports), or null to drop the row. Saved from the upload page or `accord import --label-map`.
       */
      map: labelMapSchema.default({}),
    })
    .prefault({}),
  /**
   * The event's column mapping for delimited files whose columns Accord does not recognise (columns.ts): saved from
   * the upload page's column preview or `accord import --columns`; used for every later upload with those columns.
   */
  columns: uploadColumnsSchema.nullable().default(null),
  limits: z
    .object({
      maxFileBytes: z.number().int().positive().max(4 * 1024 * 1024 * 1024).default(DEFAULT_MAX_FILE_BYTES),
      maxLineBytes: z.number().int().min(256).default(DEFAULT_MAX_LINE_BYTES),
    })
    .prefault({}),
});

export type IngestSettings = z.output<typeof ingestSettingsSchema>;
export type IngestSettingsInput = z.input<typeof ingestSettingsSchema>;

export const DEFAULT_INGEST_SETTINGS: IngestSettings = ingestSettingsSchema.parse({});

/** Event.filters → settings (missing parts take their defaults). Throws UserError listing bad fields. */
export function parseIngestSettings(json: unknown): IngestSettings {
  const parsed = ingestSettingsSchema.safeParse(json ?? {});
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "filters";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const summary = Object.entries(fieldErrors)
    .map(([k, v]) => `${k}: ${v.join(", ")}`)
    .join("; ");
  throw new UserError(`The event's ingest settings are invalid (${summary}).`, "invalid_settings", fieldErrors);
}

/** Target locations of an event (Event.locations): a name, aliases, and optionally an area. */
const bboxSchema = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)])
  .refine((b) => b[1] <= b[3], { message: "the bounding box's southern latitude must not exceed its northern one" });

export const targetLocationSchema = z.object({
  name: z.string().trim().min(1),
  aliases: z.array(z.string().trim().min(1)).default([]),
  /** [minLon, minLat, maxLon, maxLat]; minLon > maxLon means the box crosses the antimeridian. */
  bbox: bboxSchema.optional(),
});
export type TargetLocation = z.output<typeof targetLocationSchema>;

export const eventLocationsSchema = z.array(targetLocationSchema);

export function parseEventLocations(json: unknown): TargetLocation[] {
  if (json === null || json === undefined) return [];
  const parsed = eventLocationsSchema.safeParse(json);
  if (!parsed.success) {
    throw new UserError(`The event's target locations are invalid (${parsed.error.issues[0]?.message ?? "bad value"}).`, "invalid_locations");
  }
  return parsed.data;
}
