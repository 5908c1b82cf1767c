import "server-only";
import type { Db } from "@/lib/db/client";
import { entryCurrency, LEDGER_FROM } from "@/lib/campaign/ledger-currency";
import { crowdCurrencyTable } from "@/lib/crowd/registry";
import { DEFAULT_CURRENCY } from "@/lib/text/format";
import { type Money, sumByCurrency } from "./money-totals";
import { chooseBucketSeconds, num, timeBucket } from "@/lib/db/sql";
import { Prisma } from "@/generated/sqlite/client";
import { DECISION, JOB_STATE, TWEET_ROLE, TWEET_STATUS, isOneOf } from "@/lib/db/enums";

/**
 * The event Overview's figures: the tweet funnel, HIT and assignment status counts, decisions over time,
 * spend against the budget, and the latest decisions with their reasons. Everything is an aggregate
 * computed in the database (indexed by event), so the page stays fast at HumAID scale.
 */
export type TweetFunnel = {
  /** Unknown tweets (the pool to label), retired ones excluded. */
  tweets: number;
  pending: number;
  inHits: number;
  judged: number;
  accepted: number;
  unresolved: number;
  gold: number;
  goldRetired: number;
  retired: number;
};

export type DecisionBucket = { t: number; approve: number; reject: number; hold: number };
export type SpendPoint = { t: number; cents: number; cumulativeCents: number };

export type DecisionFeedItem = {
  id: string;
  at: Date;
  action: string;
  reason: string | null;
  actorType: string;
  assignmentId: string | null;
  correct: number | null;
  total: number | null;
  threshold: string | null;
  workerExternalId: string | null;
  /** An in-house annotator's name (shown instead of the id). */
  workerName: string | null;
  workerId: string | null;
  hitSeq: number | null;
};

export type EventOverview = {
  funnel: TweetFunnel;
  hitStatus: Record<string, number>;
  hitsTotal: number;
  assignmentStatus: Record<string, number>;
  assignmentsTotal: number;
  decisions: { bucketSeconds: number; buckets: DecisionBucket[] };
  spend: {
    /** Everything spent, per currency (each batch's own). */
    totals: Money[];
    /** The crowd's currency: totalCents, byKind, overTime and the cost per label count only spend in it. */
    currency: string;
    totalCents: number;
    byKind: Record<string, number>;
    budgetCapCents: number | null;
    costPerAcceptedLabelCents: number | null;
    bucketSeconds: number;
    overTime: SpendPoint[];
  };
  latestDecisions: DecisionFeedItem[];
  syncProblems: { hits: number; latest: string | null };
  activeJobs: Array<{ id: string; type: string; state: string; progressDone: number; progressTotal: number | null; message: string | null }>;
};

export const DECISION_ACTIONS = [DECISION.approve, DECISION.reject, DECISION.hold];

export async function tweetFunnel(db: Db, eventId: string): Promise<TweetFunnel> {
  // One scan of the (eventId, role, status) index.
  const rows = await db.$queryRaw<Array<{ role: string; status: string; n: unknown }>>`
    SELECT "role" AS role, "status" AS status, COUNT(*) AS n FROM "Tweet" WHERE "eventId" = ${eventId} GROUP BY "role", "status"`;
  const f: TweetFunnel = { tweets: 0, pending: 0, inHits: 0, judged: 0, accepted: 0, unresolved: 0, gold: 0, goldRetired: 0, retired: 0 };
  for (const r of rows) {
    const n = num(r.n);
    if (r.role === TWEET_ROLE.gold) {
      if (r.status === TWEET_STATUS.retired) f.goldRetired += n;
      else f.gold += n;
      continue;
    }
    if (r.status === TWEET_STATUS.retired) {
      f.retired += n;
      continue;
    }
    f.tweets += n;
    // The funnel is cumulative: a judged tweet was in a HIT; an accepted one was judged.
    if (r.status === TWEET_STATUS.pending) f.pending += n;
    if (isOneOf(r.status, [TWEET_STATUS.in_hit, TWEET_STATUS.judged, TWEET_STATUS.accepted, TWEET_STATUS.unresolved])) f.inHits += n;
    if (r.status === TWEET_STATUS.accepted) f.accepted += n;
    if (r.status === TWEET_STATUS.unresolved) f.unresolved += n;
  }
  f.judged = await judgedTweets(db, eventId);
  return f;
}

/**
 * Unknown tweets (not retired) with at least one stored judgment: a tweet whose HIT ended without any work is in
 * a HIT and unresolved, but not judged.
 */
async function judgedTweets(db: Db, eventId: string): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ n: unknown }>>`
    SELECT COUNT(*) AS n FROM "Tweet" t
     WHERE t."eventId" = ${eventId} AND t."role" = ${TWEET_ROLE.unknown} AND t."status" <> ${TWEET_STATUS.retired}
       AND EXISTS (SELECT 1 FROM "Judgment" j WHERE j."tweetId" = t."id")`;
  return num(row?.n ?? 0);
}

export async function hitStatusCounts(db: Db, eventId: string): Promise<Record<string, number>> {
  const rows = await db.hit.groupBy({ by: ["status"], where: { eventId }, _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
}

export async function assignmentStatusCounts(db: Db, eventId: string): Promise<Record<string, number>> {
  const rows = await db.$queryRaw<Array<{ status: string; n: unknown }>>`
    SELECT a."status" AS status, COUNT(*) AS n
      FROM "Assignment" a JOIN "Hit" h ON h."id" = a."hitId"
     WHERE h."eventId" = ${eventId}
     GROUP BY a."status"`;
  return Object.fromEntries(rows.map((r) => [r.status, num(r.n)]));
}

const DECISION_WHERE = (eventId: string) => ({ eventId, entityType: "assignment", action: { in: DECISION_ACTIONS } });

/** First and last time of an event's rows, each found by walking the (eventId, at) index from one end. */
export async function auditRange(db: Db, eventId: string) {
  const [first, last] = await Promise.all([
    db.auditLog.findFirst({ where: DECISION_WHERE(eventId), orderBy: { at: "asc" }, select: { at: true } }),
    db.auditLog.findFirst({ where: DECISION_WHERE(eventId), orderBy: { at: "desc" }, select: { at: true } }),
  ]);
  return first && last ? { from: first.at.getTime(), to: last.at.getTime() } : null;
}

async function costRange(db: Db, eventId: string) {
  const [first, last] = await Promise.all([
    db.costEntry.findFirst({ where: { eventId }, orderBy: { at: "asc" }, select: { at: true } }),
    db.costEntry.findFirst({ where: { eventId }, orderBy: { at: "desc" }, select: { at: true } }),
  ]);
  return first && last ? { from: first.at.getTime(), to: last.at.getTime() } : null;
}

export async function decisionsOverTime(db: Db, eventId: string, maxBuckets = 120, knownRange?: { from: number; to: number } | null): Promise<{ bucketSeconds: number; buckets: DecisionBucket[] }> {
  // The decisions are written into the SQL text (trusted constants) so that the query stays the one it was.
  const filter = Prisma.sql`AND "entityType" = 'assignment' AND "action" IN (${Prisma.raw(DECISION_ACTIONS.map((a) => `'${a}'`).join(", "))})`;
  const range = knownRange === undefined ? await auditRange(db, eventId) : knownRange;
  if (!range) return { bucketSeconds: 60, buckets: [] };
  const size = chooseBucketSeconds(range.from, range.to, maxBuckets);
  const bucket = timeBucket(db, Prisma.sql`"at"`, size);
  const rows = await db.$queryRaw<Array<{ b: unknown; action: string; n: unknown }>>`
    SELECT ${bucket} AS b, "action" AS action, COUNT(*) AS n
      FROM "AuditLog"
     WHERE "eventId" = ${eventId} ${filter}
     GROUP BY 1, 2
     ORDER BY 1`;
  const byBucket = new Map<number, DecisionBucket>();
  for (const r of rows) {
    const t = num(r.b) * size * 1000;
    const entry = byBucket.get(t) ?? { t, approve: 0, reject: 0, hold: 0 };
    if (isOneOf(r.action, DECISION_ACTIONS)) entry[r.action] += num(r.n);
    byBucket.set(t, entry);
  }
  return { bucketSeconds: size, buckets: fillBuckets([...byBucket.values()], size, (t) => ({ t, approve: 0, reject: 0, hold: 0 })) };
}

/** Adds empty buckets between the first and last so that charts show gaps as zero. */
export function fillBuckets<T extends { t: number }>(items: T[], sizeSeconds: number, empty: (t: number) => T): T[] {
  if (items.length === 0) return items;
  items.sort((a, b) => a.t - b.t);
  const step = sizeSeconds * 1000;
  const out: T[] = [];
  const byT = new Map(items.map((i) => [i.t, i]));
  const first = items[0].t;
  const last = items[items.length - 1].t;
  if ((last - first) / step > 2000) return items;
  for (let t = first; t <= last; t += step) out.push(byT.get(t) ?? empty(t));
  return out;
}

/**
 * Spend per kind and over time in `currency` (the event crowd's), and the totals in every currency its batches used.
 * The time axis is the decisions' (costs are incurred when assignments are
 * approved): its ends are found through the AuditLog (eventId, at) index, whereas the ledger has no index
 * on time; a cost outside that range (a bonus paid later) lands in the last bucket.
 */
export async function spendSummary(db: Db, eventId: string, maxBuckets = 120, decisionRange?: { from: number; to: number } | null, currency: string = DEFAULT_CURRENCY) {
  const byKind: Record<string, number> = {};
  let totalCents = 0;
  const range = (decisionRange === undefined ? await auditRange(db, eventId) : decisionRange) ?? (await costRange(db, eventId));
  if (!range) return { totals: [] as Money[], currency, totalCents, byKind, bucketSeconds: 60, overTime: [] as SpendPoint[] };
  // One scan of the ledger: per time bucket, kind and currency (the totals per kind are the sums over buckets).
  const size = chooseBucketSeconds(range.from, range.to, maxBuckets);
  const bucket = timeBucket(db, Prisma.sql`c."at"`, size);
  const rows = await db.$queryRaw<Array<{ b: unknown; kind: string; currency: string; cents: unknown }>>`
    SELECT ${bucket} AS b, c."kind" AS kind, ${entryCurrency(await crowdCurrencyTable(db))} AS currency, SUM(c."amountCents") AS cents
      FROM ${LEDGER_FROM} WHERE c."eventId" = ${eventId} GROUP BY 1, 2, 3 ORDER BY 1`;
  const totals = sumByCurrency(rows.map((r) => ({ currency: r.currency, minor: num(r.cents) })));
  const perBucket = new Map<number, number>();
  const firstBucket = Math.floor(range.from / 1000 / size) * size * 1000;
  const lastBucket = Math.floor(range.to / 1000 / size) * size * 1000;
  for (const r of rows) {
    if (r.currency !== currency) continue;
    const cents = num(r.cents);
    byKind[r.kind] = (byKind[r.kind] ?? 0) + cents;
    totalCents += cents;
    const t = Math.min(lastBucket, Math.max(firstBucket, num(r.b) * size * 1000));
    perBucket.set(t, (perBucket.get(t) ?? 0) + cents);
  }
  const overTime = fillBuckets(
    [...perBucket].map(([t, cents]) => ({ t, cents, cumulativeCents: 0 })),
    size,
    (t) => ({ t, cents: 0, cumulativeCents: 0 }),
  );
  // Start from zero one bucket before the first cost, so that the line rises from the baseline.
  if (overTime.length) overTime.unshift({ t: overTime[0].t - size * 1000, cents: 0, cumulativeCents: 0 });
  let running = 0;
  for (const p of overTime) {
    running += p.cents;
    p.cumulativeCents = running;
  }
  return { totals, currency, totalCents, byKind, bucketSeconds: size, overTime };
}

export async function latestDecisions(db: Db, eventId: string, take = 15): Promise<DecisionFeedItem[]> {
  const logs = await db.auditLog.findMany({
    where: { eventId, entityType: "assignment", action: { in: [...DECISION_ACTIONS] } },
    orderBy: { at: "desc" },
    take,
    select: { id: true, at: true, action: true, reason: true, actorType: true, entityId: true, details: true },
  });
  const ids = [...new Set(logs.map((l) => l.entityId).filter((x): x is string => Boolean(x)))];
  const assignments = ids.length
    ? await db.assignment.findMany({
        where: { id: { in: ids } },
        select: { id: true, workerId: true, worker: { select: { externalId: true, user: { select: { name: true } } } }, hit: { select: { seq: true } } },
      })
    : [];
  const byId = new Map(assignments.map((a) => [a.id, a]));
  return logs.map((l) => {
    const d = (l.details ?? {}) as Record<string, unknown>;
    const a = l.entityId ? byId.get(l.entityId) : undefined;
    const threshold = d.threshold;
    return {
      id: l.id,
      at: l.at,
      action: l.action,
      reason: l.reason,
      actorType: l.actorType,
      assignmentId: l.entityId,
      correct: typeof d.correct === "number" ? d.correct : null,
      total: typeof d.total === "number" ? d.total : null,
      threshold: thresholdText(threshold),
      workerExternalId: a?.worker.externalId ?? null,
      workerName: a?.worker.user?.name ?? null,
      workerId: a?.workerId ?? null,
      hitSeq: a?.hit.seq ?? null,
    };
  });
}

/** A threshold from audit details: "7/10" from {num, den}, a number as is, a string verbatim. */
export function thresholdText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "object" && value && "num" in value && "den" in value) {
    const r = value as { num: unknown; den: unknown };
    return `${String(r.num)}/${String(r.den)}`;
  }
  return null;
}

/** `currency`: the event crowd's (lib/events/event-currency.ts), what its spend chart and cost per label are in. */
export async function loadEventOverview(db: Db, event: { id: string; budgetCapCents: number | null }, currency: string = DEFAULT_CURRENCY): Promise<EventOverview> {
  const range = await auditRange(db, event.id);
  const [funnel, hitStatus, assignmentStatus, decisions, spend, feed, syncProblemCount, syncLatest, activeJobs] = await Promise.all([
    tweetFunnel(db, event.id),
    hitStatusCounts(db, event.id),
    assignmentStatusCounts(db, event.id),
    decisionsOverTime(db, event.id, 120, range),
    spendSummary(db, event.id, 120, range, currency),
    latestDecisions(db, event.id),
    db.hit.count({ where: { eventId: event.id, syncError: { not: null } } }),
    db.hit.findFirst({ where: { eventId: event.id, syncError: { not: null } }, orderBy: { lastSyncedAt: "desc" }, select: { syncError: true, seq: true } }),
    db.job.findMany({
      where: { eventId: event.id, state: { in: [JOB_STATE.queued, JOB_STATE.running] } },
      orderBy: { createdAt: "asc" },
      take: 10,
      select: { id: true, type: true, state: true, progressDone: true, progressTotal: true, message: true },
    }),
  ]);
  const hitsTotal = Object.values(hitStatus).reduce((a, b) => a + b, 0);
  const assignmentsTotal = Object.values(assignmentStatus).reduce((a, b) => a + b, 0);
  return {
    funnel,
    hitStatus,
    hitsTotal,
    assignmentStatus,
    assignmentsTotal,
    decisions,
    spend: {
      ...spend,
      budgetCapCents: event.budgetCapCents,
      costPerAcceptedLabelCents: funnel.accepted > 0 ? spend.totalCents / funnel.accepted : null,
    },
    latestDecisions: feed,
    syncProblems: { hits: syncProblemCount, latest: syncLatest ? `HIT ${syncLatest.seq}: ${syncLatest.syncError}` : null },
    activeJobs,
  };
}
