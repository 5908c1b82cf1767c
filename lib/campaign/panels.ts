import "server-only";
import type { Db } from "@/lib/db/client";
import { readEventSettings } from "@/lib/events/event-settings";
import { eventCrowd } from "@/lib/events/event-crowd";
import { getCrowdSettings } from "@/lib/crowd/mturk/settings";
import { labelsOfScheme } from "@/lib/events/event-lookup";
import { loadGoldPool } from "@/lib/gold/gold-pool";
import { previewQualificationGold } from "./qualification";
import { qualificationCounts } from "./screening-results";
import { QUALIFICATION_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

// What the event overview's campaign panels show (components/campaign/*-panel.tsx): read here, rendered there.

/** The publish panel: the provider mode, tweets waiting, and the latest batch with its job's progress. */
export async function loadPublishPanel(db: Db, eventId: string) {
  const [crowd, event, batch, pending] = await Promise.all([
    getCrowdSettings(db),
    db.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, provider: true, settings: true } }),
    db.hitBatch.findFirst({ where: { eventId }, orderBy: { createdAt: "desc" }, select: { id: true, hitCount: true, status: true, jobId: true, createdAt: true } }),
    db.tweet.count({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending, duplicateOfId: null } }),
  ]);
  const job = batch?.jobId ? await db.job.findUnique({ where: { id: batch.jobId }, select: { state: true, progressDone: true, progressTotal: true, message: true, error: true } }) : null;
  return { crowd, eventCrowd: await eventCrowd(db, event.provider), event, batch, pending, job };
}

/** The qualification panel: the rules, the latest test, the gold available and tests of other events to reuse. */
export async function loadQualificationPanel(db: Db, eventId: string) {
  const [event, test, gold, reusable] = await Promise.all([
    db.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, settings: true, schemeId: true, provider: true } }),
    db.qualificationTest.findFirst({ where: { eventId }, orderBy: { createdAt: "desc" }, select: { id: true, status: true, providerQualTypeId: true, passPercent: true, goldTweetIds: true, message: true, createdAt: true, _count: { select: { results: true } } } }),
    db.tweet.count({ where: { eventId, role: TWEET_ROLE.gold, retiredAt: null } }),
    db.qualificationTest.findMany({ where: { status: QUALIFICATION_STATUS.active, eventId: { not: eventId } }, select: { id: true, name: true, schemeId: true, provider: true }, take: 50 }),
  ]);
  const settings = readEventSettings(event);
  return {
    settings,
    provider: event.provider,
    // Prolific's test mode: a screening created now is a test study for the test participant.
    testMode: (await eventCrowd(db, event.provider)).testMode,
    // Who took the latest test and passed, as Accord recorded it (Prolific screenings: lib/campaign/screening-results.ts).
    results: test ? await qualificationCounts(db, test.id) : null,
    preview: await previewQualificationGold(db, eventId, settings.qualification.questions),
    labels: await labelsOfScheme(db, event.schemeId),
    pool: await loadGoldPool(db, eventId),
    test,
    gold,
    reusable: reusable.filter((r) => r.schemeId === event.schemeId && r.provider === event.provider).map((r) => ({ id: r.id, name: r.name })),
  };
}
