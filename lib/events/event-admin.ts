import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { markTweetsGold, unmarkTweetsGold } from "@/lib/gold/gold-marking";

// Writes researchers make to an event outside the campaign: archiving it, retiring, marking and unmarking gold tweets.
// Each is audited.

/** Archives (hides from the list) or restores an event. */
export async function setEventArchived(db: Db, { eventId, archived, actorId }: { eventId: string; archived: boolean; actorId: string }) {
  const event = await db.event.update({ where: { id: eventId }, data: { archived }, select: { id: true, slug: true, name: true } });
  await writeAudit(db, { actorType: "user", actorId, eventId: event.id, entityType: "event", entityId: event.id, action: archived ? "archive" : "unarchive" });
  return event;
}

/**
 * Retires a suspicious gold tweet: it stays in the database (past grades keep their meaning) but is no longer used
 * in new HITs or qualification tests. Restoring brings it back.
 */
export async function setGoldRetired(
  db: Db,
  { tweetId, retire, reason, actorId }: { tweetId: string; retire: boolean; reason?: string; actorId: string },
) {
  const tweet = await db.tweet.findUnique({ where: { id: tweetId }, select: { id: true, role: true, eventId: true, externalId: true, event: { select: { slug: true } } } });
  if (!tweet || tweet.role !== TWEET_ROLE.gold) throw new UserError("That is not a gold tweet.");
  await db.tweet.update({ where: { id: tweet.id }, data: retire ? { status: TWEET_STATUS.retired, retiredAt: new Date() } : { status: TWEET_STATUS.pending, retiredAt: null } });
  await writeAudit(db, {
    actorType: "user",
    actorId,
    eventId: tweet.eventId,
    entityType: "tweet",
    entityId: tweet.id,
    action: retire ? "retire-gold" : "restore-gold",
    reason: reason || null,
    details: { externalId: tweet.externalId },
  });
  return { externalId: tweet.externalId, eventSlug: tweet.event.slug };
}

/**
 * Marks one tweet gold with its expert label (label set) or unmarks it (label null), under the rules of
 * gold-marking.ts; a refused change is a UserError naming why.
 */
export async function setTweetGold(db: Db, { tweetId, label, actorId }: { tweetId: string; label: string | null; actorId: string }) {
  const tweet = await db.tweet.findUnique({ where: { id: tweetId }, select: { id: true, eventId: true, externalId: true, event: { select: { slug: true, schemeId: true } } } });
  if (!tweet) throw new UserError("That tweet does not exist.");
  const eventId = tweet.eventId;
  let outcome;
  if (label === null) outcome = await unmarkTweetsGold(db, { eventId, ids: [tweet.id], actorId });
  else {
    const labels = await db.label.findMany({ where: { schemeId: tweet.event.schemeId }, select: { value: true } });
    outcome = await markTweetsGold(db, { eventId, picks: [{ id: tweet.id, label }], schemeLabels: labels.map((l) => l.value), actorId });
  }
  const skipped = Object.keys(outcome.skipped)[0];
  if (skipped) throw new UserError(`Tweet ${tweet.externalId}: ${skipped}.`);
  const message =
    label !== null
      ? `Tweet ${tweet.externalId} is gold (${label}).`
      : outcome.retired
        ? `Tweet ${tweet.externalId} was used in HITs or a test: it is retired (past grades keep their meaning) and no longer used.`
        : `Tweet ${tweet.externalId} is an unknown tweet to annotate again.`;
  return { eventSlug: tweet.event.slug, message };
}
