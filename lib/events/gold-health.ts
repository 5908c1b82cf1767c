import { Prisma } from "@/generated/sqlite/client";
import type { Db } from "@/lib/db/client";
import type { Ratio } from "@/lib/procedure/ratio";
import { num } from "./sql";

/**
 * Gold health: how often OTHERWISE-GOOD workers miss each gold tweet. A worker's answer on a gold tweet
 * counts when that assignment meets the approval rule on its OTHER gold tweets ((correct − this) /
 * (total − 1) ≥ 7/10): good workers who still disagree with the expert label point at an ambiguous or
 * mislabelled gold tweet, which a researcher can retire.
 */
export type GoldHealthRow = {
  id: string;
  externalId: string;
  text: string;
  goldLabel: string | null;
  retired: boolean;
  /** Judgments on this gold tweet (all workers). */
  shown: number;
  missed: number;
  /** Judgments by workers who were good on the other gold tweets of the same assignment. */
  goodShown: number;
  goodMissed: number;
  goodMissRate: number | null;
  /** The wrong answer good workers gave most often, with its count. */
  topWrongLabel: string | null;
  topWrongCount: number;
  suspicious: boolean;
};

/** Flag a gold tweet when at least this many good workers saw it and at least half of them missed it. */
export const SUSPICIOUS_MIN_GOOD = 5;
export const SUSPICIOUS_MISS_RATE = 0.5;

export async function goldHealth(db: Db, { eventId, approval }: { eventId: string; approval: Ratio }): Promise<GoldHealthRow[]> {
  const den = Math.trunc(approval.den);
  const numer = Math.trunc(approval.num);
  const good = Prisma.raw(`(a."goldTotal" > 1 AND (a."goldCorrect" - CASE WHEN j."correct" THEN 1 ELSE 0 END) * ${den} >= ${numer} * (a."goldTotal" - 1))`);
  const [gold, stats, wrong] = await Promise.all([
    db.tweet.findMany({
      where: { eventId, role: "gold" },
      orderBy: { externalId: "asc" },
      select: { id: true, externalId: true, text: true, goldLabel: true, status: true, retiredAt: true },
    }),
    db.$queryRaw<Array<{ tweetId: string; shown: unknown; missed: unknown; goodShown: unknown; goodMissed: unknown }>>(Prisma.sql`SELECT j."tweetId" AS "tweetId",
              COUNT(*) AS shown,
              SUM(CASE WHEN j."correct" THEN 0 ELSE 1 END) AS missed,
              SUM(CASE WHEN ${good} THEN 1 ELSE 0 END) AS "goodShown",
              SUM(CASE WHEN ${good} AND NOT j."correct" THEN 1 ELSE 0 END) AS "goodMissed"
         FROM "Judgment" j
         JOIN "Tweet" t ON t."id" = j."tweetId"
         JOIN "Assignment" a ON a."id" = j."assignmentId"
        WHERE t."eventId" = ${eventId} AND t."role" = 'gold' AND j."isGold" = TRUE
        GROUP BY j."tweetId"`),
    db.$queryRaw<Array<{ tweetId: string; label: string; n: unknown }>>(Prisma.sql`SELECT j."tweetId" AS "tweetId", j."label" AS label, COUNT(*) AS n
         FROM "Judgment" j
         JOIN "Tweet" t ON t."id" = j."tweetId"
         JOIN "Assignment" a ON a."id" = j."assignmentId"
        WHERE t."eventId" = ${eventId} AND t."role" = 'gold' AND j."isGold" = TRUE AND NOT j."correct" AND ${good}
        GROUP BY j."tweetId", j."label"`),
  ]);
  const statOf = new Map(stats.map((s) => [s.tweetId, s]));
  const topWrong = new Map<string, { label: string; n: number }>();
  for (const w of wrong) {
    const n = num(w.n);
    const cur = topWrong.get(w.tweetId);
    if (!cur || n > cur.n || (n === cur.n && w.label < cur.label)) topWrong.set(w.tweetId, { label: w.label, n });
  }
  const rows = gold.map((g): GoldHealthRow => {
    const s = statOf.get(g.id);
    const goodShown = num(s?.goodShown);
    const goodMissed = num(s?.goodMissed);
    const rate = goodShown > 0 ? goodMissed / goodShown : null;
    const tw = topWrong.get(g.id);
    return {
      id: g.id,
      externalId: g.externalId,
      text: g.text,
      goldLabel: g.goldLabel,
      retired: g.status === "retired" || g.retiredAt !== null,
      shown: num(s?.shown),
      missed: num(s?.missed),
      goodShown,
      goodMissed,
      goodMissRate: rate,
      topWrongLabel: tw?.label ?? null,
      topWrongCount: tw?.n ?? 0,
      suspicious: rate !== null && goodShown >= SUSPICIOUS_MIN_GOOD && rate >= SUSPICIOUS_MISS_RATE,
    };
  });
  // Most suspicious first, then by how often good workers missed them.
  rows.sort((a, b) => Number(b.suspicious) - Number(a.suspicious) || (b.goodMissRate ?? -1) - (a.goodMissRate ?? -1) || b.shown - a.shown || (a.externalId < b.externalId ? -1 : 1));
  return rows;
}
