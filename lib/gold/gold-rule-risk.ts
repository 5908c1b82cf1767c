import "server-only";
import type { Db } from "@/lib/db/client";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { goldRuleRisk, wholeRecordChanges, type GoldRuleRisk, type WorkerGoldRecord } from "@/lib/procedure/wrong-decisions";
import { bySubmission, compareGoldRules, type GoldRuleComparison } from "@/lib/procedure/whole-record";
import { num } from "@/lib/db/sql";
import { ASSIGNMENT_STATUS, TWEET_ROLE } from "@/lib/db/enums";

export type EventGoldRuleRisk = {
  risk: GoldRuleRisk;
  /** What the whole-record (Beta-binomial, settings.wholeRecordLevel) rule would have changed among the event's decided assignments. */
  wholeRecord: ReturnType<typeof wholeRecordChanges> & { workers: number; rejections: number };
  /** Both gold rules over the event's graded assignments with running records: the rejections the other rule changes. */
  comparison: GoldRuleComparison;
};

/**
 * The gold rule's chance of a wrong decision for an event (its label count and its gold's most common label) and
 * what a rule over each worker's whole gold record would have changed among its rejections.
 */
export async function loadGoldRuleRisk(db: Db, event: { id: string; schemeId: string; settings: ProcedureSettings }): Promise<EventGoldRuleRisk> {
  const [labels, goldLabels, records, graded] = await Promise.all([
    db.label.count({ where: { schemeId: event.schemeId } }),
    db.tweet.groupBy({ by: ["goldLabel"], where: { eventId: event.id, role: TWEET_ROLE.gold }, _count: { _all: true } }),
    db.$queryRaw<Array<{ workerId: string; correct: unknown; total: unknown; rejected: unknown; approved: unknown }>>`
      SELECT a."workerId" AS "workerId", SUM(a."goldCorrect") AS correct, SUM(a."goldTotal") AS total,
             SUM(CASE WHEN a."status" = ${ASSIGNMENT_STATUS.rejected} THEN 1 ELSE 0 END) AS rejected,
             SUM(CASE WHEN a."status" = ${ASSIGNMENT_STATUS.approved} THEN 1 ELSE 0 END) AS approved
        FROM "Assignment" a JOIN "Hit" h ON h."id" = a."hitId"
       WHERE h."eventId" = ${event.id} AND a."goldTotal" IS NOT NULL
       GROUP BY a."workerId"`,
    db.assignment.findMany({ where: { hit: { eventId: event.id }, goldTotal: { gt: 0 } }, select: { id: true, workerId: true, submitTime: true, goldCorrect: true, goldTotal: true } }),
  ]);
  const goldTotal = goldLabels.reduce((n, g) => n + g._count._all, 0);
  const top = goldLabels.reduce((m, g) => Math.max(m, g._count._all), 0);
  const risk = goldRuleRisk(event.settings, { labels, constantShare: goldTotal > 0 ? top / goldTotal : undefined });
  const worker: WorkerGoldRecord[] = records.map((r) => ({
    workerId: r.workerId,
    correct: num(r.correct),
    total: num(r.total),
    rejectedAssignments: num(r.rejected),
    approvedAssignments: num(r.approved),
  }));
  const a = event.settings.assignmentApproval;
  const changes = wholeRecordChanges(worker, { threshold: a.num / a.den, level: event.settings.wholeRecordLevel });
  graded.sort(bySubmission);
  const comparison = compareGoldRules(
    graded.map((g) => ({ workerId: g.workerId, correct: g.goldCorrect ?? 0, total: g.goldTotal ?? 0 })),
    event.settings,
  );
  return { risk, wholeRecord: { ...changes, workers: worker.length, rejections: worker.reduce((n, w) => n + w.rejectedAssignments, 0) }, comparison };
}
