"use client";

import { useActionState } from "react";
import { Card } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { updateIngestSettingsAction } from "@/lib/actions/events";
import { IngestFields } from "./ingest-fields";
import { ReasonAndSave } from "./reason-and-save";

/**
 * An event's upload filtering, editable after the event exists: it applies from the next upload (and to a paused
 * import when it resumes). `basis` fingerprints the settings the page showed; each saved change lands in the history.
 */
export function IngestSettingsForm({ eventId, basis, current }: { eventId: string; basis: string; current: Partial<Record<string, string>> }) {
  const [state, action, pending] = useActionState(updateIngestSettingsAction, initialActionState);
  const values = state.ok ? {} : (state.values ?? {});
  const errors = state.fieldErrors ?? {};
  return (
    <form key={`${formKey(state)}:${basis}`} action={action} className="space-y-4" noValidate data-testid="ingest-settings-form">
      <Card title="Change the upload filtering" description="Tweets already imported stay as they are; the next upload goes through these steps, and so does an import re-run from the Data tab. Every change is recorded with who made it and when.">
        <FormMessage ok={state.ok} message={state.message} />
        <input type="hidden" name="eventId" value={eventId} />
        <input type="hidden" name="basis" value={basis} />
        <div className="mt-3">
          <IngestFields values={values} defaults={current} errors={errors} posted={!state.ok && Boolean(state.values)} paperHints={false} withSampling />
        </div>
        <ReasonAndSave id="ingest-reason" reason={values.reason} errors={errors.reason} pending={pending} save="Save the upload filtering" placeholder="e.g. the pilot upload kept too many one-word tweets" />
      </Card>
    </form>
  );
}
