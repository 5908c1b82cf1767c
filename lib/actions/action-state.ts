import type { z } from "zod";

/** What every form action returns (React's useActionState): a message and zod's field errors. */
export type ActionState = {
  ok: boolean;
  message?: string;
  fieldErrors?: Record<string, string[]>;
  /** Echo of submitted text fields (never passwords or secrets), so a failed form keeps what was typed. */
  values?: Record<string, string>;
  data?: Record<string, unknown>;
};

export const initialActionState: ActionState = { ok: false };

/**
 * React resets a form after its action runs; keying the form on the returned values remounts it so the
 * echoed values (selects included) become its defaults again.
 */
export function formKey(state: ActionState): string {
  return state.values ? JSON.stringify(state.values) : state.ok ? `ok:${state.message ?? ""}` : "initial";
}

export function formValues(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of formData.entries()) {
    // Passwords and secrets are never sent back to the browser.
    if (typeof v === "string" && !/password|secret/i.test(k) && !k.startsWith("$ACTION")) out[k] = v;
  }
  return out;
}

/** Parses a FormData with a zod schema; field errors come back keyed by field name. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  formData: FormData,
): { ok: true; data: z.infer<S> } | { ok: false; state: ActionState } {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of formData.entries()) {
    if (k.startsWith("$ACTION")) continue;
    if (raw[k] === undefined) raw[k] = v;
    else raw[k] = ([] as unknown[]).concat(raw[k], v);
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return {
    ok: false,
    state: { ok: false, message: "Please correct the highlighted fields.", fieldErrors, values: formValues(formData) },
  };
}

/** Next.js signals redirect()/notFound() with errors that must propagate. */
export function isNavigationSignal(err: unknown): boolean {
  const digest = (err as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK") || digest === "NEXT_NOT_FOUND");
}
