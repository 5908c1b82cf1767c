import "server-only";
import { getProvider } from "@/lib/campaign/providers";
import { createHitBatch } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import type { Db } from "@/lib/db/client";
import { JOBS } from "@/lib/jobs/job-types";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { HIT_STATUS, JOB_STATE, QUALIFICATION_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { crowdIsSimulated, findCrowd } from "@/lib/crowd/registry";

/**
 * Demo mode only: keeps the demo events' campaigns (MTurk and Prolific, each on its simulator) moving so a newcomer sees the whole loop live — creates
 * each event's qualification test, then publishes a few HITs at a time whenever fewer than `activeTarget`
 * are out, until the event's unknown tweets run out. Real researchers publish through the Campaign panel.
 */
export function startDemoAutopilot(db: Db, { eventIds, intervalMs = 15_000, activeTarget = 4, batchSize = 3 }: { eventIds: string[]; intervalMs?: number; activeTarget?: number; batchSize?: number }) {
  let stopped = false;
  const tick = async () => {
    const crowd = await getCrowdSettings(db);
    for (const eventId of eventIds) {
      if (stopped) return;
      const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, name: true, provider: true } });
      if (!event) continue;
      // Never spend real money on the demo: each event moves only while its crowd is a simulator.
      if (!(await crowdIsSimulated(db, event.provider))) continue;
      // A crowd's own demo terms (Prolific refuses less than its hourly minimum), else the admin's publish defaults.
      const demo = findCrowd(event.provider)?.demo ?? null;
      const provider = await getProvider(db, event.provider);
      if (!(await db.qualificationTest.findFirst({ where: { eventId, status: QUALIFICATION_STATUS.active }, select: { id: true } }))) {
        await createQualificationTest({ db, provider, eventId });
      }
      const [active, queued] = await Promise.all([
        db.hit.count({ where: { eventId, status: { in: [HIT_STATUS.draft, HIT_STATUS.published, HIT_STATUS.extended] } } }),
        db.job.count({ where: { eventId, type: JOBS.publish.type, state: { in: [JOB_STATE.queued, JOB_STATE.running] } } }),
      ]);
      if (active >= activeTarget || queued > 0) continue;
      const pending = await db.tweet.count({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending, duplicateOfId: null } });
      if (pending < 20) continue;
      await createHitBatch({
        db,
        eventId,
        provider,
        options: {
          hitCount: Math.min(batchSize, Math.floor(pending / 20)),
          rewardCents: demo?.rewardCents ?? crowd.defaults.rewardCents,
          lifetimeSeconds: crowd.defaults.lifetimeSeconds,
          durationSeconds: demo?.durationSeconds ?? crowd.defaults.durationSeconds,
          autoApprovalSeconds: crowd.defaults.autoApprovalSeconds,
          title: crowd.defaults.title,
          description: crowd.defaults.description,
          keywords: crowd.defaults.keywords,
        },
      });
    }
  };
  const run = () => {
    if (stopped) return;
    tick()
      .catch((err) => console.error("[accord] demo autopilot:", err instanceof Error ? err.message : err))
      .finally(() => {
        if (!stopped) setTimeout(run, intervalMs).unref?.();
      });
  };
  setTimeout(run, 1_000).unref?.();
  return {
    stop() {
      stopped = true;
    },
  };
}
