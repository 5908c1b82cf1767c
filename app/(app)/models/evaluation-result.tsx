import type { PredictionEvaluation } from "@/lib/models/evaluate-predictions";
import { Table7 } from "./score-tables";

/** The scores of uploaded predictions: Table 7 per event and overall, then what could not be matched. */
export function EvaluationResult({ evaluation }: { evaluation: PredictionEvaluation }) {
  const e = evaluation;
  return (
    <div className="space-y-3" data-testid="evaluation-result">
      <p className="text-sm text-slate-700">
        Against the {e.scope}: {e.matched.toLocaleString("en-US")} of {e.goldTotal.toLocaleString("en-US")} tweets predicted
        {e.missing > 0 ? `, ${e.missing.toLocaleString("en-US")} without a prediction (not scored)` : ""}.
      </p>
      {e.splitChanged ? (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          The events&apos; accepted labels changed since this model was trained: the test split above is today&apos;s, not the one the model was scored on.
        </p>
      ) : null}
      <Table7 perEvent={e.scores.perEvent} overall={e.scores.overall} testId="evaluation-table7" />
      {e.unmatched.count > 0 ? (
        <div className="text-sm text-slate-700" data-testid="unmatched">
          {e.unmatched.count.toLocaleString("en-US")} predicted tweet id{e.unmatched.count === 1 ? " is" : "s are"} not in the split (ignored)
          {e.unmatched.ids.length ? <span className="font-mono text-xs">: {e.unmatched.ids.join(", ")}{e.unmatched.count > e.unmatched.ids.length ? ", …" : ""}</span> : null}
        </div>
      ) : null}
      {e.errorCount > 0 ? (
        <div data-testid="row-errors">
          <p className="text-sm font-medium text-red-800">
            {e.errorCount.toLocaleString("en-US")} row{e.errorCount === 1 ? "" : "s"} of {e.rows.toLocaleString("en-US")} skipped:
          </p>
          <ul className="mt-1 max-h-48 overflow-y-auto text-xs text-red-800">
            {e.errors.map((r) => (
              <li key={r.line}>
                line {r.line}: {r.message}
              </li>
            ))}
            {e.errorCount > e.errors.length ? <li>… and {(e.errorCount - e.errors.length).toLocaleString("en-US")} more</li> : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
