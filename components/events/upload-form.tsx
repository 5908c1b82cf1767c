"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { uploadImportAction } from "@/lib/actions/imports";

/** Upload sampled tweets or gold tweets; the import then runs as a job with its progress below. */
export function UploadForm({ eventId, maxSize }: { eventId: string; maxSize: string }) {
  const [state, action, pending] = useActionState(uploadImportAction, initialActionState);
  return (
    <form key={formKey(state)} action={action} className="space-y-3" data-testid="upload-form">
      <input type="hidden" name="eventId" value={eventId} />
      <FormMessage ok={state.ok} message={state.message} />
      <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
        <Field label="What is it?" name="kind" errors={state.fieldErrors?.kind}>
          <SelectInput name="kind" defaultValue={state.values?.kind ?? "tweets"}>
            <option value="tweets">Tweets to label</option>
            <option value="gold">Gold tweets (expert labels)</option>
          </SelectInput>
        </Field>
        <Field
          label="File"
          name="file"
          hint={`HumAID TSV, CSV/TSV with a header, CrisisLex CSV, or Twitter API JSON/JSONL (v1.1 or v2); UTF-8; at most ${maxSize}.`}
          errors={state.fieldErrors?.file}
        >
          <input
            id="file"
            name="file"
            type="file"
            accept=".tsv,.csv,.txt,.json,.jsonl,.ndjson,text/csv,text/tab-separated-values,application/json"
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-100"
          />
        </Field>
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Uploading…" : "Upload and import"}
      </Button>
    </form>
  );
}
