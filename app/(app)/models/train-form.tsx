"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { trainModelAction } from "@/lib/actions/models";
import type { TrainableEvent } from "@/lib/models/queries";

/** Train a model on one or several events' accepted labels (one label scheme). */
export function TrainForm({ events }: { events: TrainableEvent[] }) {
  const [state, action, pending] = useActionState(trainModelAction, initialActionState);
  const chosen = new Set((state.values?.eventIds ?? "").split(","));
  return (
    <form key={formKey(state)} action={action} className="space-y-3" data-testid="train-form">
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Model name" name="name" hint="Training under an existing name adds its next version." errors={state.fieldErrors?.name}>
        <TextInput name="name" defaultValue={state.values?.name} placeholder="e.g. humanitarian" errors={state.fieldErrors?.name} maxLength={80} />
      </Field>
      <fieldset className="space-y-1" aria-describedby={state.fieldErrors?.eventIds ? "eventIds-error" : undefined}>
        <legend className="text-sm font-medium text-slate-700">Events (their accepted labels; gold tweets excluded)</legend>
        {events.length === 0 ? <p className="text-sm text-slate-500">No events yet.</p> : null}
        <ul className="max-h-56 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
          {events.map((e) => (
            <li key={e.id}>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="eventIds" value={e.id} defaultChecked={chosen.has(e.id)} disabled={e.accepted === 0} />
                <span>{e.name}</span>
                <span className="tabular text-xs text-slate-500">
                  {e.accepted.toLocaleString("en-US")} accepted · {e.schemeName}
                </span>
              </label>
            </li>
          ))}
        </ul>
        {state.fieldErrors?.eventIds ? (
          <p id="eventIds-error" role="alert" className="text-xs text-red-700">
            {state.fieldErrors.eventIds.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <p className="text-xs text-slate-500">
        Split 70/10/20 per event and label exactly as the HumAID export (labels under 15 tweets dropped); trained on train, the setting chosen on dev by weighted F1, scored on test.
      </p>
      <Button type="submit" disabled={pending}>
        {pending ? "Starting…" : "Train model"}
      </Button>
    </form>
  );
}
