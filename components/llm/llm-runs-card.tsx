import type { LlmRunRow } from "@/lib/crowd/llm/runs";
import { LLM_RUN_STATUS } from "@/lib/db/enums";
import { formatDateTime, formatInt, formatMoney, formatPercent } from "@/lib/text/format";
import { Badge, Card } from "@/components/ui/card";
import { AddLlmLabelsForm } from "./add-llm-labels-form";

const TONE: Record<string, "slate" | "green" | "red" | "blue"> = {
  [LLM_RUN_STATUS.done]: "green",
  [LLM_RUN_STATUS.failed]: "red",
  [LLM_RUN_STATUS.running]: "blue",
};

/**
 * The event's LLM runs (issue 32) on its Data tab: the button that queues one, a running run's progress, and each
 * run's summary (model, gold accuracy, no answers, tokens, cost).
 */
export function LlmRunsCard({ eventId, runs, canEdit, endpoint, outage }: { eventId: string; runs: LlmRunRow[]; canEdit: boolean; endpoint: { model: string; baseUrl: string }; outage: { since: string; message: string } | null }) {
  const active = runs.some((r) => r.status === LLM_RUN_STATUS.queued || r.status === LLM_RUN_STATUS.running);
  return (
    <Card
      title="LLM labels"
      description={`Label every tweet with the language model endpoint of Settings (${endpoint.model} at ${endpoint.baseUrl}). Only tweet texts and the scheme's labels are sent; a few gold tweets are examples, the rest is graded like a worker's.`}
      className="mt-6"
    >
      {outage ? (
        <p role="alert" className="mb-3 rounded bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="llm-outage">
          The language model endpoint cannot be reached since {formatDateTime(new Date(outage.since))}: {outage.message} A run waits and retries with a growing pause; this clears as soon as a call gets through.
        </p>
      ) : null}
      {canEdit ? <AddLlmLabelsForm eventId={eventId} active={active} /> : null}
      {runs.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No LLM run yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" data-testid="llm-runs">
          {runs.map((r) => (
            <li key={r.id} className="py-2 text-sm" data-testid="llm-run" data-status={r.status}>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={TONE[r.status] ?? "slate"}>{r.status}</Badge>
                <span className="font-medium" data-testid="llm-run-model">{r.model}</span>
                <span className="text-xs text-slate-500">
                  {r.passes > 1 ? `${r.passes} passes, ` : ""}temperature {r.temperature} · {formatDateTime(r.createdAt)}
                  {r.finishedAt ? ` → ${formatDateTime(r.finishedAt)}` : ""}
                </span>
              </div>
              {(r.status === LLM_RUN_STATUS.running || r.status === LLM_RUN_STATUS.queued) && r.progress ? (
                <p className="mt-1 text-xs text-slate-600" data-testid="llm-run-progress">
                  {r.progress.total ? `${formatInt(r.progress.done)} of ${formatInt(r.progress.total)} batches labelled` : "Waiting for a worker…"}
                </p>
              ) : null}
              {r.status !== LLM_RUN_STATUS.queued ? (
                <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" data-testid="llm-run-summary">
                  <div>
                    <dt className="inline text-slate-500">Tweets labelled </dt>
                    <dd className="inline tabular">{formatInt(r.tweetsLabelled)} of {formatInt(r.tweetsTotal)}</dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-500">Gold accuracy </dt>
                    <dd className="inline tabular" data-testid="llm-run-gold">
                      {r.goldTotal ? `${formatPercent(r.goldCorrect / r.goldTotal)} (${formatInt(r.goldCorrect)}/${formatInt(r.goldTotal)})` : "–"}
                    </dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-500">No answer </dt>
                    <dd className="inline tabular" data-testid="llm-run-no-answer">{formatInt(r.noAnswer)}</dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-500">Tokens </dt>
                    <dd className="inline tabular" data-testid="llm-run-tokens">
                      {formatInt(r.promptTokens)} in, {formatInt(r.completionTokens)} out
                    </dd>
                  </div>
                  <div>
                    <dt className="inline text-slate-500">Cost </dt>
                    <dd className="inline tabular" data-testid="llm-run-cost">{formatMoney(r.costCents, r.currency)}</dd>
                  </div>
                </dl>
              ) : null}
              {r.error ? <p className="mt-1 text-xs text-red-700">{r.error}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
