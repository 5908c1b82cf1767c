import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { HIT_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { ledgerByCurrency } from "@/lib/campaign/ledger-currency";
import { crowdCurrencies } from "./event-currency";
import type { EventBasics } from "./event-lookup";
import type { Table3Scope } from "@/lib/metrics/table3";
import { headlineKappa } from "./table3-scopes";
import { compareMoneyTotals, type Money, orZero, sumByCurrency } from "./money-totals";

/** The Events page: one row per event with its figures, sortable and filterable. */
export const EVENT_SORT_KEYS = ["name", "type", "start", "tweets", "gold", "hits", "approved", "accepted", "cost", "kappa", "created"] as const;
export type EventSortKey = (typeof EVENT_SORT_KEYS)[number];

export const eventListQuerySchema = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  type: z.string().trim().max(40).optional().catch(undefined),
  sort: z.enum(EVENT_SORT_KEYS).catch("created").default("created"),
  dir: z.enum(["asc", "desc"]).catch("desc").default("desc"),
  archived: z.enum(["0", "1"]).catch("0").default("0"),
});
export type EventListQuery = z.infer<typeof eventListQuerySchema>;

export type EventListRow = EventBasics & {
  archived: boolean;
  createdAt: Date;
  tweets: number;
  gold: number;
  hits: { total: number; published: number; approved: number; pending: number; byStatus: Record<string, number> };
  accepted: number;
  /** Rewards, fees and bonuses per currency (each batch's own: a workspace's change of currency splits them); never empty. */
  cost: Money[];
  /** The currency of its crowd (ISO 4217): budgetCapCents is in minor units of it. */
  currency: string;
  budgetCapCents: number | null;
  /** Fleiss κ of the latest snapshot in the Overview's scope (lib/events/table3-scopes.ts headlineKappa). */
  fleissKappa: number | null;
  kappaScope: Table3Scope | null;
};

const OPEN_HIT_STATUSES = new Set(["published", "reviewing", "extended"]);

export async function listEvents(db: Db, query: EventListQuery): Promise<{ rows: EventListRow[]; types: string[] }> {
  const events = await db.event.findMany({
    where: {
      archived: query.archived === "1" ? undefined : false,
      ...(query.type ? { type: query.type } : {}),
    },
    select: { id: true, slug: true, name: true, type: true, startDate: true, endDate: true, archived: true, createdAt: true, budgetCapCents: true, provider: true },
  });
  const q = query.q?.toLowerCase();
  const shown = q ? events.filter((e) => e.name.toLowerCase().includes(q) || e.slug.includes(q)) : events;
  const ids = shown.map((e) => e.id);
  const [tweetGroups, hitGroups, acceptedGroups, costGroups, kappas, allTypes, currencyOf] = await Promise.all([
    db.tweet.groupBy({ by: ["eventId", "role"], where: { eventId: { in: ids }, status: { not: TWEET_STATUS.retired } }, _count: { _all: true } }),
    db.hit.groupBy({ by: ["eventId", "status"], where: { eventId: { in: ids } }, _count: { _all: true } }),
    db.acceptedLabel.groupBy({ by: ["eventId"], where: { eventId: { in: ids } }, _count: { _all: true } }),
    ledgerByCurrency(db, { eventIds: ids }, "eventId"),
    Promise.all(
      ids.map((id) =>
        db.metricSnapshot.findFirst({ where: { eventId: id }, orderBy: [{ at: "desc" }, { id: "desc" }], select: { eventId: true, judgments: true, fleissKappa: true, krippendorffAlpha: true, averageObservedAgreement: true, averageMajorityAgreement: true, scopes: true } }),
      ),
    ),
    db.event.findMany({ distinct: ["type"], select: { type: true }, orderBy: { type: "asc" } }),
    crowdCurrencies(db),
  ]);
  const rows = new Map<string, EventListRow>(
    shown.map(({ provider, ...e }) => [
      e.id,
      { ...e, currency: currencyOf(provider), tweets: 0, gold: 0, hits: { total: 0, published: 0, approved: 0, pending: 0, byStatus: {} }, accepted: 0, cost: [], fleissKappa: null, kappaScope: null },
    ]),
  );
  for (const g of tweetGroups) {
    const r = rows.get(g.eventId);
    if (!r) continue;
    if (g.role === TWEET_ROLE.gold) r.gold += g._count._all;
    else r.tweets += g._count._all;
  }
  for (const g of hitGroups) {
    const r = rows.get(g.eventId);
    if (!r) continue;
    const n = g._count._all;
    r.hits.total += n;
    r.hits.byStatus[g.status] = (r.hits.byStatus[g.status] ?? 0) + n;
    if (g.status !== HIT_STATUS.draft) r.hits.published += n;
    if (g.status === HIT_STATUS.approved) r.hits.approved += n;
    if (OPEN_HIT_STATUSES.has(g.status)) r.hits.pending += n;
  }
  for (const g of acceptedGroups) {
    const r = rows.get(g.eventId);
    if (r) r.accepted = g._count._all;
  }
  for (const r of rows.values()) r.cost = orZero(sumByCurrency(costGroups.filter((g) => g.key === r.id)), r.currency);
  for (const k of kappas) {
    const r = k ? rows.get(k.eventId) : undefined;
    const headline = headlineKappa(k);
    if (r && k && headline) {
      r.fleissKappa = headline.fleissKappa;
      r.kappaScope = headline.scope;
    }
  }
  return { rows: sortEvents([...rows.values()], query.sort, query.dir), types: allTypes.map((t) => t.type) };
}

function sortValue(r: EventListRow, key: EventSortKey): number | string {
  switch (key) {
    case "name":
      return r.name.toLowerCase();
    case "type":
      return r.type;
    case "start":
      return r.startDate?.getTime() ?? -Infinity;
    case "tweets":
      return r.tweets;
    case "gold":
      return r.gold;
    case "hits":
      return r.hits.published;
    case "approved":
      return r.hits.approved;
    case "accepted":
      return r.accepted;
    case "cost": // sorted by compareMoneyTotals (currency, then amount)
      return 0;
    case "kappa":
      return r.fleissKappa ?? -Infinity;
    case "created":
      return r.createdAt.getTime();
  }
}

export function sortEvents(rows: EventListRow[], key: EventSortKey, dir: "asc" | "desc"): EventListRow[] {
  const sign = dir === "asc" ? 1 : -1;
  return rows.sort((a, b) => {
    if (key === "cost") return compareMoneyTotals(a.cost, b.cost, dir) || (a.slug < b.slug ? -1 : 1);
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.slug < b.slug ? -1 : 1;
  });
}
