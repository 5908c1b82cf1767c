import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, EmptyState, PageHeader, Stat } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/text/format";
import { labelName } from "@/lib/labels/label-names";
import { eventsUsingModel, getModel, trainableEvents } from "@/lib/models/queries";
import { EvaluateForm } from "../evaluate-form";
import { ConfusionTable, PerClassTable, score, Table7 } from "../score-tables";
import { UseModelForm } from "./use-model-form";

export const metadata: Metadata = { title: "Model" };

export default async function ModelPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser("view");
  const { id } = await params;
  const db = getDb();
  const model = await getModel(db, id);
  if (!model) notFound();
  const [events, using] = await Promise.all([trainableEvents(db), eventsUsingModel(db, model.id)]);
  const canEdit = roleAllows(user.role, "edit");
  const { trainedOn, scores } = model;
  const labels = Object.keys(trainedOn.labels).sort();
  const sameScheme = events.filter((e) => e.schemeId === model.schemeId);
  const linear = trainedOn.options?.linear;
  const dropped = Object.entries(trainedOn.split?.dropped ?? {}).flatMap(([event, d]) => Object.entries(d).map(([label, n]) => `${labelName(label)} (${n}, ${event})`));

  return (
    <>
      <PageHeader
        title={
          <span data-testid="model-title">
            {model.name} v{model.version}
          </span>
        }
        description={`${model.schemeName ?? "No label scheme"} · trained ${formatDateTime(model.createdAt)} on ${trainedOn.events.map((e) => e.name).join(", ") || "data outside Accord"}`}
        actions={
          <Link href="/models" className={buttonClass("secondary")}>
            ← Models
          </Link>
        }
      />
      {scores ? (
        <div className="grid gap-3 sm:grid-cols-5" data-testid="model-scores">
          <Stat label="Weighted F1" value={score(scores.overall.weighted.f1)} hint="test split (Table 7)" />
          <Stat label="Weighted P" value={score(scores.overall.weighted.precision)} />
          <Stat label="Weighted R" value={score(scores.overall.weighted.recall)} />
          <Stat label="Macro-F1" value={score(scores.overall.macro.f1)} />
          <Stat label="Accuracy" value={score(scores.overall.accuracy)} hint={`${scores.overall.n.toLocaleString("en-US")} test tweets`} />
        </div>
      ) : (
        <EmptyState title="This model has no stored test scores." />
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Card title="Training data" className="lg:col-span-1">
          <dl className="space-y-1 text-sm text-slate-700" data-testid="training-data">
            <div>
              <dt className="inline font-medium">Events: </dt>
              <dd className="inline">{trainedOn.events.map((e) => e.name).join(", ") || "—"}</dd>
            </div>
            {trainedOn.split ? (
              <div>
                <dt className="inline font-medium">Split (seed “{trainedOn.split.seed}”): </dt>
                <dd className="inline tabular">
                  {trainedOn.split.train} train · {trainedOn.split.dev} dev · {trainedOn.split.test} test
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="inline font-medium">Labels dropped (&lt; 15 tweets): </dt>
              <dd className="inline">{dropped.length ? dropped.join(", ") : "none"}</dd>
            </div>
            {linear ? (
              <div>
                <dt className="inline font-medium">Setting chosen on dev: </dt>
                <dd className="inline">
                  {linear.loss === "svm" ? "linear SVM" : "logistic regression"}, C = {linear.c}, class weights {linear.classWeight}
                  {trainedOn.dev ? ` (dev ${trainedOn.dev.metric} ${score(trainedOn.dev.score)})` : ""}
                </dd>
              </div>
            ) : null}
            {trainedOn.trainingMs !== undefined ? (
              <div>
                <dt className="inline font-medium">Training time: </dt>
                <dd className="inline tabular">{(trainedOn.trainingMs / 1000).toFixed(1)} s</dd>
              </div>
            ) : null}
          </dl>
          <ul className="mt-3 space-y-0.5 text-xs text-slate-600">
            {labels.map((l) => (
              <li key={l} className="flex justify-between gap-2">
                <span>{labelName(l)}</span>
                <span className="tabular">{trainedOn.labels[l].toLocaleString("en-US")} train</span>
              </li>
            ))}
          </ul>
          {trainedOn.events.length > 0 ? (
            <a href={`/models/${model.id}/test-split`} className={`${buttonClass("secondary")} mt-3`} data-testid="download-test-split">
              Download the test split (CSV)
            </a>
          ) : null}
        </Card>
        <Card title="Scores on the test split" description="Weighted precision, recall and F1 per event and overall (HumAID Table 7)." className="lg:col-span-2">
          {scores ? <Table7 perEvent={scores.perEvent} overall={scores.overall} testId="model-table7" /> : <p className="text-sm text-slate-500">None stored.</p>}
        </Card>
      </div>

      {scores ? (
        <div className="mt-6 grid gap-6">
          <Card title="Per class">
            <PerClassTable report={scores.overall} />
          </Card>
          <Card title="Confusion matrix" description="Test split: rows are the accepted labels, columns the predictions.">
            <ConfusionTable report={scores.overall} />
          </Card>
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card title="Score uploaded predictions" description="Predictions of any model (CSV tweet_id,label) for this model's test split: scores per event and overall, unmatched ids listed.">
          {canEdit ? (
            trainedOn.events.length > 0 ? (
              <EvaluateForm modelId={model.id} />
            ) : (
              <p className="text-sm text-slate-500">This model was not trained on events, so it has no test split here.</p>
            )
          ) : (
            <p className="text-sm text-slate-500">Viewers cannot upload predictions.</p>
          )}
        </Card>
        <Card title="Use at import time" description="The event's next imports classify every tweet, drop the chosen predicted classes and can sample per predicted class; each step's count shows in the import funnel.">
          {using.length > 0 ? (
            <p className="mb-3 text-sm text-slate-700" data-testid="model-in-use">
              Used by: {using.map((e) => e.name).join(", ")}
            </p>
          ) : null}
          {canEdit ? <UseModelForm modelId={model.id} labels={labels} events={sameScheme.map((e) => ({ id: e.id, name: e.name }))} /> : <p className="text-sm text-slate-500">Viewers cannot change import settings.</p>}
        </Card>
      </div>
    </>
  );
}
