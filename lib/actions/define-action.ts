import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { type CurrentUser, getCurrentUser, requireActionUser } from "@/lib/auth/current-user";
import type { Access } from "@/lib/auth/roles";
import { UserError, unexpectedErrorMessage } from "@/lib/errors";
import { type ActionState, formValues, isNavigationSignal, parseForm } from "./action-state";

/**
 * The one wrapper every server action goes through (our own small next-safe-action): it checks the signed-in user
 * and role, parses the form with the zod schema of `<domain>.validation.ts`, runs the action and applies the error
 * contract (a UserError shows its message and field errors; anything else is logged with a reference id and shown as
 * one generic sentence). redirect()/notFound() pass through. Audit rows are written by the domain functions the
 * action calls, inside their own writes, with the actor this wrapper hands over.
 */
export type ActionAccess = Access | "public";

type UserFor<A extends ActionAccess> = A extends "public" ? CurrentUser | null : CurrentUser;

export type ActionContext<A extends ActionAccess, S extends z.ZodType> = {
  user: UserFor<A>;
  input: z.infer<S>;
  formData: FormData;
};

export type ActionOptions<A extends ActionAccess, S extends z.ZodType> = {
  /** Who may run it: "public" (signed out too) or a role level (lib/auth/roles.ts). */
  access: A;
  input: S;
  /** Echo the submitted text fields (never passwords or secrets) with a failure, so the form keeps them. Default true. */
  echo?: boolean;
};

async function userFor<A extends ActionAccess>(access: A): Promise<UserFor<A>> {
  return (access === "public" ? await getCurrentUser() : await requireActionUser(access as Access)) as UserFor<A>;
}

/** Runs one action under the contract; returns what the form shows. */
async function runAction<A extends ActionAccess, S extends z.ZodType>(
  options: ActionOptions<A, S>,
  formData: FormData,
  run: (ctx: ActionContext<A, S>) => Promise<ActionState | undefined>,
): Promise<ActionState> {
  const echo = options.echo ?? true;
  try {
    const user = await userFor(options.access);
    const parsed = parseForm(options.input, formData);
    if (!parsed.ok) return echo ? parsed.state : { ...parsed.state, values: undefined };
    return (await run({ user, input: parsed.data, formData })) ?? { ok: true };
  } catch (err) {
    if (isNavigationSignal(err)) throw err;
    return failureState(err, echo ? formData : undefined);
  }
}

/** The state of a failed action: a UserError as is; anything else logged under a reference id. */
export function failureState(err: unknown, formData?: FormData): ActionState {
  const values = formData ? formValues(formData) : undefined;
  if (err instanceof UserError) return { ok: false, message: err.message, fieldErrors: err.fieldErrors, values };
  const reference = randomUUID().slice(0, 8);
  console.error(`[accord] action failed (reference ${reference}):`, err);
  return { ok: false, message: unexpectedErrorMessage(reference), values };
}

/** A form action for React's useActionState: `(previous state, form data) => state`. */
export function formAction<A extends ActionAccess, S extends z.ZodType>(
  options: ActionOptions<A, S>,
  run: (ctx: ActionContext<A, S>) => Promise<ActionState | undefined>,
): (prev: ActionState, formData: FormData) => Promise<ActionState> {
  return async (_prev: ActionState, formData: FormData) => runAction(options, formData, run);
}

/** A plain `<form action={…}>` action (no state shown); a failure is logged by the contract and otherwise ignored. */
export function submitAction<A extends ActionAccess, S extends z.ZodType>(
  options: ActionOptions<A, S>,
  run: (ctx: ActionContext<A, S>) => Promise<void>,
): (formData?: FormData) => Promise<void> {
  return async (formData?: FormData) => {
    await runAction(options, formData instanceof FormData ? formData : new FormData(), async (ctx) => {
      await run(ctx);
      return undefined;
    });
  };
}
