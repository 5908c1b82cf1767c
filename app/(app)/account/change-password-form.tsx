"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { changePassword } from "@/lib/actions/auth";
import { PASSWORD_MIN } from "@/lib/auth/auth.validation";

export function ChangePasswordForm() {
  const [state, action, pending] = useActionState(changePassword, initialActionState);
  return (
    <form key={formKey(state)} action={action} className="space-y-3" noValidate>
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Current password" name="currentPassword" errors={state.fieldErrors?.currentPassword}>
        <TextInput name="currentPassword" type="password" autoComplete="current-password" errors={state.fieldErrors?.currentPassword} />
      </Field>
      <Field label="New password" name="newPassword" hint={`At least ${PASSWORD_MIN} characters. Your other sessions are signed out.`} errors={state.fieldErrors?.newPassword}>
        <TextInput name="newPassword" type="password" autoComplete="new-password" errors={state.fieldErrors?.newPassword} />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
