import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

// Writes researchers make to an event outside the campaign: archiving it, retiring gold tweets. Each is audited.

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
