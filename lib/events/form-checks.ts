import { z } from "zod";

/**
 * Forms that answer once: every field's problem in one reply, in the field's words. zod stops at the first layer that
 * fails (an object's refinements do not run while a field is invalid), so a form with several bad rules answered in
 * rounds; here each field is parsed on its own, the cross-field checks run on whatever fields parsed, and every error
 * comes back keyed by its form field.
 */
export type FieldErrors = Record<string, string[]>;

/** Each field of `shape` parsed alone from the raw form: its value (or its default when it fails) and its errors. */
export function parseFieldByField<T extends z.ZodRawShape>(shape: T, raw: Record<string, unknown>): { values: { [K in keyof T]: z.output<T[K]> }; errors: FieldErrors } {
  const values: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [key, schema] of Object.entries(shape)) {
    const r = (schema as z.ZodType).safeParse(raw[key]);
    if (r.success) {
      values[key] = r.data;
      continue;
    }
    errors[key] = r.error.issues.map((i) => i.message);
    const fallback = (schema as z.ZodType).safeParse(undefined);
    values[key] = fallback.success ? fallback.data : undefined;
  }
  return { values: values as { [K in keyof T]: z.output<T[K]> }, errors };
}

/** Adds `more` to `errors` for fields that have none yet (a field's own problem comes first, then what depends on it). */
export function mergeErrors(errors: FieldErrors, more: FieldErrors): FieldErrors {
  const out = { ...errors };
  for (const [k, msgs] of Object.entries(more)) if (msgs.length && !out[k]) out[k] = msgs;
  return out;
}

/**
 * A form schema that reports everything at once: `schema` as is when every check passes; otherwise its own field
 * issues plus those of `checks` (run on the raw form, whatever failed), each on its field.
 */
export function allAtOnce<S extends z.ZodType>(schema: S, checks: (raw: Record<string, unknown>) => FieldErrors) {
  return z.record(z.string(), z.unknown()).transform((raw, ctx): z.output<S> => {
    const parsed = schema.safeParse(raw);
    let errors: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) (errors[issue.path.length ? String(issue.path[0]) : "_form"] ??= []).push(issue.message);
    }
    errors = mergeErrors(errors, checks(raw));
    const keys = Object.keys(errors);
    if (keys.length === 0 && parsed.success) return parsed.data;
    for (const key of keys) for (const message of errors[key]) ctx.addIssue({ code: "custom", path: key === "_form" ? [] : [key], message });
    return z.NEVER;
  });
}
