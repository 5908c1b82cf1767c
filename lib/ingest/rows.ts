import { z } from "zod";
import type { RowField } from "./columns";
import { parseTweetDate } from "./dates";
import { MAX_ERROR_RAW_CHARS } from "./limits";

/** One tweet read from a file, validated and normalised. */
export type IngestRow = {
  /** 1-based line of the file where the row starts. */
  line: number;
  externalId: string;
  text: string;
  lang?: string;
  tweetedAt?: Date;
  userLocation?: string;
  placeName?: string;
  placeCountry?: string;
  /** The place's bounding box [minLon, minLat, maxLon, maxLat] (Twitter API exports). */
  placeBbox?: [number, number, number, number];
  latitude?: number;
  longitude?: number;
  label?: string;
  /** Set by the classifier step, when it runs. */
  predictedLabel?: string;
};

/** One line of the per-row error report. */
export type RowError = { line: number; column: string | null; reason: string; raw: string | null };

/** A row's values before validation: strings from delimited files, strings or numbers from JSON. */
export type RawFields = Partial<Record<RowField, unknown>> & { placeBbox?: unknown };

const optionalText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v).trim() || undefined));

const optionalNumber = z.union([z.string(), z.number(), z.null()]).optional().transform((v, ctx) => {
  if (v === null || v === undefined) return undefined;
  const s = typeof v === "number" ? v : v.trim() === "" ? undefined : Number(v.trim());
  if (s === undefined) return undefined;
  if (!Number.isFinite(s)) {
    ctx.issues.push({ code: "custom", message: `not a number: "${String(v).slice(0, 40)}"`, input: v });
    return z.NEVER;
  }
  return s;
});

/**
 * A row's id: a tweet id (decimal digits without a leading zero, at most 20: X/Twitter ids are 64-bit snowflakes), or
 * for other text an identifier that starts with a letter (letters, digits, `_ . : -`, at most 64 characters). So
 * `-5`, `00000123` or `=HYPERLINK(…)` are refused, and no id can start a spreadsheet formula in an export.
 */
export const TWEET_ID_PATTERN = /^(?:[1-9][0-9]{0,19}|[A-Za-z][A-Za-z0-9_.:-]{0,63})$/;
export const TWEET_ID_RULE = "use the tweet's number (digits only, no leading zeros, at most 20) or a name that starts with a letter (letters, digits, _ . : -, at most 64 characters)";

const NUL_REASON = "contains a NUL byte (U+0000); the row is not text";

/** A value quoted for a message: JSON escapes make control characters visible; long values are cut. */
function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function unquote(s: string): string {
  // CrisisLexT6 wraps ids in single quotes ('262596552399396864').
  const m = /^'(.*)'$/.exec(s) ?? /^"(.*)"$/.exec(s);
  return (m ? m[1] : s).trim();
}

const idSchema = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (typeof v === "number") {
      if (!Number.isSafeInteger(v)) {
        ctx.issues.push({ code: "custom", message: "id is a number too large to be exact; export ids as text", input: v });
        return z.NEVER;
      }
      return String(v);
    }
    const s = unquote((v ?? "").trim());
    if (!s) {
      ctx.issues.push({ code: "custom", message: "missing id", input: v });
      return z.NEVER;
    }
    if (/^\d+(\.\d+)?e\+?\d+$/i.test(s)) {
      ctx.issues.push({ code: "custom", message: `id "${s}" is in scientific notation (digits were lost, e.g. by a spreadsheet); export ids as text`, input: v });
      return z.NEVER;
    }
    if (!TWEET_ID_PATTERN.test(s)) {
      ctx.issues.push({ code: "custom", message: `id ${shown(s)} is not a valid id: ${TWEET_ID_RULE}`, input: v });
      return z.NEVER;
    }
    return s;
  });

const textSchema = z.union([z.string(), z.null()]).optional().transform((v, ctx) => {
  const s = (v ?? "").trim();
  if (!s) {
    ctx.issues.push({ code: "custom", message: "empty text", input: v });
    return z.NEVER;
  }
  return s;
});

const dateSchema = optionalText.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const d = parseTweetDate(v);
  if (!d) {
    ctx.issues.push({ code: "custom", message: `not a date: "${v.slice(0, 40)}"`, input: v });
    return z.NEVER;
  }
  return d;
});

const bboxSchema = z
  .array(z.number())
  .length(4)
  .optional()
  .catch(undefined)
  .transform((b) => (b ? ([b[0], b[1], b[2], b[3]] as [number, number, number, number]) : undefined));

export const rawRowSchema = z
  .object({
    id: idSchema,
    text: textSchema,
    label: optionalText,
    lang: optionalText.transform((v) => v?.toLowerCase()),
    createdAt: dateSchema,
    userLocation: optionalText,
    placeName: optionalText,
    placeCountry: optionalText,
    latitude: optionalNumber,
    longitude: optionalNumber,
    placeBbox: bboxSchema,
  })
  .check((ctx) => {
    const { latitude, longitude } = ctx.value;
    if ((latitude === undefined) !== (longitude === undefined)) {
      ctx.issues.push({ code: "custom", message: "latitude and longitude must both be given", path: [latitude === undefined ? "latitude" : "longitude"], input: ctx.value });
    } else if (latitude !== undefined && longitude !== undefined && (Math.abs(latitude) > 90 || Math.abs(longitude) > 180)) {
      ctx.issues.push({ code: "custom", message: "coordinates out of range", path: ["latitude"], input: ctx.value });
    }
  });

export function truncateRaw(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  // NUL cannot be stored (PostgreSQL text refuses it): the report shows U+2400 in its place.
  const text = raw.replaceAll("\u0000", "\u2400");
  return text.length > MAX_ERROR_RAW_CHARS ? `${text.slice(0, MAX_ERROR_RAW_CHARS)}…` : text;
}

/**
 * Validates one row. `columnNames` names each field as the file does (e.g. "tweet_id", "id_str"), so
 * that an error points at the file's own column.
 */
export function buildRow(
  line: number,
  fields: RawFields,
  { columnNames = {}, raw }: { columnNames?: Partial<Record<RowField, string>>; raw: string | null },
): { row: IngestRow; error?: undefined } | { row?: undefined; error: RowError } {
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === "string" && value.includes("\u0000")) {
      return { error: { line, column: columnNames[field as RowField] ?? field, reason: NUL_REASON, raw: truncateRaw(raw) } };
    }
  }
  if (raw?.includes("\u0000")) return { error: { line, column: null, reason: NUL_REASON, raw: truncateRaw(raw) } };
  const parsed = rawRowSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path[0] as RowField | undefined;
    return {
      error: { line, column: field ? (columnNames[field] ?? field) : null, reason: issue.message, raw: truncateRaw(raw) },
    };
  }
  const v = parsed.data;
  const row: IngestRow = { line, externalId: v.id, text: v.text };
  if (v.lang !== undefined) row.lang = v.lang;
  if (v.createdAt !== undefined) row.tweetedAt = v.createdAt;
  if (v.userLocation !== undefined) row.userLocation = v.userLocation;
  if (v.placeName !== undefined) row.placeName = v.placeName;
  if (v.placeCountry !== undefined) row.placeCountry = v.placeCountry;
  if (v.placeBbox !== undefined) row.placeBbox = v.placeBbox;
  if (v.latitude !== undefined && v.longitude !== undefined) {
    row.latitude = v.latitude;
    row.longitude = v.longitude;
  }
  if (v.label !== undefined) row.label = v.label;
  return { row };
}
