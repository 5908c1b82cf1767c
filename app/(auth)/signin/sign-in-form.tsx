"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { signIn } from "@/lib/actions/auth";

export function SignInForm({ next }: { next?: string }) {
  const [state, action, pending] = useActionState(signIn, initialActionState);
  return (
    <form key={formKey(state)} action={action} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
      <h2 className="text-base font-semibold">Sign in</h2>
      <FormMessage ok={state.ok} message={state.message} />
      <input type="hidden" name="next" value={next ?? ""} />
      <Field label="Email" name="email" errors={state.fieldErrors?.email}>
        <TextInput name="email" type="email" autoComplete="email" defaultValue={state.values?.email} errors={state.fieldErrors?.email} />
      </Field>
      <Field label="Password" name="password" errors={state.fieldErrors?.password}>
        <TextInput name="password" type="password" autoComplete="current-password" errors={state.fieldErrors?.password} />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
