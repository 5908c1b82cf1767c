import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/current-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { eventListQuerySchema, listEvents } from "@/lib/events/event-list";
import { formatCoefficient, formatDate, formatInt, formatMoney } from "@/lib/text/format";
import { formatMoneyTotals, sumByCurrency } from "@/lib/events/money-totals";
import { hitBreakdown } from "@/lib/events/breakdowns";
import { DataTable, Td } from "@/components/tables/data-table";
import { firstValues } from "@/components/tables/query-links";
import { SortableTh } from "@/components/tables/sortable-th";
import { buttonClass } from "@/components/ui/button";
import { Badge, EmptyState, PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("view");
  const query = eventListQuerySchema.parse(firstValues(await searchParams));
  const { rows, types } = await listEvents(getDb(), query);
  const canEdit = roleAllows(user.role, "edit");
  const params = { q: query.q, type: query.type, archived: query.archived === "1" ? "1" : undefined, sort: query.sort, dir: query.dir };
  const th = (label: string, column: string, title?: string, align: "left" | "right" = "right") => (
    <SortableTh label={label} column={column} sort={query.sort} dir={query.dir} path="/events" params={params} align={align} title={title} defaultDir={align === "left" ? "asc" : "desc"} />
  );
  const filtered = Boolean(query.q || query.type);
  // Summed per currency: MTurk's dollars and a Prolific workspace's pounds are never added together.
  const spentInAll = sumByCurrency(rows.flatMap((e) => e.cost)).filter((m) => m.minor !== 0);

  return (
    <>
      <PageHeader
        title="Events"
        description="Each event is one disaster: its sampled tweets, gold tweets, HITs and agreed labels."
        actions={
          <>
            <Link href="/compare" className={buttonClass("secondary")}>
              Compare events
            </Link>
            <a href="/api/exports/humaid" className={buttonClass("secondary")} download>
              HumAID zip (all events)
            </a>
            {canEdit ? (
              <Link href="/events/new" className={buttonClass("primary")}>
                New event
              </Link>
            ) : null}
          </>
        }
      />
      <form method="get" action="/events" className="mb-4 flex flex-wrap items-end gap-2 text-sm" role="search">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">Name</span>
          <input name="q" defaultValue={query.q ?? ""} placeholder="e.g. hurricane" className="w-56 rounded-md border border-slate-300 px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">Type</span>
          <select name="type" defaultValue={query.type ?? ""} className="rounded-md border border-slate-300 px-2 py-1">
            <option value="">all types</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5 pb-1.5 text-xs text-slate-600">
          <input type="checkbox" name="archived" value="1" defaultChecked={query.archived === "1"} /> show archived
        </label>
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <button type="submit" className={buttonClass("secondary")}>
          Filter
        </button>
        {filtered ? (
          <Link href="/events" className="pb-1.5 text-xs text-accent-700 hover:underline">
            clear
          </Link>
        ) : null}
      </form>
      {rows.length === 0 ? (
        <EmptyState title={filtered ? "No event matches." : "No events yet."}>
          {canEdit && !filtered ? (
            <Link className="text-accent-700 underline" href="/events/new">
              Create the first event
            </Link>
          ) : null}
        </EmptyState>
      ) : (
        <DataTable
          testId="events-table"
          head={
            <tr>
              {th("Event", "name", undefined, "left")}
              {th("Type", "type", undefined, "left")}
              {th("Dates", "start", "Event date range", "left")}
              {th("Tweets", "tweets", "Unknown tweets to label (gold in the next column)")}
              {th("Gold", "gold")}
              {th("HITs", "hits", "Published HITs: approved, still open, and any unresolved, expired or deleted")}
              {th("Accepted", "accepted", "Tweets with an agreed label under the event's rule")}
              {th("Cost", "cost", "Rewards, fees and bonuses so far, in each batch's currency; sorted by currency (USD first), then amount")}
              {th("Fleiss κ (agreed)", "kappa", "Latest snapshot, over the agreed tweets (those with an accepted label), first three judgments each: the figure on the event's Overview and the Agreement tab's default scope")}
            </tr>
          }
        >
          {rows.map((e) => (
            <tr key={e.id} className="border-t border-slate-100" data-testid="event-row">
              <Td>
                <Link className="font-medium text-accent-700 hover:underline" href={`/events/${e.slug}`}>
                  {e.name}
                </Link>
                <span className="block font-mono text-[11px] text-slate-500">{e.slug}</span>
                {e.archived ? <Badge tone="amber">archived</Badge> : null}
              </Td>
              <Td className="capitalize">{e.type}</Td>
              <Td className="whitespace-nowrap text-xs text-slate-600">
                {formatDate(e.startDate)} – {formatDate(e.endDate)}
              </Td>
              <Td align="right">{formatInt(e.tweets)}</Td>
              <Td align="right">{formatInt(e.gold)}</Td>
              <Td align="right">
                {formatInt(e.hits.published)}
                <span className="block text-[11px] text-slate-500">{hitBreakdown(e.hits.byStatus, { includeDraft: false })}</span>
              </Td>
              <Td align="right">{formatInt(e.accepted)}</Td>
              <Td align="right">
                {formatMoneyTotals(e.cost)}
                {e.budgetCapCents !== null ? <span className="block text-[11px] text-slate-500">of {formatMoney(e.budgetCapCents, e.currency)}</span> : null}
              </Td>
              <Td align="right">
                {formatCoefficient(e.fleissKappa)}
                {e.kappaScope === "all" ? <span className="block text-[11px] text-slate-500">all judged tweets (older snapshot)</span> : null}
              </Td>
            </tr>
          ))}
        </DataTable>
      )}
      {rows.length > 0 ? (
        <p className="mt-2 text-right text-xs text-slate-600" data-testid="events-spent-total">
          Spent on the {rows.length === 1 ? "event" : `${rows.length} events`} listed: {formatMoneyTotals(spentInAll)} (each currency summed on its own)
        </p>
      ) : null}
    </>
  );
}
