"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { createUser, updateUser } from "@/lib/actions/users";
import { PASSWORD_MIN } from "@/lib/auth/auth.validation";
import { ROLES } from "@/lib/auth/roles";

export function CreateUserForm() {
  const [state, action, pending] = useActionState(createUser, initialActionState);
  return (
    <form key={formKey(state)} action={action} className="space-y-3" noValidate>
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Name" name="name" errors={state.fieldErrors?.name}>
        <TextInput name="name" defaultValue={state.ok ? "" : state.values?.name} errors={state.fieldErrors?.name} />
      </Field>
      <Field label="Email" name="email" errors={state.fieldErrors?.email}>
        <TextInput name="email" type="email" defaultValue={state.ok ? "" : state.values?.email} errors={state.fieldErrors?.email} />
      </Field>
      <Field label="Initial password" name="password" hint={`At least ${PASSWORD_MIN} characters.`} errors={state.fieldErrors?.password}>
        <TextInput name="password" type="password" autoComplete="new-password" errors={state.fieldErrors?.password} />
      </Field>
      <Field label="Role" name="role" errors={state.fieldErrors?.role}>
        <SelectInput name="role" defaultValue={state.values?.role ?? "researcher"}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </SelectInput>
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Adding…" : "Add user"}
      </Button>
    </form>
  );
}

export function UserRowActions({ userId, role, disabled }: { userId: string; role: string; disabled: boolean }) {
  const [state, action, pending] = useActionState(updateUser, initialActionState);
  return (
    <form action={action} className="inline-flex items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <select name="role" defaultValue={role} className="rounded border border-slate-300 px-1.5 py-1 text-xs" aria-label="Role">
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <select name="disabled" defaultValue={String(disabled)} className="rounded border border-slate-300 px-1.5 py-1 text-xs" aria-label="Status">
        <option value="false">active</option>
        <option value="true">disabled</option>
      </select>
      <Button type="submit" variant="secondary" className="!px-2 !py-1 text-xs" disabled={pending}>
        Save
      </Button>
      {state.message && !state.ok ? <span className="text-xs text-red-700">{state.message}</span> : null}
    </form>
  );
}
