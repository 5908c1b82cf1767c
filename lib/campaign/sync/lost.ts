import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import { isCrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { Db } from "@/lib/db/client";
import { HIT_STATUS, TWEET_STATUS } from "@/lib/db/enums";
import { emptyReport, type HitRow, type StepReport } from "./types";

/** The reason stored on a HIT the provider does not know. */
export function lostReason(providerHitId: string): string {
  return `The provider does not know this HIT (${providerHitId}): it was marked lost and its tweets were released for new HITs.`;
}

/** The unknown tweets a lost HIT gives back (pure): gold tweets are shared by HITs and were never taken. */
export function releasedTweets(hit: Pick<HitRow, "items">): string[] {
  return hit.items.filter((it) => !it.isGold).map((it) => it.tweetId);
}

/**
 * HITs whose listing failed with "not found": when the provider confirms it does not know the HIT either (a
 * second call, so one odd answer does not drop a HIT), the HIT is marked lost with the reason and its tweets
 * still waiting in it go back to pending. Idempotent: only a published or extended HIT changes.
 */
export async function reconcileLostHits({ db, provider, hits }: { db: Db; provider: CrowdProvider; hits: HitRow[] }): Promise<StepReport & { lost: string[] }> {
  const report = { ...emptyReport(), lost: [] as string[] };
  for (const hit of hits) {
    try {
      await provider.getHit({ providerHitId: hit.providerHitId as string });
      continue; // it exists after all: the next pass lists it again
    } catch (err) {
      if (!isCrowdError(err, "not_found")) {
        report.failures.push({ hitId: hit.id, error: err });
        continue;
      }
    }
    const reason = lostReason(hit.providerHitId as string);
    const changed = await db.$transaction(async (tx) => {
      const moved = await tx.hit.updateMany({
        where: { id: hit.id, status: { in: [HIT_STATUS.published, HIT_STATUS.extended] } },
        data: { status: HIT_STATUS.lost, syncError: reason, lastSyncedAt: new Date(), leaseOwner: null, leaseUntil: null },
      });
      if (moved.count === 0) return false;
      await tx.tweet.updateMany({ where: { id: { in: releasedTweets(hit) }, status: { in: [TWEET_STATUS.in_hit, TWEET_STATUS.judged] } }, data: { status: TWEET_STATUS.pending } });
      return true;
    });
    if (!changed) continue;
    await writeAudit(db, { actorType: "system", eventId: hit.eventId, entityType: "hit", entityId: hit.id, action: "lost", reason });
    report.lost.push(hit.id);
    report.deltas.push({ hitId: hit.id, hitDecision: "lost" });
    report.live.push({ eventId: hit.eventId, kind: "hit", data: { hitId: hit.id, state: HIT_STATUS.lost, reason } });
  }
  return report;
}
