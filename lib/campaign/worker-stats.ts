import type { Db } from "@/lib/db/client";

/**
 * Recomputes workers' statistics from the stored assignments, judgments and ledger (idempotent, so a crash
 * between two updates never leaves counts off): approvals, rejections, gold accuracy, agreement with accepted
 * labels, time worked and earnings.
 */
export async function refreshWorkerStats(db: Db, workerIds: string[]): Promise<void> {
  for (const workerId of new Set(workerIds)) {
    const [byStatus, gold, agree, earnings, times] = await Promise.all([
      db.assignment.groupBy({ by: ["status"], where: { workerId }, _count: { _all: true } }),
      db.assignment.aggregate({ where: { workerId, goldTotal: { not: null } }, _sum: { goldCorrect: true, goldTotal: true } }),
      db.$queryRaw<Array<{ total: bigint | number | null; agree: bigint | number | null }>>`
        SELECT COUNT(*) AS total, SUM(CASE WHEN j.label = a.label THEN 1 ELSE 0 END) AS agree
          FROM "Judgment" j JOIN "AcceptedLabel" a ON a."tweetId" = j."tweetId"
         WHERE j."workerId" = ${workerId} AND j."isGold" = false`,
      db.costEntry.aggregate({ where: { workerId, kind: { in: ["reward", "bonus"] } }, _sum: { amountCents: true } }),
      db.assignment.findMany({ where: { workerId, acceptTime: { not: null }, submitTime: { not: null } }, select: { acceptTime: true, submitTime: true } }),
    ]);
    const count = (s: string) => byStatus.find((b) => b.status === s)?._count._all ?? 0;
    const submitted = byStatus.reduce((n, b) => n + b._count._all, 0);
    let seconds = 0;
    for (const t of times) seconds += Math.max(0, ((t.submitTime as Date).getTime() - (t.acceptTime as Date).getTime()) / 1000);
    await db.worker.update({
      where: { id: workerId },
      data: {
        assignmentsSubmitted: submitted,
        assignmentsApproved: count("approved"),
        assignmentsRejected: count("rejected"),
        goldCorrect: gold._sum.goldCorrect ?? 0,
        goldTotal: gold._sum.goldTotal ?? 0,
        agreeCount: Number(agree[0]?.agree ?? 0),
        agreeTotal: Number(agree[0]?.total ?? 0),
        workSeconds: Math.round(seconds),
        earningsCents: earnings._sum.amountCents ?? 0,
        lastSeenAt: new Date(),
      },
    });
  }
}
