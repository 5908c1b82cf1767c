import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { Db } from "@/lib/db/client";
import { JUDGED_WITHOUT_LABEL, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { publishLive } from "@/lib/live/bus";
import { IMPORTED_HIT_PROVIDER } from "./store-judgments";

/**
 * An imported event goes on collecting on a crowd: its tweets without an accepted label (unresolved, or judged by
 * fewer workers than the event's judgments per tweet) go back to the publish queue, so that the next publish packs them into new HITs on the
 * event's crowd. The label decision reads every counted judgment of a tweet (lib/campaign/sync/decide.ts), so the new
 * judgments are counted together with the imported ones. Only tweets whose every HIT is an imported one are
 * reopened (Accord's own unresolved HITs already had their extra assignments).
 */
const reopenable = (eventId: string) => ({
  eventId,
  role: TWEET_ROLE.unknown,
  status: { in: JUDGED_WITHOUT_LABEL },
  hitItems: { some: {}, every: { hit: { provider: IMPORTED_HIT_PROVIDER } } },
});

/** How many imported tweets have no accepted label and could be collected on a crowd. */
export async function countReopenable(db: Db, eventId: string): Promise<number> {
  return db.tweet.count({ where: reopenable(eventId) });
}

export async function reopenUnresolvedImported(db: Db, { eventId, actorId = null }: { eventId: string; actorId?: string | null }): Promise<{ reopened: number }> {
  const reopened = await db.$transaction(async (tx) => {
    const moved = await tx.tweet.updateMany({ where: reopenable(eventId), data: { status: TWEET_STATUS.pending } });
    if (moved.count === 0) throw new UserError("Every imported tweet has an accepted label: there is nothing more to collect.", "nothing_to_collect");
    await writeAudit(tx as unknown as Db, {
      actorType: actorId ? "user" : "system",
      actorId,
      eventId,
      entityType: "event",
      entityId: eventId,
      action: "collect-more-imported",
      details: { reopened: moved.count },
    });
    return moved.count;
  });
  publishLive({ eventId, kind: "import", data: { reopened } });
  return { reopened };
}
