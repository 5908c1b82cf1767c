"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput } from "@/components/ui/field";
import { initialActionState } from "@/lib/actions/action-state";
import { evaluatePredictionsAction } from "@/lib/actions/models";
import type { PredictionEvaluation } from "@/lib/models/evaluate-predictions";
import type { TrainableEvent } from "@/lib/models/queries";
import { EvaluationResult } from "./evaluation-result";

/**
 * Upload predictions (CSV tweet_id,label) and get HumAID Table 7 scores: for a model's test split
 * (`modelId`), or for a split of the chosen events' accepted labels (`events`).
 */
export function EvaluateForm({ modelId, events }: { modelId?: string; events?: TrainableEvent[] }) {
  const [state, action, pending] = useActionState(evaluatePredictionsAction, initialActionState);
  const evaluation = state.ok ? (state.data?.evaluation as PredictionEvaluation | undefined) : undefined;
  return (
    <div className="space-y-4">
      <form action={action} className="space-y-3" data-testid="evaluate-form">
        <FormMessage ok={state.ok} message={state.message} />
        {modelId ? (
          <>
            <input type="hidden" name="scope" value="model" />
            <input type="hidden" name="modelId" value={modelId} />
          </>
        ) : (
          <>
            <input type="hidden" name="scope" value="events" />
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium text-slate-700">Events</legend>
              <ul className="max-h-40 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
                {(events ?? []).map((e) => (
                  <li key={e.id}>
                    <label className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="eventIds" value={e.id} disabled={e.accepted === 0} />
                      <span>{e.name}</span>
                      <span className="tabular text-xs text-slate-500">{e.accepted.toLocaleString("en-US")} accepted</span>
                    </label>
                  </li>
                ))}
              </ul>
              {state.fieldErrors?.eventIds ? (
                <p role="alert" className="text-xs text-red-700">
                  {state.fieldErrors.eventIds.join(" ")}
                </p>
              ) : null}
            </fieldset>
            <Field label="Split" name="split" hint="As the HumAID export splits the events (seed “accord”)." errors={state.fieldErrors?.split}>
              <SelectInput name="split" defaultValue="test">
                <option value="test">test</option>
                <option value="dev">dev</option>
                <option value="train">train</option>
                <option value="all">all accepted labels</option>
              </SelectInput>
            </Field>
          </>
        )}
        <Field label="Predictions" name="predictions-file" hint="CSV with a header: tweet_id,label (one row per tweet; at most 960 KB)." errors={state.fieldErrors?.file}>
          <input
            id="predictions-file"
            name="file"
            type="file"
            accept=".csv,.tsv,.txt,text/csv"
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-100"
          />
        </Field>
        <Button type="submit" disabled={pending}>
          {pending ? "Scoring…" : "Score predictions"}
        </Button>
      </form>
      {evaluation ? <EvaluationResult evaluation={evaluation} /> : null}
    </div>
  );
}
