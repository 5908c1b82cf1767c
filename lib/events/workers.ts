import "server-only";
import { z } from "zod";
import { type Db, flavorOf, type Prisma } from "@/lib/db/client";
import { escapeLike, hasLikeWildcards, LITERAL_SEARCH_CAP } from "@/lib/db/literal-like";
import { COST_KIND } from "@/lib/db/enums";
import { findCrowd, listCrowds } from "@/lib/crowd/registry";
import { ledgerByCurrency } from "@/lib/campaign/ledger-currency";
import { crowdCurrencies } from "./event-currency";
import { compareMoneyTotals, type Money, orZero, sumByCurrency } from "./money-totals";
import { loadWorkerGoldOdds, type WorkerGoldOdds } from "@/lib/gold/worker-gold-odds";

/**
 * The Workers page: per worker HITs, gold accuracy, agreement with accepted labels, approval rate, median
 * time per HIT, effective hourly wage and earnings; sortable and filterable, paged.
 */
export const WORKER_SORT_KEYS = ["lastSeen", "hits", "gold", "agreement", "approval", "wage", "earnings"] as const;
export const WORKERS_PAGE_SIZE = 50;
/** The Workers page's crowd filter: every registered crowd by its short name. */
export function crowdFilterOptions(): Array<{ value: string; name: string }> {
  return listCrowds().map((c) => ({ value: c.kind, name: c.shortName }));
}

/** How the Workers page names a worker's crowd. */
export function workerCrowdName(kind: string): string {
  return findCrowd(kind)?.shortName ?? kind;
}

export const workerQuerySchema = z.object({
  q: z.string().trim().max(60).optional().catch(undefined),
  provider: z
    .string()
    .refine((kind) => findCrowd(kind) !== undefined)
    .optional()
    .catch(undefined),
  blocked: z.enum(["yes", "no"]).optional().catch(undefined),
  sort: z.enum(WORKER_SORT_KEYS).catch("lastSeen").default("lastSeen"),
  dir: z.enum(["asc", "desc"]).catch("desc").default("desc"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type WorkerQuery = z.infer<typeof workerQuerySchema>;

export type WorkerRow = {
  id: string;
  provider: string;
  externalId: string;
  /** The annotator's name for an in-house worker (never shown: a database id). */
  name: string | null;
  blocked: boolean;
  blockedReason: string | null;
  qualified: boolean;
  hits: number;
  approved: number;
  rejected: number;
  /** Approved (paid) but excluded by the crowd's policy: below the gold rule on Prolific or in-house (this page's workers only). */
  excluded: number;
  goldAccuracy: number | null;
  agreement: number | null;
  approvalRate: number | null;
  /** Median seconds between accepting and submitting an assignment (this page's workers only). */
  medianSeconds: number | null;
  /** Earnings per hour of submitted work per currency (rejected work counts as unpaid time). */
  hourlyWage: Money[] | null;
  /** Rewards and bonuses per currency, each in its batch's currency (never empty: zero in the crowd's currency). */
  earnings: Money[];
  /** The currency of the worker's crowd now (ISO 4217): what a bonus is paid in. */
  currency: string;
  lastSeenAt: Date;
  /** What the gold rule risks for this worker (this page's workers only). */
  goldOdds: WorkerGoldOdds | null;
};

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function sortValue(r: WorkerRow, key: WorkerQuery["sort"]): number {
  switch (key) {
    case "hits":
      return r.hits;
    case "gold":
      return r.goldAccuracy ?? -1;
    case "agreement":
      return r.agreement ?? -1;
    case "approval":
      return r.approvalRate ?? -1;
    case "wage": // money: sorted by compareMoneyTotals (currency, then amount)
    case "earnings":
      return 0;
    case "lastSeen":
      return r.lastSeenAt.getTime();
  }
}

/** The Workers page's order; money columns group by currency first, so dollars and pounds are never compared as numbers. */
export function workerOrder(key: WorkerQuery["sort"], dir: WorkerQuery["dir"]): (a: WorkerRow, b: WorkerRow) => number {
  const sign = dir === "asc" ? 1 : -1;
  const money = (r: WorkerRow) => (key === "wage" ? (r.hourlyWage ?? []) : r.earnings);
  const byValue = key === "wage" || key === "earnings" ? (a: WorkerRow, b: WorkerRow) => compareMoneyTotals(money(a), money(b), dir) : (a: WorkerRow, b: WorkerRow) => sign * (sortValue(a, key) - sortValue(b, key));
  return (a, b) => byValue(a, b) || (a.externalId < b.externalId ? -1 : 1);
}

async function workerIdMatches(db: Db, q: string): Promise<Prisma.WorkerWhereInput> {
  if (flavorOf(db) === "postgres") return { externalId: { contains: escapeLike(q) } };
  if (!hasLikeWildcards(q)) return { externalId: { contains: q } };
  const rows = await db.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "Worker" WHERE instr(lower("externalId"), lower(${q})) > 0 LIMIT ${LITERAL_SEARCH_CAP}`;
  return { id: { in: rows.map((r) => r.id) } };
}

export async function listWorkers(db: Db, query: WorkerQuery): Promise<{ rows: WorkerRow[]; total: number; page: number; pages: number }> {
  const where: Prisma.WorkerWhereInput = {
    ...(query.provider ? { provider: query.provider } : {}),
    ...(query.blocked ? { blocked: query.blocked === "yes" } : {}),
    ...(query.q ? await workerIdMatches(db, query.q) : {}),
  };
  const [currencyOf, ledger] = await Promise.all([crowdCurrencies(db), ledgerByCurrency(db, { kinds: [COST_KIND.reward, COST_KIND.bonus] }, "workerId")]);
  const earned = new Map<string | null, Money[]>();
  for (const e of ledger) earned.set(e.key, [...(earned.get(e.key) ?? []), e]);
  const workers = await db.worker.findMany({
    where,
    select: {
      id: true,
      provider: true,
      externalId: true,
      blocked: true,
      blockedReason: true,
      qualified: true,
      assignmentsSubmitted: true,
      assignmentsApproved: true,
      assignmentsRejected: true,
      goldCorrect: true,
      goldTotal: true,
      agreeCount: true,
      agreeTotal: true,
      workSeconds: true,
      lastSeenAt: true,
      user: { select: { name: true } },
    },
  });
  const all: WorkerRow[] = workers.map((w) => {
    const earnings = orZero(sumByCurrency(earned.get(w.id) ?? []), currencyOf(w.provider));
    return {
      id: w.id,
      provider: w.provider,
      externalId: w.externalId,
      name: w.user?.name ?? null,
      blocked: w.blocked,
      blockedReason: w.blockedReason,
      qualified: w.qualified,
      hits: w.assignmentsSubmitted,
      approved: w.assignmentsApproved,
      rejected: w.assignmentsRejected,
      excluded: 0,
      goldAccuracy: ratio(w.goldCorrect, w.goldTotal),
      agreement: ratio(w.agreeCount, w.agreeTotal),
      approvalRate: ratio(w.assignmentsApproved, w.assignmentsApproved + w.assignmentsRejected),
      medianSeconds: null,
      hourlyWage: w.workSeconds > 0 ? earnings.map((m) => ({ currency: m.currency, minor: (m.minor * 3600) / w.workSeconds })) : null,
      earnings,
      currency: currencyOf(w.provider),
      lastSeenAt: w.lastSeenAt,
      goldOdds: null,
    };
  });
  all.sort(workerOrder(query.sort, query.dir));
  const total = all.length;
  const pages = Math.max(1, Math.ceil(total / WORKERS_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const rows = all.slice((page - 1) * WORKERS_PAGE_SIZE, page * WORKERS_PAGE_SIZE);
  if (rows.length) {
    const times = await db.assignment.findMany({
      where: { workerId: { in: rows.map((r) => r.id) }, acceptTime: { not: null }, submitTime: { not: null } },
      select: { workerId: true, acceptTime: true, submitTime: true },
    });
    const byWorker = new Map<string, number[]>();
    for (const t of times) {
      if (!t.acceptTime || !t.submitTime) continue;
      const list = byWorker.get(t.workerId) ?? [];
      list.push((t.submitTime.getTime() - t.acceptTime.getTime()) / 1000);
      byWorker.set(t.workerId, list);
    }
    const odds = await loadWorkerGoldOdds(db, rows.map((r) => r.id));
    const excluded = await db.assignment.groupBy({ by: ["workerId"], where: { workerId: { in: rows.map((r) => r.id) }, excludedReason: { not: null } }, _count: { _all: true } });
    const rowById = new Map(rows.map((r) => [r.id, r]));
    for (const e of excluded) {
      const r = rowById.get(e.workerId);
      if (r) r.excluded = e._count._all;
    }
    for (const r of rows) {
      r.medianSeconds = median(byWorker.get(r.id) ?? []);
      r.goldOdds = odds.get(r.id) ?? null;
    }
  }
  return { rows, total, page, pages };
}
