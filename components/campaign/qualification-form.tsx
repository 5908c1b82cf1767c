"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput, TextInput } from "@/components/ui/field";
import { formKey, initialActionState } from "@/lib/actions/action-state";
import { createQualificationTestAction } from "@/lib/actions/campaign";
import { displayText } from "@/lib/text/display-text";

export type QualificationPreviewItem = { id: string; externalId: string; text: string; answer: string };

export function QualificationForm({
  eventId,
  goldAvailable,
  questions,
  hasActive,
  reusable,
  preview,
}: {
  eventId: string;
  goldAvailable: number;
  questions: number;
  hasActive: boolean;
  reusable: Array<{ id: string; name: string }>;
  /** The gold tweets the test will use, in order, with the answer key: created exactly as previewed. */
  preview: QualificationPreviewItem[];
}) {
  const [state, action, pending] = useActionState(createQualificationTestAction, initialActionState);
  const enough = goldAvailable >= questions;
  return (
    <form key={formKey(state)} action={action} className="space-y-3" noValidate>
      <input type="hidden" name="eventId" value={eventId} />
      <FormMessage ok={state.ok} message={state.message} />
      <p className="text-xs text-slate-600">
        {goldAvailable} gold tweets of this event available; Accord picks {questions} spread over the labels.
      </p>
      {preview.length ? (
        <details className="text-sm" data-testid="qualification-preview">
          <summary className="cursor-pointer text-slate-700">Preview the {preview.length} questions and their answer key</summary>
          <input type="hidden" name="goldTweetIds" value={preview.map((p) => p.id).join(",")} />
          <ol className="mt-2 space-y-2">
            {preview.map((p, i) => (
              <li key={p.id} className="rounded border border-slate-200 px-3 py-2">
                <span className="block text-xs text-slate-500">
                  Question {i + 1} · tweet <span className="font-mono">{p.externalId}</span>
                </span>
                <span className="block break-words text-slate-800">{displayText(p.text)}</span>
                <span className="mt-1 block text-xs text-emerald-800">Answer key: {p.answer}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600">More requirements (optional)</summary>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <Field label="Worker locales" name="locales" hint="e.g. US, GB" errors={state.fieldErrors?.locales}>
            <TextInput name="locales" defaultValue={state.values?.locales} errors={state.fieldErrors?.locales} />
          </Field>
          <Field label="Approval rate ≥ (%)" name="minApprovalPercent" errors={state.fieldErrors?.minApprovalPercent}>
            <TextInput name="minApprovalPercent" inputMode="numeric" defaultValue={state.values?.minApprovalPercent} errors={state.fieldErrors?.minApprovalPercent} />
          </Field>
          <Field label="Approved HITs ≥" name="minApprovedHits" errors={state.fieldErrors?.minApprovedHits}>
            <TextInput name="minApprovedHits" inputMode="numeric" defaultValue={state.values?.minApprovedHits} errors={state.fieldErrors?.minApprovedHits} />
          </Field>
        </div>
        {reusable.length ? (
          <div className="mt-3">
            <Field label="Or reuse the test of another event (same label scheme)" name="reuseTestId">
              <SelectInput name="reuseTestId" defaultValue="">
                <option value="">— build a new test from this event&rsquo;s gold —</option>
                {reusable.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </SelectInput>
            </Field>
          </div>
        ) : null}
      </details>
      <Button type="submit" disabled={pending || (!enough && reusable.length === 0)}>
        {pending ? "Creating…" : hasActive ? "Replace the qualification test" : "Create the qualification test"}
      </Button>
      {!enough ? <p className="text-xs text-amber-700">Upload at least {questions} gold tweets first.</p> : null}
    </form>
  );
}
