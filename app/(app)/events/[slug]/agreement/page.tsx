import { describeRules } from "@/lib/procedure/describe-rules";
import { differencesHeading } from "@/lib/events/breakdowns";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { formatCoefficient, formatDateTime, formatInt, formatPercent } from "@/lib/text/format";
import { loadAgreementPage } from "@/lib/events/page-data";
import { AgreementChart } from "@/components/charts/agreement-chart";
import { LabelBarChart } from "@/components/charts/label-bar-chart";
import { labelNamer, type LabelNamer } from "@/lib/labels/label-names";
import { usesSimulatedWorkers } from "@/lib/events/simulated";
import { AnalysisRefresher } from "@/components/events/analysis-refresher";
import { EventHeader } from "@/components/events/event-header";
import { ScopeToggle } from "@/components/events/scope-toggle";
import { ReplayCard } from "@/components/events/replay-card";
import { parseScopeParam } from "@/lib/analysis/table3-scopes";
import { DataTable, right, Td } from "@/components/tables/data-table";
import { Card, EmptyState } from "@/components/ui/card";
import { displayText } from "@/lib/text/display-text";
import { llmCompareReport } from "@/lib/llm-compare/report";
import { LlmComparePanel } from "@/components/llm-compare/llm-compare-panel";

export const metadata: Metadata = { title: "Agreement" };

function Metric({ name, value, explain, testId }: { name: string; value: number | null; explain: string; testId: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm" data-testid={testId}>
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{name}</div>
      <div className="tabular mt-1 text-2xl font-semibold text-slate-900">{formatCoefficient(value)}</div>
      <p className="mt-1 text-xs text-slate-500">{explain}</p>
    </div>
  );
}

const SHOWN_DIFFERENCES = 50;

type Difference = { tweetId: string; majority: string | null; majorityAccepted: boolean; dawidSkene: string; posterior: number; votes: Record<string, number> };

function DifferencesTable({ rows, texts, name, testId }: { rows: Difference[]; texts: Map<string, { externalId: string; text: string }>; name: LabelNamer; testId?: string }) {
  return (
    <DataTable
      testId={testId}
      columns={["Tweet", "Votes", "Majority", "Dawid–Skene", right("Posterior")]}
    >
      {rows.map((d) => {
        const t = texts.get(d.tweetId);
        return (
          <tr key={d.tweetId} className="border-t border-slate-100">
            <Td className="max-w-md break-words">
              <span className="block font-mono text-[11px] text-slate-500">{t?.externalId}</span>
              {t ? displayText(t.text) : null}
            </Td>
            <Td className="text-xs">
              {Object.entries(d.votes)
                .sort((x, y) => y[1] - x[1])
                .map(([l, n]) => `${name(l)}: ${n}`)
                .join(", ")}
            </Td>
            <Td className="text-xs">{d.majority ? `${name(d.majority)}${d.majorityAccepted ? "" : " (not accepted)"}` : "tie"}</Td>
            <Td className="text-xs font-medium">{name(d.dawidSkene)}</Td>
            <Td align="right">{formatPercent(d.posterior, 0)}</Td>
          </tr>
        );
      })}
    </DataTable>
  );
}

export default async function EventAgreementPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser("view");
  const { slug } = await params;
  const query = await searchParams;
  const scope = parseScopeParam(query.scope);
  const db = getDb();
  const page = await loadAgreementPage(db, slug, scope);
  if (!page) notFound();
  const { event, data, labels, texts, currency, replay } = page;
  const { latest, analysis } = data;
  const a = analysis.analysis;
  // Table 3: the latest snapshot of the sync loop in the chosen scope; without one, the background analysis
  // (which covers all judged tweets, so only for that scope).
  const table3 =
    latest && (scope === "all" || latest.items > 0 || latest.fleissKappa !== null)
      ? { ...latest, source: `as of ${formatDateTime(latest.t)} · ${formatInt(latest.items)} tweets, ${formatInt(latest.judgments)} approved judgments` }
      : a && scope === "all"
        ? { ...a.table3, judgments: a.judgments, source: `from the analysis of ${formatDateTime(analysis.finishedAt)} · ${formatInt(a.judgments)} approved judgments` }
        : null;
  const name = labelNamer(labels);
  const rules = describeRules(event.settings);
  const perLabel = new Map((a?.perLabel ?? []).map((p) => [p.label, p]));
  // The analysis runs in the background: while it runs (or is about to, being stale) its cells say so instead of "–".
  const computing = analysis.running || (analysis.stale && !a);
  const pending = computing ? "computing…" : "–";
  const [simulated, llm] = await Promise.all([usesSimulatedWorkers(db, event), llmCompareReport(db, event.slug)]);
  const distribution = data.distribution.filter((r) => r.accepted > 0 || perLabel.get(r.label)?.judgments);

  return (
    <>
      <EventHeader event={event} active="agreement" liveKinds={["metrics", "analysis"]} />
      {simulated ? (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900" data-testid="simulated-note">
          The judgments of this event come from simulated workers: their labels follow a noise model, not the tweets&apos; meaning, so the agreement and labels below test the procedure and say nothing about the tweets.
        </p>
      ) : null}
      <section aria-labelledby="table3" className="mb-6">
        <div className="mb-2 flex flex-wrap items-end justify-between gap-2">
          <h2 id="table3" className="text-base font-semibold text-slate-900">
            Inter-annotator agreement (the paper&apos;s Table 3)
          </h2>
          <span className="text-xs text-slate-500">{table3?.source ?? (latest ? "no snapshot of this scope yet" : "no approved judgments yet")}</span>
        </div>
        <div className="mb-3">
          <ScopeToggle scope={scope} basePath={`/events/${event.slug}/agreement`} />
        </div>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="table3">
          <Metric testId="metric-kappa" name="Fleiss κ" value={table3?.fleissKappa ?? null} explain="Chance-corrected agreement over the first three judgments of each tweet." />
          <Metric testId="metric-alpha" name="Krippendorff α" value={table3?.krippendorffAlpha ?? null} explain={`Nominal α over all judgments (${event.settings.judgmentsPerTweet}–${event.settings.maxJudgmentsPerTweet} per tweet), missing data allowed.`} />
          <Metric testId="metric-observed" name="Avg. observed agreement" value={table3?.averageObservedAgreement ?? null} explain="Share of agreeing pairs among the first three judgments, averaged over tweets." />
          <Metric testId="metric-majority" name="Avg. majority agreement" value={table3?.averageMajorityAgreement ?? null} explain="Share of a tweet's judgments that chose its most frequent label, over all judgments." />
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Agreement as judgments arrive" description={`${formatInt(data.snapshotsTotal)} snapshots, one after each round of decisions${data.snapshotsTotal > data.series.length ? ` (${data.series.length} shown)` : ""}.`}>
          {data.series.length ? <AgreementChart data={data.series} /> : <EmptyState title="No snapshots yet." />}
        </Card>
        <Card title="Label distribution (Table 2)" description={`${formatInt(data.acceptedTotal)} tweets with an accepted label.`}>
          {data.acceptedTotal ? (
            <LabelBarChart testId="label-distribution-chart" data={data.distribution.map((r) => ({ label: r.label, name: r.name, accepted: r.accepted }))} series={[{ key: "accepted", name: "accepted labels" }]} />
          ) : (
            <EmptyState title="No accepted labels yet." />
          )}
        </Card>
      </div>

      <Card
        title="Per label"
        description={`Accepted: tweets that got the label (${rules.short.tweetAcceptance} agreement). From the background analysis: mean agreement (average share of votes for the label on those tweets), judgments, and specific agreement (of all pairs of judgments that include the label, the share where both chose it).`}
        className="mt-6"
      >
        {distribution.length === 0 ? (
          <EmptyState title="Nothing to show yet." />
        ) : (
          <DataTable
            testId="per-label"
            columns={["Label", right("Accepted"), right("Share"), right("Mean agreement"), right("Judgments"), right("Specific agreement")]}
          >
            {distribution.map((r) => {
              const p = perLabel.get(r.label);
              return (
                <tr key={r.label} className="border-t border-slate-100">
                  <Td>{r.name}</Td>
                  <Td align="right">{formatInt(r.accepted)}</Td>
                  <Td align="right">{formatPercent(r.share)}</Td>
                  <Td align="right">{formatPercent(r.meanAgreement)}</Td>
                  <Td align="right">{p ? formatInt(p.judgments) : pending}</Td>
                  <Td align="right">{p ? formatPercent(p.specificAgreement) : pending}</Td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </Card>

      <Card
        title="Majority vote vs Dawid–Skene"
        description={`Majority vote with the event's rule (a label needs ${rules.short.tweetAcceptance} of a tweet's approved judgments) against Dawid & Skene's EM estimate, which weighs each worker by an estimated confusion matrix (anchored on the gold tweets they answered).`}
        actions={<AnalysisRefresher eventId={event.id} stale={analysis.stale} running={analysis.running} finishedAt={analysis.finishedAt?.getTime() ?? null} />}
        className="mt-6"
      >
        {!a ? (
          <EmptyState title={computing ? "Computing the analysis…" : "No analysis yet."}>
            <span data-testid="analysis-state" data-computing={computing ? "1" : "0"}>
              {computing ? "It runs in the background over all approved judgments; this page shows it when it is done." : "It runs in the background over all approved judgments, once there are some."}
            </span>
          </EmptyState>
        ) : (
          <div className="space-y-6">
            <dl className="grid grid-cols-2 gap-3 text-sm md:grid-cols-5" data-testid="mv-ds-counts">
              <div>
                <dt className="text-xs text-slate-500">Tweets</dt>
                <dd className="tabular text-lg font-semibold">{formatInt(a.comparison.tweets)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">Same label</dt>
                <dd className="tabular text-lg font-semibold text-emerald-700">{formatInt(a.comparison.sameLabel)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">Different label (majority label accepted)</dt>
                <dd className="tabular text-lg font-semibold text-red-700">{formatInt(a.comparison.differentLabel)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">No majority label; Dawid–Skene decides</dt>
                <dd className="tabular text-lg font-semibold text-amber-700">{formatInt(a.comparison.majorityUndecided)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">EM</dt>
                <dd className="text-sm">
                  {a.comparison.dawidSkeneIterations} iterations{a.comparison.dawidSkeneConverged ? ", converged" : ""}; {formatInt(a.comparison.goldAnchors)} gold anchors
                </dd>
              </div>
            </dl>
            <LabelBarChart
              testId="mv-ds-chart"
              data={a.perLabel.filter((p) => p.majority || p.dawidSkene).map((p) => ({ label: p.label, name: name(p.label), majority: p.majority, dawidSkene: p.dawidSkene }))}
              series={[
                { key: "majority", name: "majority vote (accepted)" },
                { key: "dawidSkene", name: "Dawid–Skene" },
              ]}
            />
            <div>
              <h3 className="mb-2 text-sm font-semibold text-slate-800">
                {differencesHeading({ total: a.differencesTotal, withAcceptedLabel: a.comparison.differentLabel, shown: a.differences.length })}
              </h3>
              {a.differences.length === 0 ? (
                <p className="text-sm text-slate-500">None: both methods agree on every tweet.</p>
              ) : (
                <>
                  <DifferencesTable rows={a.differences.slice(0, SHOWN_DIFFERENCES)} texts={texts} name={name} testId="mv-ds-differences" />
                  {a.differences.length > SHOWN_DIFFERENCES ? (
                    <details className="mt-2">
                      <summary className="cursor-pointer text-sm text-accent-700">Show {a.differences.length - SHOWN_DIFFERENCES} more</summary>
                      <div className="mt-2">
                        <DifferencesTable rows={a.differences.slice(SHOWN_DIFFERENCES)} texts={texts} name={name} />
                      </div>
                    </details>
                  ) : null}
                </>
              )}
            </div>
          </div>
        )}
      </Card>
      {llm ? <LlmComparePanel report={llm} name={name} /> : null}
      <ReplayCard eventId={event.id} status={replay} currency={currency} />
    </>
  );
}
