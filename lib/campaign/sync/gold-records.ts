import "server-only";
import type { Db } from "@/lib/db/client";
import { bySubmission, type GoldRecord, priorRecords } from "@/lib/procedure/whole-record";

/** An assignment about to be graded, with its own gold count. */
export type PendingGold = { id: string; workerId: string; submitTime: Date | null; own: GoldRecord };

/**
 * The whole-record rule's input: each pending assignment's worker record in the event before it, in submission order
 * (submit time, then id), over the assignments graded so far and the pending ones. Two queries per pass, whatever
 * the number of assignments: one grouped sum per worker of the graded assignments submitted before the worker's
 * earliest pending one, and the (usually no) graded assignments submitted after it.
 */
export async function loadPriorRecords(db: Db, eventId: string, pending: readonly PendingGold[]): Promise<Map<string, GoldRecord>> {
  const out = new Map<string, GoldRecord>();
  if (pending.length === 0) return out;
  const cutoff = new Map<string, Date | null>();
  for (const p of [...pending].sort(bySubmission)) if (!cutoff.has(p.workerId)) cutoff.set(p.workerId, p.submitTime);
  const workers = [...cutoff.keys()];
  const graded = { hit: { eventId }, goldTotal: { not: null }, id: { notIn: pending.map((p) => p.id) } };
  const [head, tail] = await Promise.all([
    db.assignment.groupBy({
      by: ["workerId"],
      where: { ...graded, OR: workers.map((w) => { const t = cutoff.get(w); return t ? { workerId: w, submitTime: { lt: t } } : { workerId: w }; }) },
      _sum: { goldCorrect: true, goldTotal: true },
    }),
    db.assignment.findMany({
      where: { ...graded, OR: workers.flatMap((w) => { const t = cutoff.get(w); return t ? [{ workerId: w, OR: [{ submitTime: { gte: t } }, { submitTime: null }] }] : []; }) },
      select: { id: true, workerId: true, submitTime: true, goldCorrect: true, goldTotal: true },
    }),
  ]);
  const start = new Map(head.map((h) => [h.workerId, { correct: h._sum.goldCorrect ?? 0, total: h._sum.goldTotal ?? 0 }]));
  const items = [
    ...tail.map((t) => ({ id: t.id, workerId: t.workerId, submitTime: t.submitTime, correct: t.goldCorrect ?? 0, total: t.goldTotal ?? 0, pending: false })),
    ...pending.map((p) => ({ id: p.id, workerId: p.workerId, submitTime: p.submitTime, ...p.own, pending: true })),
  ].sort(bySubmission);
  const priors = priorRecords(items, start);
  items.forEach((it, i) => {
    if (it.pending) out.set(it.id, priors[i]);
  });
  return out;
}
