import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { formatDateTime, formatDuration, formatInt, formatMoney, formatPercent } from "@/lib/text/format";
import { formatMoneyTotals } from "@/lib/events/money-totals";
import { crowdFilterOptions, listWorkers, workerCrowdName, workerQuerySchema, WORKERS_PAGE_SIZE } from "@/lib/events/workers";
import { WorkerActions } from "@/components/campaign/worker-actions";
import { DataTable, Td, Th } from "@/components/tables/data-table";
import { Pager } from "@/components/tables/pager";
import { firstValues, queryHref } from "@/components/tables/query-links";
import { SortableTh } from "@/components/tables/sortable-th";
import { Badge, EmptyState, PageHeader } from "@/components/ui/card";
import { FilterForm, FilterSelect, FilterText } from "@/components/ui/filter-form";
import { echoFlagsByWorker } from "@/lib/llm-compare/worker-flags";
import Link from "next/link";

export const metadata: Metadata = { title: "Workers" };

const BLOCKED_OPTIONS = [
  { value: "yes", name: "blocked" },
  { value: "no", name: "not blocked" },
];

export default async function WorkersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("view");
  const query = workerQuerySchema.parse(firstValues(await searchParams));
  const [list, echoFlags] = await Promise.all([listWorkers(getDb(), query), echoFlagsByWorker(getDb())]);
  const canEdit = roleAllows(user.role, "edit");
  const params = { q: query.q, provider: query.provider, blocked: query.blocked, sort: query.sort, dir: query.dir };
  const th = (label: string, column: string, title: string) => <SortableTh label={label} column={column} sort={query.sort} dir={query.dir} path="/workers" params={params} align="right" title={title} />;
  return (
    <>
      <PageHeader title="Workers" description="Everyone who has worked on your HITs, on MTurk, Prolific or in-house: how well, how fast, and what they earned." />
      <FilterForm action="/workers" className="mb-4" hidden={{ sort: query.sort, dir: query.dir }}>
        <FilterText label="Worker id" name="q" value={query.q} className="w-56 font-mono" />
        <FilterSelect label="Crowd" name="provider" value={query.provider} any="all" options={crowdFilterOptions()} />
        <FilterSelect label="Blocked" name="blocked" value={query.blocked} any="either" options={BLOCKED_OPTIONS} />
      </FilterForm>
      {list.rows.length === 0 ? (
        <EmptyState title={query.q || query.provider || query.blocked ? "No worker matches." : "No worker has submitted an assignment yet."} />
      ) : (
        <DataTable
          testId="workers-table"
          head={
            <tr>
              <Th>Worker</Th>
              {th("HITs", "hits", "Assignments submitted (one per HIT)")}
              {th("Gold accuracy", "gold", "Gold tweets answered correctly, over all their assignments")}
              {th("Agreement", "agreement", "Their answers equal to the accepted label, on tweets that got one")}
              {th("Approval rate", "approval", "Approved / (approved + rejected)")}
              <Th align="right" title="Under the gold rule of the event they worked most in: the chance their next HIT is rejected given their gold record there (Beta-binomial), and the posterior probability that their accuracy is below the rule (the whole-record rule rejects above its level)">
                Rejection odds
              </Th>
              <Th title="Flagged by the LLM-echo test in an event with LLM labels: their labels follow the LLM's where it differs from the accepted label more often than an independent worker of their gold accuracy would (Benjamini–Hochberg adjusted p). A flag asks for a review, never rejects by itself.">Echoes the LLM</Th>
              <Th align="right" title="Median time between accepting and submitting an assignment">Median time</Th>
              {th("Hourly wage", "wage", "Earnings per hour of submitted work (rejected work counts as unpaid time); sorted within each currency")}
              {th("Earnings", "earnings", "Rewards and bonuses paid, in each batch's currency; sorted by currency (USD first), then amount")}
              <SortableTh label="Last seen" column="lastSeen" sort={query.sort} dir={query.dir} path="/workers" params={params} />
              {canEdit ? <Th>Actions</Th> : null}
            </tr>
          }
        >
          {list.rows.map((w) => (
            <tr key={w.id} className="border-t border-slate-100" data-testid="worker-row">
              <Td>
                {w.name ? <span className="text-sm">{w.name}</span> : <span className="font-mono text-xs">{w.externalId}</span>}
                <span className="block text-[11px] text-slate-500">
                  {workerCrowdName(w.provider)}
                  {w.qualified ? " · qualified" : ""}
                </span>
                {w.blocked ? (
                  <span title={w.blockedReason ?? undefined}>
                    <Badge tone="red">blocked</Badge>
                  </span>
                ) : null}
              </Td>
              <Td align="right">{formatInt(w.hits)}</Td>
              <Td align="right" className={w.goldAccuracy !== null && w.goldOdds && w.goldAccuracy < w.goldOdds.threshold ? "text-red-700" : ""}>
                {formatPercent(w.goldAccuracy)}
              </Td>
              <Td align="right">{formatPercent(w.agreement)}</Td>
              <Td align="right">
                {formatPercent(w.approvalRate)}
                <span className="block text-[11px] text-slate-500">
                  {w.approved}/{w.approved + w.rejected}
                  {w.excluded ? <span data-testid="worker-excluded"> · {w.excluded} excluded (paid, work left out)</span> : null}
                </span>
              </Td>
              <Td align="right" className="text-xs">
                {w.goldOdds ? (
                  <span data-testid="worker-odds">
                    {formatPercent(w.goldOdds.rejectNext)} next HIT
                    <span className="block text-[11px] text-slate-500">
                      {w.goldOdds.rule} ({w.goldOdds.event}) · P(below) {formatPercent(w.goldOdds.posteriorBelow)}
                      {w.goldOdds.wholeRecordRejects ? ` > ${formatPercent(w.goldOdds.level)}: whole-record rule rejects` : ""}
                    </span>
                  </span>
                ) : (
                  "–"
                )}
              </Td>
              <Td className="text-xs">
                {echoFlags.get(w.id)?.length ? (
                  <Link href={`/workers/${w.id}`} data-testid="worker-echo-flag" className="text-red-700 underline">
                    {echoFlags
                      .get(w.id)!
                      .map((f) => `${f.slug}: ${f.echoes}/${f.tweets}, p adj. ${f.pAdjusted !== null ? f.pAdjusted.toExponential(1) : "–"}`)
                      .join("; ")}
                  </Link>
                ) : (
                  <Link href={`/workers/${w.id}`} className="text-slate-500 hover:underline">
                    no
                  </Link>
                )}
              </Td>
              <Td align="right">{formatDuration(w.medianSeconds)}</Td>
              <Td align="right">{w.hourlyWage ? w.hourlyWage.map((m) => `${formatMoney(m.minor, m.currency)}/h`).join(" + ") : "–"}</Td>
              <Td align="right">{formatMoneyTotals(w.earnings)}</Td>
              <Td className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(w.lastSeenAt)}</Td>
              {canEdit ? (
                <Td>
                  <WorkerActions workerId={w.id} blocked={w.blocked} currency={w.currency} />
                </Td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      )}
      <Pager
        testId="workers-pager"
        summary={`Page ${list.page} of ${list.pages} · ${formatInt(list.total)} workers (${WORKERS_PAGE_SIZE} per page)`}
        prevHref={list.page > 1 ? queryHref("/workers", params, { page: String(list.page - 1) }) : null}
        nextHref={list.page < list.pages ? queryHref("/workers", params, { page: String(list.page + 1) }) : null}
      />
    </>
  );
}
