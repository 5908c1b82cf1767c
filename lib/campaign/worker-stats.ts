import "server-only";
import { Prisma } from "@/generated/sqlite/client";
import type { Db } from "@/lib/db/client";
import { num } from "@/lib/db/sql";
import { ASSIGNMENT_STATUS, COST_KIND } from "@/lib/db/enums";

/** Workers per round of grouped queries (IN lists stay far below SQLite's parameter limit). */
const WORKERS_PER_ROUND = 200;

/**
 * Recomputes workers' statistics from the stored assignments, judgments and ledger (idempotent, so a crash
 * between two updates never leaves counts off): approvals, rejections, gold accuracy, agreement with accepted
 * labels, time worked and earnings. One grouped query per statistic for all the workers at once.
 */
export async function refreshWorkerStats(db: Db, workerIds: string[]): Promise<void> {
  const all = [...new Set(workerIds)];
  for (let i = 0; i < all.length; i += WORKERS_PER_ROUND) await refreshRound(db, all.slice(i, i + WORKERS_PER_ROUND));
}

async function refreshRound(db: Db, ids: string[]): Promise<void> {
  const [byStatus, gold, agree, earnings, times] = await Promise.all([
    db.assignment.groupBy({ by: ["workerId", "status"], where: { workerId: { in: ids } }, _count: { _all: true } }),
    db.assignment.groupBy({ by: ["workerId"], where: { workerId: { in: ids }, goldTotal: { not: null } }, _sum: { goldCorrect: true, goldTotal: true } }),
    db.$queryRaw<Array<{ workerId: string; total: unknown; agree: unknown }>>`
      SELECT j."workerId" AS "workerId", COUNT(*) AS total, SUM(CASE WHEN j.label = a.label THEN 1 ELSE 0 END) AS agree
        FROM "Judgment" j JOIN "AcceptedLabel" a ON a."tweetId" = j."tweetId"
       WHERE j."workerId" IN (${Prisma.join(ids)}) AND j."isGold" = false
       GROUP BY j."workerId"`,
    db.costEntry.groupBy({ by: ["workerId"], where: { workerId: { in: ids }, kind: { in: [COST_KIND.reward, COST_KIND.bonus] } }, _sum: { amountCents: true } }),
    db.assignment.findMany({ where: { workerId: { in: ids }, acceptTime: { not: null }, submitTime: { not: null } }, select: { workerId: true, acceptTime: true, submitTime: true } }),
  ]);
  const seconds = new Map<string, number>();
  for (const t of times) {
    const s = Math.max(0, ((t.submitTime as Date).getTime() - (t.acceptTime as Date).getTime()) / 1000);
    seconds.set(t.workerId, (seconds.get(t.workerId) ?? 0) + s);
  }
  const counts = new Map<string, Map<string, number>>();
  for (const b of byStatus) counts.set(b.workerId, (counts.get(b.workerId) ?? new Map()).set(b.status, b._count._all));
  const goldOf = new Map(gold.map((x) => [x.workerId, x._sum]));
  const agreeOf = new Map(agree.map((x) => [x.workerId, x]));
  const earningsOf = new Map(earnings.map((e) => [e.workerId, e._sum.amountCents ?? 0]));
  const now = new Date();
  for (const workerId of ids) {
    const mine = counts.get(workerId) ?? new Map<string, number>();
    const g = goldOf.get(workerId);
    const a = agreeOf.get(workerId);
    await db.worker.update({
      where: { id: workerId },
      data: {
        assignmentsSubmitted: [...mine.values()].reduce((n, c) => n + c, 0),
        assignmentsApproved: mine.get(ASSIGNMENT_STATUS.approved) ?? 0,
        assignmentsRejected: mine.get(ASSIGNMENT_STATUS.rejected) ?? 0,
        goldCorrect: g?.goldCorrect ?? 0,
        goldTotal: g?.goldTotal ?? 0,
        agreeCount: num(a?.agree ?? 0),
        agreeTotal: num(a?.total ?? 0),
        workSeconds: Math.round(seconds.get(workerId) ?? 0),
        earningsCents: earningsOf.get(workerId) ?? 0,
        lastSeenAt: now,
      },
    });
  }
}
