import "server-only";
import { Prisma } from "@/generated/sqlite/client";
import type { Db } from "@/lib/db/client";
import { describeRules } from "@/lib/procedure/describe-rules";
import { posteriorBelow, predictedRejectProbability } from "@/lib/procedure/wrong-decisions";
import { readEventSettings } from "./event-settings";
import { num } from "@/lib/db/sql";

/**
 * Per worker, what the gold rule risks for them: under the rule of the event they did most work in, the chance that
 * their next HIT is rejected given their gold record there (Beta-binomial), and the whole-record rule's posterior
 * probability that their accuracy is below the threshold (rejecting them when it exceeds the event's level).
 */
export type WorkerGoldOdds = {
  event: string;
  /** "≥ 8/10 of 5 gold" */
  rule: string;
  /** The gold rule as a share (0.8 for 8/10). */
  threshold: number;
  goldCorrect: number;
  goldTotal: number;
  rejectNext: number;
  posteriorBelow: number;
  level: number;
  wholeRecordRejects: boolean;
};

export async function loadWorkerGoldOdds(db: Db, workerIds: string[]): Promise<Map<string, WorkerGoldOdds>> {
  const out = new Map<string, WorkerGoldOdds>();
  if (workerIds.length === 0) return out;
  const records = await db.$queryRaw<Array<{ workerId: string; eventId: string; correct: unknown; total: unknown; n: unknown }>>`
    SELECT a."workerId" AS "workerId", h."eventId" AS "eventId", SUM(a."goldCorrect") AS correct, SUM(a."goldTotal") AS total, COUNT(*) AS n
      FROM "Assignment" a JOIN "Hit" h ON h."id" = a."hitId"
     WHERE a."goldTotal" IS NOT NULL AND a."workerId" IN (${Prisma.join(workerIds)})
     GROUP BY a."workerId", h."eventId"`;
  const main = new Map<string, { eventId: string; correct: number; total: number; n: number }>();
  for (const r of records) {
    const rec = { eventId: r.eventId, correct: num(r.correct), total: num(r.total), n: num(r.n) };
    const best = main.get(r.workerId);
    if (!best || rec.n > best.n || (rec.n === best.n && rec.eventId < best.eventId)) main.set(r.workerId, rec);
  }
  const events = await db.event.findMany({ where: { id: { in: [...new Set([...main.values()].map((m) => m.eventId))] } }, select: { id: true, slug: true, name: true, settings: true } });
  const byId = new Map(events.map((e) => [e.id, { slug: e.slug, settings: readEventSettings(e) }]));
  for (const [workerId, m] of main) {
    const e = byId.get(m.eventId);
    if (!e) continue;
    const s = e.settings;
    const a = s.assignmentApproval;
    const below = posteriorBelow(m.correct, m.total, a.num / a.den);
    out.set(workerId, {
      event: e.slug,
      rule: `${describeRules(s).short.assignmentApproval} of ${s.goldPerHit} gold`,
      threshold: a.num / a.den,
      goldCorrect: m.correct,
      goldTotal: m.total,
      rejectNext: predictedRejectProbability(s.goldPerHit, a, m.correct, m.total),
      posteriorBelow: below,
      level: s.wholeRecordLevel,
      wholeRecordRejects: below > s.wholeRecordLevel,
    });
  }
  return out;
}
