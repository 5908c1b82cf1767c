import { describeRules } from "@/lib/procedure/describe-rules";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { formatDateTime, formatInt, formatMoney, formatPercent } from "@/lib/text/format";
import { HIT_STATUSES, hitListQuerySchema, HITS_PAGE_SIZE } from "@/lib/events/hits";
import { loadHitsPage } from "@/lib/events/page-data";
import { EventHeader } from "@/components/events/event-header";
import { StatusBadge, StatusLegend } from "@/components/events/status-badge";
import { DataTable, Td, Th } from "@/components/tables/data-table";
import { Pager } from "@/components/tables/pager";
import { firstValues, queryHref } from "@/components/tables/query-links";
import { Card, EmptyState } from "@/components/ui/card";

export const metadata: Metadata = { title: "HITs" };

export default async function EventHitsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser("view");
  const { slug } = await params;
  const raw = firstValues(await searchParams);
  const query = hitListQuerySchema.parse(raw);
  const page = await loadHitsPage(getDb(), slug, query);
  if (!page) notFound();
  const { event, list, counts, currency } = page;
  const path = `/events/${event.slug}/hits`;
  const params0 = { status: query.status, sort: query.sort };
  const sortKey = query.sort.replace(/^-/, "");
  const dir = query.sort.startsWith("-") ? "desc" : "asc";
  const sortHref = (key: string) => queryHref(path, params0, { sort: sortKey === key && dir === "asc" ? `-${key}` : key, page: undefined });
  const rules = describeRules(event.settings);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return (
    <>
      <EventHeader event={event} active="hits" liveKinds={["decision", "hit"]} />
      <nav className="mb-4 flex flex-wrap gap-2 text-sm" aria-label="HIT status">
        <Link href={queryHref(path, params0, { status: undefined, page: undefined })} className={`rounded-full border px-3 py-1 ${!query.status ? "border-accent-500 bg-accent-50 text-accent-700" : "border-slate-300 bg-white text-slate-600"}`}>
          all <span className="tabular">{formatInt(total)}</span>
        </Link>
        {HIT_STATUSES.filter((s) => counts[s]).map((s) => (
          <Link key={s} href={queryHref(path, params0, { status: s, page: undefined })} className={`rounded-full border px-3 py-1 ${query.status === s ? "border-accent-500 bg-accent-50 text-accent-700" : "border-slate-300 bg-white text-slate-600"}`}>
            {s} <span className="tabular">{formatInt(counts[s])}</span>
          </Link>
        ))}
      </nav>
      <Card title="HITs" description={`Each HIT: ${rules.short.hitComposition} tweets. Gold score: share of gold answered correctly over its assignments. Agreement: unknown tweets with an accepted label (approved at ${rules.short.hitApproval}).`}>
        {list.rows.length === 0 ? (
          <EmptyState title="No HITs here yet.">Publish a batch from the Overview&apos;s campaign section.</EmptyState>
        ) : (
          <DataTable
            testId="hits-table"
            head={
              <tr>
                <th className="px-3 py-2 text-left font-medium">
                  <Link href={sortHref("seq")} className="hover:text-slate-800">
                    HIT {sortKey === "seq" ? (dir === "asc" ? "▲" : "▼") : "↕"}
                  </Link>
                </th>
                <Th>Status</Th>
                <Th align="right" title="approved / rejected / held / waiting, of the HIT's maximum">Assignments</Th>
                <Th align="right">Gold score</Th>
                <th className="px-3 py-2 text-right font-medium">
                  <Link href={sortHref("accepted")} className="hover:text-slate-800">
                    Agreement {sortKey === "accepted" ? (dir === "asc" ? "▲" : "▼") : "↕"}
                  </Link>
                </th>
                <Th align="right">Reward</Th>
                <th className="px-3 py-2 text-left font-medium">
                  <Link href={sortHref("published")} className="hover:text-slate-800">
                    Published {sortKey === "published" ? (dir === "asc" ? "▲" : "▼") : "↕"}
                  </Link>
                </th>
                <Th>Decided</Th>
              </tr>
            }
          >
            {list.rows.map((h) => (
              <tr key={h.id} className="border-t border-slate-100" data-testid="hit-row">
                <Td>
                  <Link className="font-medium text-accent-700 hover:underline" href={`${path}/${h.seq}`}>
                    #{h.seq}
                  </Link>
                  {h.syncError ? <span className="ml-1 text-xs text-amber-700" title={h.syncError}>⚠ sync</span> : null}
                </Td>
                <Td>
                  <StatusBadge status={h.status} />
                </Td>
                <Td align="right">
                  <span className="text-emerald-700">{h.assignments.approved}</span>/<span className="text-red-700">{h.assignments.rejected}</span>/<span className="text-amber-700">{h.assignments.held}</span>/<span>{h.assignments.submitted}</span>
                  <span className="text-slate-500"> of {h.maxAssignments}</span>
                </Td>
                <Td align="right">{formatPercent(h.goldScore, 0)}</Td>
                <Td align="right">
                  {h.acceptedTweets}/{h.unknownTweets}
                </Td>
                <Td align="right">{formatMoney(h.rewardCents, h.currency ?? currency)}</Td>
                <Td className="whitespace-nowrap text-xs text-slate-500">{formatDateTime(h.publishedAt)}</Td>
                <Td className="whitespace-nowrap text-xs text-slate-500">{h.decidedAt ? formatDateTime(h.decidedAt) : "–"}</Td>
              </tr>
            ))}
          </DataTable>
        )}
        <p className="mt-3 text-xs text-slate-600" data-testid="hits-legend">
          Assignments: <span className="text-emerald-700">approved</span>/<span className="text-red-700">rejected</span>/<span className="text-amber-700">held</span>/waiting for a decision, of the HIT&apos;s maximum so far (a HIT may get up to {event.settings.maxJudgmentsPerTweet}). Agreement: unknown tweets with an accepted label / unknown tweets in the HIT. Times in UTC.
        </p>
        <StatusLegend statuses={[...HIT_STATUSES]} />
        <Pager
          testId="hits-pager"
          summary={`Page ${list.page} of ${list.pages} · ${formatInt(list.total)} HITs (${HITS_PAGE_SIZE} per page)`}
          prevHref={list.page > 1 ? queryHref(path, params0, { page: String(list.page - 1) }) : null}
          nextHref={list.page < list.pages ? queryHref(path, params0, { page: String(list.page + 1) }) : null}
        />
      </Card>
    </>
  );
}
