"use client";

import { useActionState } from "react";
import { Card } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { updateProcedureSettingsAction } from "@/lib/actions/events";
import type { ProcedureFormValues } from "@/lib/events/procedure-form.validation";
import { ProcedureFields } from "./procedure-fields";
import { ReasonAndSave } from "./reason-and-save";

/**
 * An event's procedure settings, editable during the campaign. `basis` fingerprints the settings the page showed, so
 * a change made meanwhile by someone else is not overwritten; each saved change lands in the history below.
 */
export function ProcedureSettingsForm({ eventId, basis, current, labels, goldRuleEffect }: { eventId: string; basis: string; current: ProcedureFormValues; labels: number; goldRuleEffect?: string }) {
  const [state, action, pending] = useActionState(updateProcedureSettingsAction, initialActionState);
  const values = state.ok ? {} : (state.values ?? {});
  const errors = state.fieldErrors ?? {};
  return (
    <form key={`${formKey(state)}:${basis}`} action={action} className="space-y-4" noValidate data-testid="procedure-settings-form">
      <Card
        title="Change the rules"
        description="HITs already published keep their tweets and decisions already made stay; the new rules apply from the next decision, HIT and export. Every change is recorded with who made it and when, and listed in each export's manifest."
      >
        <FormMessage ok={state.ok} message={state.message} />
        <input type="hidden" name="eventId" value={eventId} />
        <input type="hidden" name="basis" value={basis} />
        <div className="mt-3">
          <ProcedureFields values={values} defaults={current} errors={errors} paperHints={false} labels={labels} goldRuleEffect={goldRuleEffect} />
        </div>
        <ReasonAndSave id="procedure-reason" reason={values.reason} errors={errors.reason} pending={pending} save="Save the rules" placeholder="e.g. pilot showed 70% gold rejects too many honest workers" />
      </Card>
    </form>
  );
}
