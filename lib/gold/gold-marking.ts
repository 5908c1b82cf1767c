import "server-only";
import type { Db } from "@/lib/db/client";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * Marking stored tweets as gold, or unmarking them, under two rules:
 * - an unknown tweet that was ever packed into a HIT (status past "pending", or any HIT item) is refused: its crowd
 *   judgments would mix with grades. Only tweets not yet shown to anyone become gold.
 * - unmarking a gold tweet that was used (in a HIT or a qualification test) retires it, like "Retire" on the Gold
 *   health card: it stays gold with its label, so past grades keep their meaning, and new HITs and tests skip it.
 *   Unused gold goes back to an unknown tweet to annotate (its expert label kept as the file's label).
 * Every change writes one audit row per tweet.
 */
export type GoldOutcome = { changed: number; retired: number; skipped: Record<string, number> };

export const SKIP = {
  inHit: "already in a HIT as an unknown tweet",
  alreadyGold: "already gold with that label",
  usedGold: "gold already used in HITs or a test (retire it instead of relabelling)",
  retired: "retired gold (restore it on the Gold health card)",
  notGold: "not gold",
  noLabel: "no label in the event's scheme",
} as const;

const CHUNK = 500;

type Actor = { actorId: string | null; reason?: string };

/** Gold tweets (of these) used in any HIT or qualification test: their grades must keep meaning. */
export async function usedGoldIds(db: Db, eventId: string, tweetIds: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>();
  const tests = await db.qualificationTest.findMany({ where: { eventId }, select: { goldTweetIds: true } });
  const inTests = new Set(tests.flatMap((t) => (Array.isArray(t.goldTweetIds) ? (t.goldTweetIds as string[]) : [])));
  for (let i = 0; i < tweetIds.length; i += CHUNK) {
    const chunk = tweetIds.slice(i, i + CHUNK);
    const items = await db.hitItem.findMany({ where: { tweetId: { in: chunk } }, select: { tweetId: true }, distinct: ["tweetId"] });
    for (const it of items) used.add(it.tweetId);
    for (const id of chunk) if (inTests.has(id)) used.add(id);
  }
  return used;
}

async function audit(db: Db, eventId: string, { actorId, reason }: Actor, action: string, rows: Array<{ id: string; externalId: string; label?: string | null }>) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.auditLog.createMany({
      data: rows.slice(i, i + CHUNK).map((r) => ({
        actorType: actorId ? "user" : "system",
        actorId,
        eventId,
        entityType: "tweet",
        entityId: r.id,
        action,
        reason: reason ?? null,
        details: { externalId: r.externalId, ...(r.label ? { label: r.label } : {}) },
      })),
    });
  }
}

/** Marks tweets gold with the given expert labels (labels must be the scheme's values). */
export async function markTweetsGold(
  db: Db,
  { eventId, picks, schemeLabels, ...actor }: Actor & { eventId: string; picks: ReadonlyArray<{ id: string; label: string | null }>; schemeLabels: readonly string[] },
): Promise<GoldOutcome> {
  const outcome: GoldOutcome = { changed: 0, retired: 0, skipped: {} };
  const skip = (why: string) => (outcome.skipped[why] = (outcome.skipped[why] ?? 0) + 1);
  const inScheme = new Set(schemeLabels);
  for (let i = 0; i < picks.length; i += CHUNK) {
    const chunk = picks.slice(i, i + CHUNK);
    const ids = chunk.map((p) => p.id);
    const [tweets, items] = await Promise.all([
      db.tweet.findMany({ where: { eventId, id: { in: ids } }, select: { id: true, externalId: true, role: true, status: true, goldLabel: true, retiredAt: true } }),
      db.hitItem.findMany({ where: { tweetId: { in: ids } }, select: { tweetId: true }, distinct: ["tweetId"] }),
    ]);
    const byId = new Map(tweets.map((t) => [t.id, t]));
    const inHits = new Set(items.map((it) => it.tweetId));
    const usedGold = await usedGoldIds(db, eventId, tweets.filter((t) => t.role === TWEET_ROLE.gold).map((t) => t.id));
    const done: Array<{ id: string; externalId: string; label: string }> = [];
    for (const p of chunk) {
      const t = byId.get(p.id);
      if (!t) continue;
      if (!p.label || !inScheme.has(p.label)) skip(SKIP.noLabel);
      else if (t.role === TWEET_ROLE.gold) {
        if (t.retiredAt) skip(SKIP.retired);
        else if (t.goldLabel === p.label) skip(SKIP.alreadyGold);
        else if (usedGold.has(t.id)) skip(SKIP.usedGold);
        else done.push({ id: t.id, externalId: t.externalId, label: p.label });
      } else if (t.status !== TWEET_STATUS.pending || inHits.has(t.id)) skip(SKIP.inHit);
      else done.push({ id: t.id, externalId: t.externalId, label: p.label });
    }
    // One update per label; the where repeats the rule so that a tweet packed meanwhile is left alone.
    for (const label of new Set(done.map((d) => d.label))) {
      const ids = done.filter((d) => d.label === label).map((d) => d.id);
      const res = await db.tweet.updateMany({
        where: { id: { in: ids }, retiredAt: null, OR: [{ role: TWEET_ROLE.gold }, { role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending }] },
        data: { role: TWEET_ROLE.gold, goldLabel: label, status: TWEET_STATUS.pending },
      });
      outcome.changed += res.count;
    }
    await audit(db, eventId, actor, "mark-gold", done);
  }
  return outcome;
}

/** Unmarks gold tweets: used ones are retired (kept as gold), unused ones become unknown tweets again. */
export async function unmarkTweetsGold(db: Db, { eventId, ids, ...actor }: Actor & { eventId: string; ids: readonly string[] }): Promise<GoldOutcome> {
  const outcome: GoldOutcome = { changed: 0, retired: 0, skipped: {} };
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const tweets = await db.tweet.findMany({ where: { eventId, id: { in: chunk } }, select: { id: true, externalId: true, role: true, goldLabel: true, sourceLabel: true, retiredAt: true } });
    const gold = tweets.filter((t) => t.role === TWEET_ROLE.gold && !t.retiredAt);
    const notGold = tweets.length - gold.length;
    if (notGold) outcome.skipped[SKIP.notGold] = (outcome.skipped[SKIP.notGold] ?? 0) + notGold;
    const used = await usedGoldIds(db, eventId, gold.map((t) => t.id));
    const retire = gold.filter((t) => used.has(t.id));
    const revert = gold.filter((t) => !used.has(t.id));
    if (retire.length) {
      const res = await db.tweet.updateMany({ where: { id: { in: retire.map((t) => t.id) } }, data: { status: TWEET_STATUS.retired, retiredAt: new Date() } });
      outcome.retired += res.count;
    }
    for (const t of revert) {
      await db.tweet.update({ where: { id: t.id }, data: { role: TWEET_ROLE.unknown, goldLabel: null, sourceLabel: t.sourceLabel ?? t.goldLabel, status: TWEET_STATUS.pending, retiredAt: null } });
    }
    outcome.changed += revert.length;
    await audit(db, eventId, actor, "retire-gold", retire);
    await audit(db, eventId, actor, "unmark-gold", revert.map((t) => ({ ...t, label: t.goldLabel })));
  }
  return outcome;
}

/** A one-line summary of an outcome ("3 marked as gold; skipped: 2 already in a HIT as an unknown tweet"). */
export function describeGoldOutcome(outcome: GoldOutcome, verb: string): string {
  const parts = [`${outcome.changed} ${verb}`];
  if (outcome.retired) parts.push(`${outcome.retired} retired (used in HITs or a test: past grades keep their meaning)`);
  const skipped = Object.entries(outcome.skipped).map(([why, n]) => `${n} ${why}`);
  if (skipped.length) parts.push(`skipped: ${skipped.join(", ")}`);
  return parts.join("; ") + ".";
}
