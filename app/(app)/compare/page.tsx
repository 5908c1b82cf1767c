import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { compareEvents } from "@/lib/analysis/compare";
import { formatCoefficient, formatDateTime, formatInt, formatShare } from "@/lib/text/format";
import { CompareLabelsChart, CompareMetricsChart } from "@/components/charts/compare-charts";
import { DataTable, right, Td, Th } from "@/components/tables/data-table";
import { buttonClass } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { ScopeToggle } from "@/components/events/scope-toggle";
import { parseScopeParam } from "@/lib/analysis/table3-scopes";

export const metadata: Metadata = { title: "Compare events" };

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser("view");
  const scope = parseScopeParam((await searchParams).scope);
  const data = await compareEvents(getDb(), { scope });
  const used = data.labels.filter((l) => data.rows.some((r) => (r.labels[l.value] ?? 0) > 0));
  return (
    <>
      <PageHeader
        title="Compare events"
        description="The paper's Table 3 (agreement) and Table 2 (label distribution) for every event, side by side."
        actions={
          <>
            <a href={scope === "all" ? "/api/compare/csv?scope=all" : "/api/compare/csv"} className={buttonClass("secondary")} download>
              Download CSV
            </a>
            <a href="/api/exports/humaid" className={buttonClass("secondary")} download>
              HumAID zip (all events)
            </a>
          </>
        }
      />
      {data.rows.length === 0 ? (
        <EmptyState title="No events yet." />
      ) : (
        <>
          <div className="mb-4">
            <ScopeToggle scope={scope} basePath="/compare" />
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Agreement (Table 3)" description="Fleiss κ and observed agreement on the first three judgments of each tweet; α and majority agreement on all. Error bars: 95% bootstrap intervals over tweets (1,000 seeded resamples, from each event's latest background analysis).">
              <CompareMetricsChart data={data.rows.map((r) => ({ event: r.slug, fleissKappa: r.fleissKappa, krippendorffAlpha: r.krippendorffAlpha, averageObservedAgreement: r.averageObservedAgreement, averageMajorityAgreement: r.averageMajorityAgreement, ci: r.ci }))} />
            </Card>
            <Card title="Label distribution (Table 2)" description="Share of each label among an event's accepted labels (%, each event's bar is 100%); legend in stacking order, bottom first.">
              <CompareLabelsChart data={data.rows.map((r) => ({ event: r.slug, ...Object.fromEntries(used.map((l) => [l.value, r.labels[l.value] ?? 0])) }))} labels={used} />
            </Card>
          </div>
          <Card title="Table 3" description="All events, one row each; coefficients from 0 (chance) to 1 (perfect agreement). Times in UTC." className="mt-6">
            <DataTable
              testId="compare-table3"
              columns={["Event", "Type", right("Tweets"), right("Judgments"), right("Fleiss κ"), right("Krippendorff α"), right("Avg. observed"), right("Avg. majority"), "As of"]}
            >
              {data.rows.map((r) => (
                <tr key={r.id} className="border-t border-slate-100">
                  <Td>
                    <Link className="text-accent-700 hover:underline" href={`/events/${r.slug}/agreement`}>
                      {r.name}
                    </Link>
                  </Td>
                  <Td className="capitalize">{r.type}</Td>
                  <Td align="right">{formatInt(r.items)}</Td>
                  <Td align="right">{formatInt(r.judgments)}</Td>
                  <Td align="right">{formatCoefficient(r.fleissKappa)}</Td>
                  <Td align="right">{formatCoefficient(r.krippendorffAlpha)}</Td>
                  <Td align="right">{formatCoefficient(r.averageObservedAgreement)}</Td>
                  <Td align="right">{formatCoefficient(r.averageMajorityAgreement)}</Td>
                  <Td className="text-xs text-slate-500">{r.snapshotAt ? formatDateTime(r.snapshotAt) : "–"}</Td>
                </tr>
              ))}
            </DataTable>
          </Card>
          <Card title="Table 2" description="Accepted labels per event and label (share of the event's accepted labels in brackets)." className="mt-6">
            <DataTable
              testId="compare-table2"
              head={
                <tr>
                  <Th>Label</Th>
                  {data.rows.map((r) => (
                    <Th key={r.id} align="right" title={r.slug}>
                      <span className="normal-case tracking-normal">{r.name}</span>
                    </Th>
                  ))}
                </tr>
              }
            >
              {data.labels.map((l) => (
                <tr key={l.value} className="border-t border-slate-100">
                  <Td>{l.name}</Td>
                  {data.rows.map((r) => (
                    <Td key={r.id} align="right">
                      {formatInt(r.labels[l.value] ?? 0)} <span className="text-xs text-slate-500">({formatShare(r.labels[l.value] ?? 0, r.accepted, 0)})</span>
                    </Td>
                  ))}
                </tr>
              ))}
              <tr className="border-t border-slate-200 font-semibold">
                <Td>Total</Td>
                {data.rows.map((r) => (
                  <Td key={r.id} align="right">
                    {formatInt(r.accepted)}
                  </Td>
                ))}
              </tr>
            </DataTable>
          </Card>
        </>
      )}
    </>
  );
}
