"use client";

import { useActionState, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { saveProviderSettings } from "@/lib/actions/settings";
import { ProductionConfirm } from "./production-confirm";

type Current = {
  mode: "simulator" | "sandbox" | "production";
  hasCredentials: boolean;
  credentialsSource: "environment" | "settings" | "none";
  budgetCapDollars: string;
  defaultRewardCents: string;
  productionConfirmed: boolean;
};

/**
 * The crowd provider: mode, requester credentials (write-only: the secret is never sent back to the
 * browser; leave the fields empty to keep the stored ones), global budget cap and the default reward.
 */
export function ProviderForm({ current }: { current: Current }) {
  const [state, action, pending] = useActionState(saveProviderSettings, initialActionState);
  const v = state.values ?? {};
  const e = state.fieldErrors ?? {};
  const [mode, setMode] = useState<string>(v.mode ?? current.mode);
  return (
    <form key={formKey(state)} action={action} className="space-y-4" noValidate data-testid="provider-form">
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Mode" name="mode" hint="The simulator costs nothing and runs inside Accord; the sandbox is MTurk's test site; production pays real workers." errors={e.mode}>
        <SelectInput name="mode" defaultValue={mode} onChange={(ev) => setMode(ev.target.value)}>
          <option value="simulator">Simulator (local, no money)</option>
          <option value="sandbox">MTurk sandbox</option>
          <option value="production">MTurk production (real money)</option>
        </SelectInput>
      </Field>
      <div className="grid gap-4 md:grid-cols-2">
        <Field
          label="AWS access key id"
          name="accessKeyId"
          hint={current.hasCredentials ? `Stored${current.credentialsSource === "environment" ? " in the server's environment (it wins)" : ""}. Leave empty to keep.` : "No credentials yet (the simulator needs none)."}
          errors={e.accessKeyId}
        >
          <TextInput name="accessKeyId" autoComplete="off" spellCheck={false} placeholder={current.hasCredentials ? "•••••••• (kept)" : "AKIA…"} errors={e.accessKeyId} />
        </Field>
        <Field label="AWS secret access key" name="secretAccessKey" hint="Write-only: never shown again, not even to admins." errors={e.secretAccessKey}>
          <TextInput name="secretAccessKey" type="password" autoComplete="new-password" placeholder={current.hasCredentials ? "•••••••• (kept)" : ""} errors={e.secretAccessKey} />
        </Field>
        <Field label="Budget cap ($, all events)" name="budgetCapDollars" hint="Publishing refuses any batch that could take spending past it. In US dollars, it counts USD spend only (MTurk): a Prolific workspace paying in another currency is capped per event. Empty: no cap." errors={e.budgetCapDollars}>
          <TextInput name="budgetCapDollars" inputMode="decimal" defaultValue={v.budgetCapDollars ?? current.budgetCapDollars} errors={e.budgetCapDollars} />
        </Field>
        <Field label="Default reward per HIT (cents)" name="defaultRewardCents" hint="Pre-filled in the publish form; MTurk adds 20% fees (40% with 10+ assignments)." errors={e.defaultRewardCents}>
          <TextInput name="defaultRewardCents" inputMode="numeric" defaultValue={v.defaultRewardCents ?? current.defaultRewardCents} errors={e.defaultRewardCents} />
        </Field>
      </div>
      {mode === "production" ? (
        <ProductionConfirm defaultChecked={current.productionConfirmed} errors={e.productionConfirmed}>
          I understand that production MTurk pays real workers with real money from the requester account, up to the budget cap.
        </ProductionConfirm>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save provider settings"}
      </Button>
    </form>
  );
}
