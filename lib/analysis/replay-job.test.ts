import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { HIT_STATUS } from "@/lib/db/enums";
import { seedEventFixture } from "@/lib/demo/fixture";
import { UserError } from "@/lib/errors";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { readEventSettings } from "./event-settings";
import { loadRecordedEvent, replayOutcomes, replayThresholds } from "./replay";
import { REPLAY_JOB, replayStatus, startReplay } from "./replay-job";

describe.each(testFlavors())("the replay job on %s", (flavor) => {
  let t: TestDb;
  let eventId: string;
  beforeEach(async () => {
    t = await createTestDb(flavor);
    eventId = (await seedEventFixture(t.db, { slug: "replay_job", tweets: 200, gold: 30, campaign: { hits: 6, seed: 11 } })).eventId;
  });
  afterEach(async () => t.cleanup());

  const registry = accordJobs({ loadClassifier: null });
  const run = () => drainJobs(t.db, { registry, types: [REPLAY_JOB] });
  const current = async () => {
    const e = await t.db.event.findUniqueOrThrow({ where: { id: eventId }, select: { id: true, name: true, settings: true } });
    return { id: e.id, settings: readEventSettings(e) };
  };

  it("runs as a job: progress per rule set, and stores the grid the direct replay computes, with the rules it ran under", async () => {
    const event = await current();
    expect(await replayStatus(t.db, event)).toEqual({ active: null, last: null, failure: null });
    const { jobId } = await startReplay(t.db, { eventId, userId: null });
    const queued = await replayStatus(t.db, event);
    expect(queued.active).toMatchObject({ jobId, state: "queued", done: 0 });
    expect(queued.last).toBeNull();

    expect(await run()).toEqual(["succeeded"]);
    const decided = await t.db.hit.count({ where: { eventId, status: { in: [HIT_STATUS.approved, HIT_STATUS.unresolved] } } });
    expect(decided).toBeGreaterThan(0);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    const rows = replayThresholds(event.settings).length;
    expect(rows).toBeGreaterThan(1);
    // Steps: the decided HITs read, then the rule sets replayed.
    expect([job.progressDone, job.progressTotal]).toEqual([decided + rows, decided + rows]);
    expect(job.message).toBe(`Replaying ${decided} decided HITs: rule set ${rows} of ${rows}`);

    const { active, last, failure } = await replayStatus(t.db, event);
    expect(active).toBeNull();
    expect(failure).toBeNull();
    expect(last).toMatchObject({ hits: decided, ruleChanges: [] });
    expect(last?.outcomes).toEqual(replayOutcomes(await loadRecordedEvent(t.db, eventId), event.settings));
    expect(last?.outcomes[0].actual).toBe(true);
    expect(last?.settings).toEqual(JSON.parse(JSON.stringify(event.settings)));
    expect(last?.finishedAt.getTime()).toBeGreaterThan(0);
  });

  it("reads the recorded work page by page, the same as in one query", async () => {
    const pages: Array<[number, number]> = [];
    const paged = await loadRecordedEvent(t.db, eventId, { perQuery: 4, onHits: async (read, total) => void pages.push([read, total]) });
    expect(pages).toEqual([
      [4, 6],
      [6, 6],
    ]);
    expect(paged).toEqual(await loadRecordedEvent(t.db, eventId, { perQuery: 100 }));
    expect(paged.hits).toHaveLength(6);
  });

  it("refuses a second replay while one is queued, also two started at once, and allows one again when it ended", async () => {
    await startReplay(t.db, { eventId, userId: null });
    await expect(startReplay(t.db, { eventId, userId: null })).rejects.toThrow(UserError);
    await expect(startReplay(t.db, { eventId, userId: null })).rejects.toThrow(/already running/);
    expect(await t.db.job.count({ where: { type: REPLAY_JOB } })).toBe(1);
    expect(await run()).toEqual(["succeeded"]);

    const both = await Promise.allSettled([startReplay(t.db, { eventId, userId: null }), startReplay(t.db, { eventId, userId: null })]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.job.count({ where: { type: REPLAY_JOB, state: { in: ["queued", "running"] } } })).toBe(1);
    expect(await run()).toEqual(["succeeded"]);
    // Only the newest result is kept.
    expect(await t.db.job.count({ where: { type: REPLAY_JOB } })).toBe(1);
  });

  it("is stale once the event's rules change, naming what changed", async () => {
    await startReplay(t.db, { eventId, userId: null });
    await run();
    const before = await current();
    await t.db.event.update({ where: { id: eventId }, data: { settings: { ...before.settings, tweetAcceptance: { num: 3, den: 4 } } } });
    const { last } = await replayStatus(t.db, await current());
    expect(last?.ruleChanges).toEqual(["tweetAcceptance"]);
    // The stored rows stay those of the rules it ran under.
    expect(last?.outcomes[0].tweetAcceptance).toBe(`${before.settings.tweetAcceptance.num}/${before.settings.tweetAcceptance.den}`);
  });

  it("says why the last replay did not succeed", async () => {
    const { jobId } = await startReplay(t.db, { eventId, userId: null });
    await t.db.job.update({ where: { id: jobId }, data: { state: "cancelled", finishedAt: new Date() } });
    expect(await replayStatus(t.db, await current())).toMatchObject({ active: null, last: null, failure: "The last replay was cancelled." });
    // A job whose event is gone fails with a sentence (a UserError), not a retry.
    await t.db.job.create({ data: { type: JOBS.replay.type, payload: { eventId: "no-such-event" }, eventId: null } });
    expect(await run()).toEqual(["failed"]);
  });
});
