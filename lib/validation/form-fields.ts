import { z } from "zod";

// Field parsers shared by the `<domain>.validation.ts` schemas: every form value arrives as a string (or a list).

const isBlank = (v: unknown) => v === undefined || v === null || String(v).trim() === "";

/** A number field that may be left empty (undefined); `number` says what a filled value must be. */
export function optionalNumber<N extends z.ZodType<number>>(number: N) {
  return z.preprocess((v) => (isBlank(v) ? undefined : Number(v)), number.optional());
}

/** A whole number from `min` to `max` that may be left empty; `message` replaces zod's for every check. */
export function optionalInt(min: number, max: number, message?: string) {
  return optionalNumber(z.number({ message }).int(message).min(min, message).max(max, message));
}

/** A repeated field (checkboxes, multi-selects): always a list, empty when nothing was sent. */
export function formList<T extends z.ZodType>(items: T) {
  return z.preprocess((v) => (isBlank(v) ? [] : Array.isArray(v) ? v : [v]), items);
}

/** A comma- or space-separated list typed into one field. */
export function csvList(items: z.ZodType<string[]>, map: (s: string) => string = (s) => s) {
  return z.preprocess((v) => (typeof v === "string" ? v.split(/[\s,]+/).map((s) => map(s.trim())).filter(Boolean) : v), items.optional());
}

/** A checkbox: "on" (or "true") when ticked. */
export const checkbox = z.preprocess((v) => v === "on" || v === "true", z.boolean());
