"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { applyModelToImportsAction } from "@/lib/actions/models";
import { labelName } from "@/lib/labels/label-names";

/** Apply the model at an event's imports: drop predicted classes (HumAID §3.1 step 4), sample per predicted class (§3.2). */
export function UseModelForm({ modelId, labels, events }: { modelId: string; labels: string[]; events: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState(applyModelToImportsAction, initialActionState);
  const dropDefault = new Set(state.values ? (state.values.dropLabels ?? "").split(",") : ["not_humanitarian"]);
  return (
    <form key={formKey(state)} action={action} className="space-y-3" data-testid="use-model-form">
      <input type="hidden" name="modelId" value={modelId} />
      <FormMessage ok={state.ok} message={state.message} />
      <Field label="Event" name="eventId" errors={state.fieldErrors?.eventId}>
        <SelectInput name="eventId" defaultValue={state.values?.eventId ?? ""} errors={state.fieldErrors?.eventId}>
          <option value="">Choose an event…</option>
          {events.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
        </SelectInput>
      </Field>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Drop tweets predicted as</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {labels.map((l) => (
            <label key={l} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="dropLabels" value={l} defaultChecked={dropDefault.has(l)} />
              {labelName(l)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Sample per predicted class" name="perClass" hint="Optional: n tweets of each predicted class." errors={state.fieldErrors?.perClass}>
          <TextInput name="perClass" inputMode="numeric" defaultValue={state.values?.perClass ?? ""} errors={state.fieldErrors?.perClass} />
        </Field>
        <Field label="Annotation budget (tweets)" name="budget" hint="Optional: at most this many in all." errors={state.fieldErrors?.budget}>
          <TextInput name="budget" inputMode="numeric" defaultValue={state.values?.budget ?? ""} errors={state.fieldErrors?.budget} />
        </Field>
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Use at import time"}
      </Button>
    </form>
  );
}
