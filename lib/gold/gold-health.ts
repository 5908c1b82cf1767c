import "server-only";
import type { Db } from "@/lib/db/client";
import { meetsRatio, type Ratio } from "@/lib/procedure/ratio";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * Gold health: how often OTHERWISE-GOOD workers miss each gold tweet. A worker's answer on a gold tweet
 * counts when that assignment meets the approval rule on its OTHER gold tweets ((correct − this) /
 * (total − 1) ≥ 7/10): good workers who still disagree with the expert label point at an ambiguous or
 * mislabelled gold tweet, which a researcher can retire. The counts come from every graded assignment's
 * gold answers (hundreds of thousands at HumAID scale), so they are computed by the background analysis
 * (lib/events/analysis.ts) and merged here with the gold tweets as they are now (retired or not).
 */
export type GoldAnswerRow = {
  tweetId: string;
  label: string;
  correct: boolean | null;
  assignmentGoldCorrect: number | null;
  assignmentGoldTotal: number | null;
};

export type GoldStats = {
  tweetId: string;
  /** Graded answers on this gold tweet (all workers). */
  shown: number;
  missed: number;
  /** Answers by workers who were good on the other gold tweets of the same assignment. */
  goodShown: number;
  goodMissed: number;
  /** The wrong answer good workers gave most often, with its count. */
  topWrongLabel: string | null;
  topWrongCount: number;
};

/** Gold statistics per gold tweet from the gold answers of graded assignments (pure). */
export function computeGoldStats(rows: Iterable<GoldAnswerRow>, approval: Ratio): GoldStats[] {
  const byTweet = new Map<string, GoldStats & { wrong: Map<string, number> }>();
  for (const r of rows) {
    if (r.assignmentGoldTotal === null || r.assignmentGoldCorrect === null) continue;
    let s = byTweet.get(r.tweetId);
    if (!s) {
      s = { tweetId: r.tweetId, shown: 0, missed: 0, goodShown: 0, goodMissed: 0, topWrongLabel: null, topWrongCount: 0, wrong: new Map() };
      byTweet.set(r.tweetId, s);
    }
    const correct = r.correct === true;
    s.shown++;
    if (!correct) s.missed++;
    const others = r.assignmentGoldTotal - 1;
    const good = others > 0 && meetsRatio(r.assignmentGoldCorrect - (correct ? 1 : 0), others, approval);
    if (!good) continue;
    s.goodShown++;
    if (!correct) {
      s.goodMissed++;
      s.wrong.set(r.label, (s.wrong.get(r.label) ?? 0) + 1);
    }
  }
  return [...byTweet.values()].map(({ wrong, ...s }) => {
    let top: string | null = null;
    let n = 0;
    for (const [label, count] of wrong) if (count > n || (count === n && top !== null && label < top)) [top, n] = [label, count];
    return { ...s, topWrongLabel: top, topWrongCount: n };
  });
}

export type GoldHealthRow = GoldStats & {
  id: string;
  externalId: string;
  text: string;
  goldLabel: string | null;
  retired: boolean;
  goodMissRate: number | null;
  suspicious: boolean;
};

/** Flag a gold tweet when at least this many good workers saw it and at least half of them missed it. */
export const SUSPICIOUS_MIN_GOOD = 5;
export const SUSPICIOUS_MISS_RATE = 0.5;

/** The event's gold tweets with their statistics (from the latest analysis), least healthy first. */
export async function goldHealth(db: Db, { eventId, stats }: { eventId: string; stats: readonly GoldStats[] }): Promise<GoldHealthRow[]> {
  const gold = await db.tweet.findMany({
    where: { eventId, role: TWEET_ROLE.gold },
    orderBy: { externalId: "asc" },
    select: { id: true, externalId: true, text: true, goldLabel: true, status: true, retiredAt: true },
  });
  const statOf = new Map(stats.map((s) => [s.tweetId, s]));
  const rows = gold.map((g): GoldHealthRow => {
    const s = statOf.get(g.id);
    const goodShown = s?.goodShown ?? 0;
    const rate = goodShown > 0 ? (s?.goodMissed ?? 0) / goodShown : null;
    return {
      tweetId: g.id,
      shown: s?.shown ?? 0,
      missed: s?.missed ?? 0,
      goodShown,
      goodMissed: s?.goodMissed ?? 0,
      topWrongLabel: s?.topWrongLabel ?? null,
      topWrongCount: s?.topWrongCount ?? 0,
      id: g.id,
      externalId: g.externalId,
      text: g.text,
      goldLabel: g.goldLabel,
      retired: g.status === TWEET_STATUS.retired || g.retiredAt !== null,
      goodMissRate: rate,
      suspicious: rate !== null && goodShown >= SUSPICIOUS_MIN_GOOD && rate >= SUSPICIOUS_MISS_RATE,
    };
  });
  rows.sort((a, b) => Number(b.suspicious) - Number(a.suspicious) || (b.goodMissRate ?? -1) - (a.goodMissRate ?? -1) || b.shown - a.shown || (a.externalId < b.externalId ? -1 : 1));
  return rows;
}
