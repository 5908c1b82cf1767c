import { describeRules } from "@/lib/procedure/describe-rules";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { formatCoefficient, formatDateTime, formatDuration, formatInt, formatMoney, formatShare } from "@/lib/text/format";
import { loadOverviewPage } from "@/lib/events/page-data";
import { scopeShortName } from "@/lib/analysis/table3-scopes";
import { hitBreakdown } from "@/lib/events/breakdowns";
import { campaignState } from "@/lib/events/campaign-state";
import { exclusionSummary } from "@/lib/events/exclusions";
import { budgetView } from "@/lib/events/budget-view";
import { formatMoneyTotals } from "@/lib/events/money-totals";
import { crowdName } from "@/lib/crowd/registry";
import { importedFrom } from "@/lib/ingest/judgments/imported-from";
import { countReopenable } from "@/lib/ingest/judgments/collect-more";
import { CollectMoreForm } from "@/components/events/collect-more-form";
import { DecisionsChart } from "@/components/charts/decisions-chart";
import { FunnelChart } from "@/components/charts/funnel-chart";
import { SpendChart } from "@/components/charts/spend-chart";
import { PublishPanel } from "@/components/campaign/publish-panel";
import { QualificationPanel } from "@/components/campaign/qualification-panel";
import { ArchiveButton } from "@/components/events/archive-button";
import { RulesCard } from "@/components/events/rules-card";
import { EventHeader } from "@/components/events/event-header";
import { StatusBadge } from "@/components/events/status-badge";
import { DataTable, right, Td } from "@/components/tables/data-table";
import { Card, EmptyState, Stat } from "@/components/ui/card";

export const metadata: Metadata = { title: "Event overview" };

const HIT_ORDER = ["draft", "published", "reviewing", "extended", "approved", "unresolved", "expired", "deleted"];

export default async function EventOverviewPage({ params }: { params: Promise<{ slug: string }> }) {
  const user = await requirePageUser("view");
  const { slug } = await params;
  const page = await loadOverviewPage(getDb(), slug);
  if (!page) notFound();
  const { event, overview, crowd, latestSnapshot, goldRisk, currency } = page;
  const money = (minor: number) => formatMoney(minor, currency);
  const exclusions = await exclusionSummary(getDb(), event.id);
  const { funnel, spend } = overview;
  const budget = budgetView({ eventCapCents: event.budgetCapCents, globalCapCents: crowd.budgetCapCents, currency, totals: spend.totals });
  const otherCurrencies = spend.totals.filter((m) => m.currency !== currency && m.minor !== 0);
  const canEdit = roleAllows(user.role, "edit");
  const state = campaignState(overview);
  const imported = await importedFrom(getDb(), event.id);
  const reopenable = imported && canEdit ? await countReopenable(getDb(), event.id) : null;

  return (
    <>
      <EventHeader event={event} active="overview" liveKinds={["decision", "hit", "metrics", "import", "sync-error", "publish"]} />
      {overview.syncProblems.hits > 0 ? (
        <div role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          The sync loop could not reach the crowd provider for {overview.syncProblems.hits} HIT{overview.syncProblems.hits === 1 ? "" : "s"}; it keeps retrying with backoff.
          {overview.syncProblems.latest ? <span className="block text-xs text-amber-800">Latest: {overview.syncProblems.latest}</span> : null}
        </div>
      ) : null}
      {/* Re-read on every live update: each step of a publish (waiting to start, sending, open HITs, decisions) reads differently. */}
      {imported ? (
        <p className="mb-3 text-sm text-slate-700" data-testid="imported-from">
          {imported.text}
        </p>
      ) : null}
      {/* Rendered while nothing is left too, so that its confirmation stays on show after the page refreshes. */}
      {reopenable !== null ? <CollectMoreForm eventId={event.id} unresolved={reopenable} unknownPerHit={event.settings.unknownPerHit} /> : null}
      {!imported || imported.ownHits ? (
        <p className="mb-3 text-sm text-slate-700" role="status" data-testid="campaign-state" data-step={state.step}>
          {state.text}
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6" data-testid="overview-stats">
        <Stat label="Tweets" value={formatInt(funnel.tweets)} hint={`${formatInt(funnel.gold)} gold${funnel.goldRetired ? `, ${formatInt(funnel.goldRetired)} retired` : ""}`} />
        <Stat label="HITs" value={formatInt(overview.hitsTotal)} hint={hitBreakdown(overview.hitStatus)} />
        <Stat label="Assignments" value={formatInt(overview.assignmentsTotal)} hint={`${formatInt(overview.assignmentStatus.approved ?? 0)} approved · ${formatInt(overview.assignmentStatus.rejected ?? 0)} rejected`} />
        <Stat label="Labels accepted" value={formatInt(funnel.accepted)} hint={`${formatShare(funnel.accepted, funnel.judged)} of judged tweets`} />
        <Stat label="Spent" value={formatMoneyTotals(spend.totals, currency)} hint={budget.hint} />
        <Stat
          label={`Fleiss κ (${latestSnapshot?.scope === "all" ? "all judged" : "agreed"})`}
          value={formatCoefficient(latestSnapshot?.fleissKappa ?? null)}
          hint={latestSnapshot ? `over ${scopeShortName(latestSnapshot.scope)}: ${formatInt(latestSnapshot.judgments)} judgments · see Agreement` : "no judgments yet"}
        />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card title="Tweet funnel" description={`Unknown tweets: all → in a HIT → judged → an accepted label (${describeRules(event.settings).short.tweetAcceptance} agree) or unresolved.`}>
          {funnel.tweets === 0 ? (
            <EmptyState title="No tweets yet.">
              Upload the sampled tweets on the <Link className="text-accent-700 underline" href={`/events/${event.slug}/data`}>Data</Link> tab.
            </EmptyState>
          ) : (
            <FunnelChart
              stages={[
                { stage: "tweets", count: funnel.tweets },
                { stage: "in HITs", count: funnel.inHits },
                { stage: "judged", count: funnel.judged },
                { stage: "accepted", count: funnel.accepted, tone: "good" },
                { stage: "unresolved", count: funnel.unresolved, tone: "bad" },
              ]}
            />
          )}
        </Card>
        <Card title="HITs and assignments" description="HIT status on the provider, and what the sync loop decided for each submitted assignment.">
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4" data-testid="hit-status">
            {HIT_ORDER.filter((s) => overview.hitStatus[s]).map((s) => (
              <div key={s} className="flex items-center justify-between gap-2">
                <dt>
                  <StatusBadge status={s} />
                </dt>
                <dd className="tabular font-medium">{formatInt(overview.hitStatus[s])}</dd>
              </div>
            ))}
            {overview.hitsTotal === 0 ? <p className="col-span-4 text-slate-500">No HITs published yet.</p> : null}
          </dl>
          <h3 className="mt-5 text-xs font-semibold uppercase tracking-wide text-slate-500">Assignments</h3>
          <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4" data-testid="assignment-status">
            {["submitted", "approved", "rejected", "held"].map((s) => (
              <div key={s} className="flex items-center justify-between gap-2">
                <dt>
                  <StatusBadge status={s} />
                </dt>
                <dd className="tabular font-medium">{formatInt(overview.assignmentStatus[s] ?? 0)}</dd>
              </div>
            ))}
          </dl>
          {exclusions.count ? (
            <div className="mt-3 text-sm" data-testid="exclusions">
              <p>
                {formatInt(exclusions.count)} approved and excluded ({formatInt(exclusions.workers)} worker{exclusions.workers === 1 ? "" : "s"}): paid {money(exclusions.paidMinor)} in rewards and fees, their judgments left out of agreement, labels and exports.
              </p>
              <ul className="mt-1 list-disc pl-5 text-xs text-slate-600">
                {exclusions.latest.map((x) => (
                  <li key={`${x.workerExternalId}-${x.hitSeq}`}>
                    HIT #{x.hitSeq}, <span className="font-mono">{x.workerExternalId}</span>: {x.reason}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <p className="mt-4 text-xs text-slate-500">
            Cost so far: rewards {money(spend.byKind.reward ?? 0)}, {crowdName(event.provider)} fees {money(spend.byKind.fee ?? 0)}
            {spend.byKind.bonus ? `, bonuses ${money(spend.byKind.bonus)}` : ""}; {spend.costPerAcceptedLabelCents !== null ? `${money(spend.costPerAcceptedLabelCents)} per accepted label` : "no accepted label yet"}
            {otherCurrencies.length ? ` (in ${currency}; batches in other currencies spent ${formatMoneyTotals(otherCurrencies)} more)` : ""}.
          </p>
        </Card>
        <Card title="Decisions over time" description={`Assignments approved, rejected or held by the gold rule (${describeRules(event.settings).short.goldRule}), per ${formatDuration(overview.decisions.bucketSeconds)}.`}>
          {overview.decisions.buckets.length ? <DecisionsChart data={overview.decisions.buckets} bucketSeconds={overview.decisions.bucketSeconds} /> : <EmptyState title="No decisions yet." />}
        </Card>
        <Card title="Spend against budget" description={budget.description}>
          {spend.overTime.length ? <SpendChart data={spend.overTime} budgetCapCents={budget.chartCapCents} currency={currency} /> : <EmptyState title="Nothing spent yet." />}
        </Card>
      </div>

      <Card title="Latest decisions" description="Newest first, with the rule and counts behind each. Updated live." className="mt-6">
        {overview.latestDecisions.length === 0 ? (
          <EmptyState title="No decisions yet.">Decisions appear here within a second of the sync loop making them.</EmptyState>
        ) : (
          <DataTable
            testId="decision-feed"
            columns={["Time (UTC)", "HIT", "Worker", "Decision", right("Gold"), "Reason"]}
          >
            {overview.latestDecisions.map((d) => (
              <tr key={d.id} className="border-t border-slate-100">
                <Td className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(d.at)}</Td>
                <Td>{d.hitSeq !== null ? <Link className="text-accent-700 hover:underline" href={`/events/${event.slug}/hits/${d.hitSeq}`}>#{d.hitSeq}</Link> : "–"}</Td>
                <Td className={d.workerName ? "text-xs" : "font-mono text-xs"}>{d.workerName ?? d.workerExternalId ?? "–"}</Td>
                <Td>
                  <StatusBadge status={d.action.replace(/^redecide-/, "")} label={d.action.startsWith("redecide-") ? `${d.action.slice(9)} (by hand)` : undefined} />
                </Td>
                <Td align="right">{d.correct !== null && d.total !== null ? `${d.correct}/${d.total}${d.threshold ? ` (≥ ${d.threshold})` : ""}` : "–"}</Td>
                <Td className="text-slate-700">{d.reason ?? ""}</Td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>

      {overview.activeJobs.length ? (
        <Card title="Background work" className="mt-6">
          <ul className="space-y-2 text-sm" data-testid="active-jobs">
            {overview.activeJobs.map((j) => (
              <li key={j.id} className="flex items-center gap-3">
                <StatusBadge status={j.state} />
                <span className="font-medium">{j.type}</span>
                <span className="tabular text-slate-600">
                  {formatInt(j.progressDone)}
                  {j.progressTotal !== null ? ` / ${formatInt(j.progressTotal)}` : ""}
                </span>
                {j.message ? <span className="text-slate-500">{j.message}</span> : null}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      {canEdit ? (
        <section className="mt-8" aria-labelledby="campaign-heading">
          <h2 id="campaign-heading" className="mb-3 text-base font-semibold text-slate-900">
            Campaign
          </h2>
          <div className="grid gap-6 lg:grid-cols-2">
            <QualificationPanel eventId={event.id} />
            <PublishPanel eventId={event.id} />
          </div>
          <div className="mt-6 flex items-center justify-between rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600">
            <span>Archived events leave the Events list and the all-events exports; nothing is deleted.</span>
            <ArchiveButton eventId={event.id} archived={event.archived} />
          </div>
        </section>
      ) : null}
      <RulesCard settings={event.settings} gold={goldRisk} />
    </>
  );
}
