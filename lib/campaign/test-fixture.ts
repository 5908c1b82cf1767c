import "server-only";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from "@/lib/crowd/simulator/server";
import { testWorker } from "@/lib/crowd/test-fixtures";
import { createMturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { goldQuestionId } from "@/lib/crowd/mturk/qualification-xml";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { Db, Prisma } from "@/lib/db/client";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import type { DbFlavor } from "@/lib/db/url";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs, type JobRegistry } from "@/lib/jobs/runner";
import { createHitBatch, type PublishOptions } from "./publish";
import { createQualificationTest } from "./qualification";
import { flushSyncFollowUps, syncDueHits } from "./sync";
import { PROVIDER_KIND, QUALIFICATION_STATUS, TWEET_ROLE } from "@/lib/db/enums";

/**
 * A campaign under test: a fresh database with one event (unknown + gold tweets with known true labels), the
 * MTurk simulator in-process with a manual clock and scripted (passive) workers, and the real SDK provider
 * pointed at it. Workers act only when the test tells them to, answer by a function of the tweet.
 */
export const LABELS = HUMAID_LABELS.map((l) => l.value);

export type CampaignFixture = {
  t: TestDb;
  db: Db;
  sim: RunningSimulator;
  clock: ManualClock;
  provider: CrowdProvider;
  /** Accord's jobs, publishing through `provider`. */
  jobs: JobRegistry;
  eventId: string;
  /** true label per tweet row id (unknown and gold). */
  truth: Map<string, string>;
  close(): Promise<void>;
};

export async function setupCampaign({
  flavor = "sqlite",
  unknown = 40,
  gold = 20,
  workerIds = ["AWORKER0000001", "AWORKER0000002", "AWORKER0000003", "AWORKER0000004", "AWORKER0000005", "ASPAMMER000001"],
  settings = {},
  simulator = {},
}: {
  flavor?: DbFlavor;
  unknown?: number;
  gold?: number;
  workerIds?: string[];
  settings?: Prisma.InputJsonObject;
  simulator?: Omit<StartSimulatorOptions, "clock" | "workers">;
} = {}): Promise<CampaignFixture> {
  const t = await createTestDb(flavor);
  const db = t.db;
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({
    data: { slug: "test-event", name: "Test Event 2026", type: "flood", schemeId, provider: PROVIDER_KIND.mturk, locations: [], settings, filters: {} },
  });
  const truth = new Map<string, string>();
  const rows = [
    ...Array.from({ length: unknown }, (_, i) => ({ role: TWEET_ROLE.unknown, i, label: LABELS[i % LABELS.length] })),
    ...Array.from({ length: gold }, (_, i) => ({ role: TWEET_ROLE.gold, i, label: LABELS[(i * 3) % LABELS.length] })),
  ];
  for (const r of rows) {
    const tw = await db.tweet.create({
      data: {
        eventId: event.id,
        externalId: `${r.role === TWEET_ROLE.gold ? 9 : 1}${String(r.i).padStart(17, "0")}`,
        text: `${r.role} tweet ${r.i} about ${r.label.replace(/_/g, " ")} <b>&amp;</b>`,
        role: r.role,
        goldLabel: r.role === TWEET_ROLE.gold ? r.label : null,
        sourceLabel: r.role === TWEET_ROLE.unknown ? r.label : null,
      },
    });
    truth.set(tw.id, r.label);
  }
  const clock = new ManualClock();
  const sim = await startSimulator({ seed: 7, clock, workers: workerIds.map((id) => testWorker(id)), ...simulator });
  const provider = createMturkProvider({ mode: "simulator", simulatorUrl: sim.url, maxAttempts: 10 });
  const jobs = accordJobs({ provider });
  return {
    t,
    db,
    sim,
    clock,
    provider,
    jobs,
    eventId: event.id,
    truth,
    async close() {
      await sim.stop();
      await t.cleanup();
    },
  };
}

/** The publish form of the campaign tests. */
export const PUBLISH_OPTIONS: PublishOptions = {
  hitCount: 2,
  rewardCents: 50,
  lifetimeSeconds: 3 * 24 * 3600,
  durationSeconds: 3600,
  autoApprovalSeconds: 3 * 24 * 3600,
  title: "Categorise 30 disaster tweets",
  description: "Choose the humanitarian category of each tweet",
  keywords: "tweets",
};

/** Publishes queued batches (the publish job, run in-process). */
export async function publishQueued(f: CampaignFixture) {
  return drainJobs(f.db, { registry: f.jobs, types: [JOBS.publish.type] });
}

/** The event's qualification test, then one batch (PUBLISH_OPTIONS with `options` over them) queued and published. */
export async function publishTestBatch(f: CampaignFixture, options: Partial<PublishOptions> = {}) {
  await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
  const { batch } = await createHitBatch({ db: f.db, eventId: f.eventId, provider: f.provider, options: { ...PUBLISH_OPTIONS, ...options } });
  const outcome = await publishQueued(f);
  if (outcome.join() !== "succeeded") throw new Error(`the publish job ended ${outcome.join()}`);
  return batch;
}

/** A passive worker takes the event's qualification test with `correct` right answers out of the questions. */
export async function takeTest(f: CampaignFixture, workerId: string, correct: number) {
  const { test, answers } = await testAnswers(f, correct);
  return f.sim.service.takeQualificationTest({ workerId, qualificationTypeId: test.providerQualTypeId as string, answers });
}

/** The event's active qualification test and answers to it (question id → label), the first `correct` of them right. */
export async function testAnswers(f: Pick<CampaignFixture, "db" | "eventId" | "truth">, correct: number) {
  const test = await f.db.qualificationTest.findFirstOrThrow({ where: { eventId: f.eventId, status: QUALIFICATION_STATUS.active } });
  const answers: Record<string, string> = {};
  (test.goldTweetIds as string[]).forEach((id, i) => {
    const right = f.truth.get(id) as string;
    answers[goldQuestionId(i + 1)] = i < correct ? right : otherLabel(right);
  });
  return { test, answers };
}

export function otherLabel(label: string, shift = 1): string {
  return LABELS[(LABELS.indexOf(label) + shift) % LABELS.length];
}

export type ItemView = { itemId: string; tweetId: string; position: number; isGold: boolean; truth: string; index: number };

/**
 * A worker accepts and submits one HIT. `answer(item)` returns the label, or null to leave the tweet unanswered.
 * Unknown items are given to `answer` with `index` = their order among the HIT's unknown items (0–19), gold ones
 * with their order among the gold items (0–9).
 */
export async function work(f: CampaignFixture, workerId: string, hitId: string, answer: (item: ItemView) => string | null) {
  const { providerHitId, fields } = await hitAnswerFields(f, hitId, answer);
  const assignmentId = f.sim.service.acceptHit({ workerId, hitId: providerHitId });
  f.clock.advance(120);
  f.sim.service.submitAssignment({ assignmentId, fields });
  return assignmentId;
}

/** The HIT's provider id and the fields a worker posts for it: one label per item by `answer` (null: left out). */
export async function hitAnswerFields(f: Pick<CampaignFixture, "db" | "truth">, hitId: string, answer: (item: ItemView) => string | null) {
  const hit = await f.db.hit.findUniqueOrThrow({ where: { id: hitId }, select: { providerHitId: true, items: { orderBy: { position: "asc" }, select: { id: true, tweetId: true, position: true, isGold: true } } } });
  let u = 0;
  let g = 0;
  const fields: Record<string, string> = {};
  for (const it of hit.items) {
    const view: ItemView = { itemId: it.id, tweetId: it.tweetId, position: it.position, isGold: it.isGold, truth: f.truth.get(it.tweetId) as string, index: it.isGold ? g++ : u++ };
    const label = answer(view);
    if (label !== null) fields[hitFieldName(it.position + 1, it.id)] = label;
  }
  return { providerHitId: hit.providerHitId as string, fields };
}

/** Gold: the first `goldCorrect` gold items right, the rest wrong; unknown: by `unknown(item)`. */
export function answers(goldCorrect: number, unknown: (item: ItemView) => string | null): (item: ItemView) => string | null {
  return (item) => (item.isGold ? (item.index < goldCorrect ? item.truth : otherLabel(item.truth)) : unknown(item));
}

/** Runs sync passes until nothing changes (bounded). */
export async function syncUntilIdle(f: CampaignFixture, { passes = 20 }: { passes?: number } = {}) {
  let total = 0;
  for (let i = 0; i < passes; i++) {
    const before = await fingerprint(f.db);
    const r = await syncDueHits(f.db, { owner: "test", minIntervalMs: 0, provider: f.provider, limit: 100 });
    total += r.synced;
    if (r.errors) throw new Error(`sync errors: ${JSON.stringify(await f.db.hit.findMany({ where: { syncError: { not: null } }, select: { syncError: true } }))}`);
    if ((await fingerprint(f.db)) === before) break;
  }
  await flushSyncFollowUps(f.db);
  return total;
}

async function fingerprint(db: Db): Promise<string> {
  const [a, h, l] = await Promise.all([
    db.assignment.findMany({ select: { id: true, status: true, decisionSentAt: true }, orderBy: { id: "asc" } }),
    db.hit.findMany({ select: { id: true, status: true, maxAssignments: true }, orderBy: { id: "asc" } }),
    db.acceptedLabel.count(),
  ]);
  return JSON.stringify([a.map((x) => [x.id, x.status, Boolean(x.decisionSentAt)]), h, l]);
}
