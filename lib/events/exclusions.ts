import "server-only";
import type { Db } from "@/lib/db/client";

/**
 * Work a crowd's policy approved and excluded in an event (lib/crowd/policy.ts): how many submissions, what they cost
 * (rewards and fees in the ledger: paid, their judgments left out) and the latest reasons.
 */
export type ExclusionSummary = { count: number; paidMinor: number; workers: number; latest: Array<{ workerExternalId: string; reason: string; hitSeq: number }> };

export async function exclusionSummary(db: Db, eventId: string): Promise<ExclusionSummary> {
  const where = { hit: { eventId }, excludedReason: { not: null } };
  const [count, workers, paid, latest] = await Promise.all([
    db.assignment.count({ where }),
    db.assignment.groupBy({ by: ["workerId"], where }).then((g) => g.length),
    db.costEntry.aggregate({ where: { eventId, assignment: { excludedReason: { not: null } } }, _sum: { amountCents: true } }),
    db.assignment.findMany({ where, orderBy: { decidedAt: "desc" }, take: 5, select: { excludedReason: true, worker: { select: { externalId: true } }, hit: { select: { seq: true } } } }),
  ]);
  return { count, workers, paidMinor: paid._sum.amountCents ?? 0, latest: latest.map((a) => ({ workerExternalId: a.worker.externalId, reason: a.excludedReason as string, hitSeq: a.hit.seq })) };
}
