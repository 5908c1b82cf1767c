import "server-only";
import { z } from "zod";
import type { Db, Prisma } from "@/lib/db/client";
import { ASSIGNMENT_STATUS } from "@/lib/db/enums";

/** The HITs tab: a page of an event's HITs with their assignments, gold scores and agreement; a HIT's detail. */
export const HIT_STATUSES = ["draft", "published", "reviewing", "approved", "extended", "unresolved", "expired", "deleted"] as const;
export const HITS_PAGE_SIZE = 50;

export const hitListQuerySchema = z.object({
  status: z.enum(HIT_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  sort: z.enum(["seq", "-seq", "accepted", "-accepted", "published", "-published"]).catch("seq").default("seq"),
});
export type HitListQuery = z.infer<typeof hitListQuerySchema>;

export type HitListRow = {
  id: string;
  seq: number;
  status: string;
  providerHitId: string | null;
  maxAssignments: number;
  rewardCents: number;
  /** Its batch's currency (null: a HIT without a recorded one, shown in the crowd's). */
  currency: string | null;
  publishedAt: Date | null;
  decidedAt: Date | null;
  syncError: string | null;
  assignments: { submitted: number; approved: number; rejected: number; held: number; total: number };
  /** Mean share of gold answered correctly over the HIT's graded assignments. */
  goldScore: number | null;
  acceptedTweets: number;
  unknownTweets: number;
};

function orderOf(sort: HitListQuery["sort"]): Prisma.HitOrderByWithRelationInput[] {
  const dir = sort.startsWith("-") ? "desc" : "asc";
  const key = sort.replace(/^-/, "");
  if (key === "accepted") return [{ acceptedTweets: dir }, { seq: "asc" }];
  if (key === "published") return [{ publishedAt: dir }, { seq: "asc" }];
  return [{ seq: dir }];
}

export async function listEventHits(db: Db, eventId: string, query: HitListQuery): Promise<{ rows: HitListRow[]; total: number; page: number; pages: number }> {
  const where: Prisma.HitWhereInput = { eventId, ...(query.status ? { status: query.status } : {}) };
  const total = await db.hit.count({ where });
  const pages = Math.max(1, Math.ceil(total / HITS_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const hits = await db.hit.findMany({
    where,
    orderBy: orderOf(query.sort),
    skip: (page - 1) * HITS_PAGE_SIZE,
    take: HITS_PAGE_SIZE,
    select: {
      id: true,
      seq: true,
      status: true,
      providerHitId: true,
      maxAssignments: true,
      rewardCents: true,
      publishedAt: true,
      decidedAt: true,
      syncError: true,
      acceptedTweets: true,
      batch: { select: { currency: true } },
    },
  });
  const ids = hits.map((h) => h.id);
  const [assignmentGroups, unknownCounts] = ids.length
    ? await Promise.all([
        db.assignment.groupBy({ by: ["hitId", "status"], where: { hitId: { in: ids } }, _count: { _all: true }, _sum: { goldCorrect: true, goldTotal: true } }),
        db.hitItem.groupBy({ by: ["hitId"], where: { hitId: { in: ids }, isGold: false }, _count: { _all: true } }),
      ])
    : [[], []];
  const perHit = new Map<string, { counts: HitListRow["assignments"]; correct: number; total: number }>();
  for (const g of assignmentGroups) {
    const entry = perHit.get(g.hitId) ?? { counts: { submitted: 0, approved: 0, rejected: 0, held: 0, total: 0 }, correct: 0, total: 0 };
    const n = g._count._all;
    if (g.status === ASSIGNMENT_STATUS.submitted || g.status === ASSIGNMENT_STATUS.approved || g.status === ASSIGNMENT_STATUS.rejected || g.status === ASSIGNMENT_STATUS.held) entry.counts[g.status] += n;
    entry.counts.total += n;
    entry.correct += g._sum.goldCorrect ?? 0;
    entry.total += g._sum.goldTotal ?? 0;
    perHit.set(g.hitId, entry);
  }
  const unknownOf = new Map(unknownCounts.map((u) => [u.hitId, u._count._all]));
  return {
    total,
    page,
    pages,
    rows: hits.map(({ batch, ...h }) => {
      const a = perHit.get(h.id);
      return {
        ...h,
        currency: batch?.currency ?? null,
        assignments: a?.counts ?? { submitted: 0, approved: 0, rejected: 0, held: 0, total: 0 },
        goldScore: a && a.total > 0 ? a.correct / a.total : null,
        unknownTweets: unknownOf.get(h.id) ?? 0,
      };
    }),
  };
}

export type HitDetail = NonNullable<Awaited<ReturnType<typeof loadHitDetail>>>;

/** One HIT: its tweets in display order, each assignment's answers, decisions and their reasons, and the audit trail. */
export async function loadHitDetail(db: Db, eventId: string, seq: number) {
  const hit = await db.hit.findUnique({
    where: { eventId_seq: { eventId, seq } },
    select: {
      id: true,
      seq: true,
      status: true,
      provider: true,
      providerHitId: true,
      maxAssignments: true,
      rewardCents: true,
      approvedCount: true,
      rejectedCount: true,
      acceptedTweets: true,
      publishedAt: true,
      expiresAt: true,
      decidedAt: true,
      lastSyncedAt: true,
      syncError: true,
      batch: { select: { title: true, autoApprovalSeconds: true, currency: true } },
    },
  });
  if (!hit) return null;
  const [items, assignments] = await Promise.all([
    db.hitItem.findMany({
      where: { hitId: hit.id },
      orderBy: { position: "asc" },
      select: {
        id: true,
        position: true,
        isGold: true,
        tweet: { select: { id: true, externalId: true, text: true, goldLabel: true, status: true, acceptedLabel: { select: { label: true, topVotes: true, totalVotes: true } } } },
      },
    }),
    db.assignment.findMany({
      where: { hitId: hit.id },
      orderBy: [{ submitTime: "asc" }, { id: "asc" }],
      select: {
        id: true,
        providerAssignmentId: true,
        status: true,
        providerStatus: true,
        acceptTime: true,
        submitTime: true,
        autoApprovalTime: true,
        goldCorrect: true,
        goldTotal: true,
        decision: true,
        decisionReason: true,
        decidedBy: true,
        decidedAt: true,
        feedback: true,
        worker: { select: { id: true, externalId: true, blocked: true, user: { select: { name: true } } } },
      },
    }),
  ]);
  const judgments = await db.judgment.findMany({
    where: { assignmentId: { in: assignments.map((a) => a.id) } },
    select: { assignmentId: true, hitItemId: true, label: true, correct: true, counted: true },
  });
  const answers: Record<string, Record<string, { label: string; correct: boolean | null; counted: boolean }>> = {};
  for (const j of judgments) (answers[j.hitItemId] ??= {})[j.assignmentId] = { label: j.label, correct: j.correct, counted: j.counted };
  const audit = await db.auditLog.findMany({
    where: { eventId, entityId: { in: [hit.id, ...assignments.map((a) => a.id)] } },
    orderBy: { at: "asc" },
    take: 200,
    select: { id: true, at: true, actorType: true, actorId: true, entityType: true, entityId: true, action: true, reason: true, actor: { select: { name: true } } },
  });
  return { hit, items, assignments, answers, audit };
}
