import type { Metadata } from "next";
import Link from "next/link";
import { RefreshWhile } from "@/components/campaign/refresh-while";
import { DataTable, right, Td } from "@/components/tables/data-table";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/text/format";
import { listModels, listTrainingJobs, trainableEvents } from "@/lib/models/queries";
import { EvaluateForm } from "./evaluate-form";
import { score } from "./score-tables";
import { TrainForm } from "./train-form";
import { JOB_STATE } from "@/lib/db/enums";

export const metadata: Metadata = { title: "Models" };

const JOB_TONE = { queued: "slate", running: "blue", succeeded: "green", failed: "red", cancelled: "amber" } as const;

export default async function ModelsPage() {
  const user = await requirePageUser("view");
  const db = getDb();
  const [models, jobs, events] = await Promise.all([listModels(db), listTrainingJobs(db), trainableEvents(db)]);
  const canEdit = roleAllows(user.role, "edit");
  const active = jobs.some((j) => j.state === JOB_STATE.queued || j.state === JOB_STATE.running);
  return (
    <>
      <RefreshWhile active={active} ms={1000} />
      <PageHeader
        title="Models"
        description="Baseline tweet classifiers (tf-idf word and character n-grams, linear SVM) trained on your events' accepted labels and scored on the exported test split like the HumAID paper's Table 7. Use one at import time to drop and sample tweets by predicted class."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Models" description="Newest first; every training under a name adds a version." className="lg:col-span-2">
          {models.length === 0 ? (
            <EmptyState title="No model yet.">Train one on an event&rsquo;s accepted labels.</EmptyState>
          ) : (
            <DataTable
              testId="models-table"
              columns={["Model", "Trained on", right("Train / dev / test", "Tweets in the train / dev / test splits"), right("P", "Weighted precision on the test split"), right("R", "Weighted recall on the test split"), right("F1", "Weighted F1 on the test split (HumAID Table 7)"), right("Macro-F1"), "Created"]}
            >
              {models.map((m) => (
                <tr key={m.id} className="border-t border-slate-100" data-testid="model-row">
                  <Td>
                    <Link href={`/models/${m.id}`} className="font-medium text-accent-700 hover:underline">
                      {m.name} v{m.version}
                    </Link>
                    <div className="text-xs text-slate-500">{m.schemeName ?? "no scheme"}</div>
                  </Td>
                  <Td>{m.trainedOn.events.map((e) => e.name).join(", ") || "—"}</Td>
                  <Td align="right">{m.trainedOn.split ? `${m.trainedOn.split.train} / ${m.trainedOn.split.dev} / ${m.trainedOn.split.test}` : (m.trainedOn.rows ?? "—")}</Td>
                  <Td align="right">{m.scores ? score(m.scores.overall.weighted.precision) : "—"}</Td>
                  <Td align="right">{m.scores ? score(m.scores.overall.weighted.recall) : "—"}</Td>
                  <Td align="right" className="font-semibold">
                    {m.scores ? score(m.scores.overall.weighted.f1) : "—"}
                  </Td>
                  <Td align="right">{m.scores ? score(m.scores.overall.macro.f1) : "—"}</Td>
                  <Td className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(m.createdAt)}</Td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
        <Card title="Train a model">{canEdit ? <TrainForm events={events} /> : <p className="text-sm text-slate-500">Viewers cannot train models.</p>}</Card>
      </div>

      <Card title="Training jobs" description="Each training runs as a job; its progress survives a reload." className="mt-6">
        {jobs.length === 0 ? (
          <p className="text-sm text-slate-500">No training yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="training-jobs">
            {jobs.map((j) => (
              <li key={j.id} className="flex flex-wrap items-center gap-2 py-2 text-sm" data-testid="training-job" data-state={j.state}>
                <Badge tone={JOB_TONE[j.state as keyof typeof JOB_TONE] ?? "slate"}>{j.state}</Badge>
                <span className="font-medium">{j.name}</span>
                <span className="text-xs text-slate-500">
                  {j.eventCount} event{j.eventCount === 1 ? "" : "s"} · {formatDateTime(j.createdAt)}
                </span>
                {j.state === JOB_STATE.running || j.state === JOB_STATE.queued ? (
                  <span className="text-xs text-slate-600">
                    <progress className="mr-2 align-middle" value={j.progressDone} max={j.progressTotal ?? 5} />
                    {j.message ?? "waiting for a worker"}
                  </span>
                ) : null}
                {j.state === JOB_STATE.succeeded ? <span className="text-xs text-slate-600">{j.message}</span> : null}
                {j.state === JOB_STATE.failed ? (
                  <span className="text-xs text-red-700" role="alert">
                    {j.error}
                  </span>
                ) : null}
                {j.modelId ? (
                  <Link href={`/models/${j.modelId}`} className="text-xs font-medium text-accent-700 hover:underline">
                    open model →
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card
        title="Score predictions on events' splits"
        description="Upload another model's predictions (CSV tweet_id,label) for a split of events' accepted labels, as exported; scores per event and overall like Table 7."
        className="mt-6"
      >
        {canEdit ? <EvaluateForm events={events} /> : <p className="text-sm text-slate-500">Viewers cannot upload predictions.</p>}
      </Card>
    </>
  );
}
