"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { setupFirstAdmin } from "@/lib/actions/auth";
import { PASSWORD_MIN } from "@/lib/auth/auth.validation";

export function SetupForm() {
  const [state, action, pending] = useActionState(setupFirstAdmin, initialActionState);
  return (
    <form key={formKey(state)} action={action} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
      <div>
        <h2 className="text-base font-semibold">Create the first admin</h2>
        <p className="mt-1 text-sm text-slate-500">Accord has no account yet. This one can add researchers and viewers later.</p>
      </div>
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Name" name="name" errors={state.fieldErrors?.name}>
        <TextInput name="name" autoComplete="name" defaultValue={state.values?.name} errors={state.fieldErrors?.name} />
      </Field>
      <Field label="Email" name="email" errors={state.fieldErrors?.email}>
        <TextInput name="email" type="email" autoComplete="email" defaultValue={state.values?.email} errors={state.fieldErrors?.email} />
      </Field>
      <Field label="Password" name="password" hint={`At least ${PASSWORD_MIN} characters.`} errors={state.fieldErrors?.password}>
        <TextInput name="password" type="password" autoComplete="new-password" errors={state.fieldErrors?.password} />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Creating…" : "Create admin and sign in"}
      </Button>
    </form>
  );
}
