import "server-only";
import { setImmediate as pause } from "node:timers/promises";
import { z } from "zod";
import type { Db, Prisma } from "@/lib/db/client";
import { JOBS, type JobPayload } from "@/lib/jobs/job-types";
import { enqueueJob } from "@/lib/jobs/queue";
import type { JobContext } from "@/lib/jobs/runner";
import { publishLive } from "@/lib/live/bus";
import { dawidSkenePausing } from "@/lib/metrics/dawid-skene";
import { encodeJudgments, type Judgment, labelCounts } from "@/lib/metrics/judgments";
import { majorityVote } from "@/lib/metrics/majority-vote";
import { eventAgreementReport } from "@/lib/metrics/report";
import { readEventSettings } from "./event-settings";
import { bootstrapTable3Pausing } from "@/lib/metrics/bootstrap";
import { selectItems } from "@/lib/metrics/table3";
import { countedJudgments } from "./counted-judgments";
import { computeGoldStats } from "./gold-health";
import { schemeLabelValues } from "@/lib/labels/schemes";
import { ASSIGNMENT_STATUS, JOB_STATE } from "@/lib/db/enums";

/**
 * The event's agreement analysis over ALL its approved judgments: the paper's Table 3, agreement per label,
 * majority vote against Dawid–Skene (with the event's gold tweets anchoring the worker confusion
 * matrices), and the gold health statistics (lib/events/gold-health.ts). At HumAID scale this reads hundreds of thousands of judgments, so it runs as a background job
 * (type "event-analysis") whose result is kept in the job row; the Agreement tab shows the latest result
 * and asks for a new one when decisions have been made since.
 */
export const EVENT_ANALYSIS_JOB = JOBS.eventAnalysis.type;

/** Tweets whose Dawid–Skene label differs from the majority vote, listed at most. */
export const MAX_LISTED_DIFFERENCES = 300;

/** A finished analysis is not redone within this time, even when stale (a campaign decides every second). */
export const ANALYSIS_MIN_INTERVAL_MS = 10_000;

const finiteOrNull = z.number().nullable();
const intervalSchema = z.tuple([z.number(), z.number()]).nullable();
const table3IntervalsSchema = z.object({ fleissKappa: intervalSchema, averageObservedAgreement: intervalSchema, krippendorffAlpha: intervalSchema, averageMajorityAgreement: intervalSchema });

export const eventAnalysisSchema = z.object({
  version: z.string(),
  computedAt: z.string(),
  judgments: z.number(),
  tweets: z.number(),
  workers: z.number(),
  table3: z.object({
    fleissKappa: finiteOrNull,
    krippendorffAlpha: finiteOrNull,
    averageObservedAgreement: finiteOrNull,
    averageMajorityAgreement: finiteOrNull,
    firstJudgmentsItems: z.number(),
    excludedItems: z.number(),
    pairableItems: z.number(),
  }),
  /** Bootstrap 95% intervals of Table 3 (1,000 seeded resamples over tweets), per scope. */
  intervals: z.object({ agreed: table3IntervalsSchema, all: table3IntervalsSchema }).optional(),
  perLabel: z.array(
    z.object({
      label: z.string(),
      judgments: z.number(),
      /** Specific agreement: of the pairs of judgments that include this label, the share where both chose it. */
      specificAgreement: finiteOrNull,
      majority: z.number(),
      /** Mean share of votes for the label on the tweets the majority vote accepted with it. */
      meanAgreement: finiteOrNull.default(null),
      dawidSkene: z.number(),
    }),
  ),
  comparison: z.object({
    tweets: z.number(),
    sameLabel: z.number(),
    differentLabel: z.number(),
    /** The majority vote gives no accepted label (below the acceptance rule or a tie); Dawid–Skene does. */
    majorityUndecided: z.number(),
    majorityAccepted: z.number(),
    dawidSkeneConverged: z.boolean(),
    dawidSkeneIterations: z.number(),
    goldAnchors: z.number(),
  }),
  goldStats: z
    .array(
      z.object({
        tweetId: z.string(),
        shown: z.number(),
        missed: z.number(),
        goodShown: z.number(),
        goodMissed: z.number(),
        topWrongLabel: z.string().nullable(),
        topWrongCount: z.number(),
      }),
    )
    .default([]),
  differences: z.array(
    z.object({
      tweetId: z.string(),
      majority: z.string().nullable(),
      majorityAccepted: z.boolean(),
      dawidSkene: z.string(),
      posterior: z.number(),
      votes: z.record(z.string(), z.number()),
    }),
  ),
  differencesTotal: z.number(),
});

export type EventAnalysis = z.infer<typeof eventAnalysisSchema>;

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * What the analysis depends on: the latest assignment decision of the event (every approval, rejection or
 * re-decision writes an audit row), found through the (eventId, at) index.
 */
export async function analysisVersion(db: Db, eventId: string): Promise<string> {
  const last = await db.auditLog.findFirst({ where: { eventId, entityType: "assignment" }, orderBy: { at: "desc" }, select: { at: true, id: true } });
  return last ? `${last.at.toISOString()}#${last.id}` : "none";
}

/**
 * Loads the judgments and computes the analysis. It runs in the web server's process (the job runner): it pauses
 * between its reads and steps and inside the bootstrap, so the server's requests do not wait for all of it.
 */
export async function computeEventAnalysis(db: Db, eventId: string): Promise<EventAnalysis> {
  const version = await analysisVersion(db, eventId);
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, settings: true, schemeId: true } });
  const settings = readEventSettings(event);
  const schemeLabels = await schemeLabelValues(db, event.schemeId);
  // One read after the other with a pause between: on SQLite each is one block of the server's event loop.
  const judgments = await countedJudgments(db, eventId);
  await pause();
  // Every graded assignment's gold answers: gold health uses them all, Dawid–Skene the approved ones.
  const goldRows = await db.judgment.findMany({
    where: { isGold: true, tweet: { eventId }, assignment: { goldTotal: { not: null } } },
    select: { tweetId: true, workerId: true, label: true, correct: true, tweet: { select: { goldLabel: true } }, assignment: { select: { status: true, goldCorrect: true, goldTotal: true } } },
    orderBy: [{ createdAt: "asc" }, { assignmentId: "asc" }],
  });
  await pause();
  const acceptedRows = await db.acceptedLabel.findMany({ where: { eventId }, select: { tweetId: true } });
  await pause();
  // Labels outside the scheme (a changed scheme) still count, after the scheme's own.
  const labels = [...schemeLabels];
  const known = new Set(labels);
  const addLabel = (label: string) => {
    if (known.has(label)) return;
    known.add(label);
    labels.push(label);
  };
  for (const j of judgments) addLabel(j.label);
  const unknownData = encodeJudgments(judgments, { labels, duplicates: "first" });
  const report = eventAgreementReport(unknownData);
  const agreedIds = new Set(acceptedRows.map((a) => a.tweetId));
  const intervals = {
    agreed: await bootstrapTable3Pausing(
      selectItems(unknownData, (i) => agreedIds.has(unknownData.items[i])),
      pause,
    ),
    all: await bootstrapTable3Pausing(unknownData, pause),
  };
  const mv = majorityVote(unknownData, { acceptance: settings.tweetAcceptance, minJudgments: settings.judgmentsPerTweet });

  // Dawid–Skene over unknown + gold judgments; gold tweets keep their expert label.
  const gold = new Map<string, string>();
  const goldJudgments: Judgment[] = [];
  for (const r of goldRows) {
    if (!r.tweet.goldLabel || r.assignment.status !== ASSIGNMENT_STATUS.approved) continue;
    gold.set(r.tweetId, r.tweet.goldLabel);
    goldJudgments.push({ item: r.tweetId, annotator: r.workerId, label: r.label });
    addLabel(r.label);
    addLabel(r.tweet.goldLabel);
  }
  const dsData = goldJudgments.length ? encodeJudgments([...judgments, ...goldJudgments], { labels, duplicates: "first" }) : unknownData;
  await pause();
  const ds = judgments.length ? await dawidSkenePausing(dsData, pause, { gold, maxIterations: 50, tolerance: 1e-6, smoothing: 0.01 }) : null;
  await pause();
  const dsIndexOf = new Map<string, number>();
  if (ds) ds.items.forEach((item, i) => dsIndexOf.set(item, i));

  const counts = labelCounts(unknownData);
  const K = counts.nLabels;
  const perLabel = unknownData.labels.map((label, k) => {
    let judgmentsOfLabel = 0;
    let agreeingPairs = 0;
    let pairs = 0;
    for (let i = 0; i < counts.nItems; i++) {
      const n = counts.counts[i * K + k];
      const r = counts.raters[i];
      judgmentsOfLabel += n;
      if (r >= 2) {
        agreeingPairs += n * (n - 1);
        pairs += n * (r - 1);
      }
    }
    return { label, judgments: judgmentsOfLabel, specificAgreement: pairs > 0 ? agreeingPairs / pairs : null, majority: 0, meanAgreement: null as number | null, dawidSkene: 0 };
  });
  const perLabelIndex = new Map(perLabel.map((p, k) => [p.label, k]));

  let sameLabel = 0;
  let differentLabel = 0;
  let majorityUndecided = 0;
  const differences: EventAnalysis["differences"] = [];
  let differencesTotal = 0;
  for (let i = 0; i < unknownData.items.length; i++) {
    const item = unknownData.items[i];
    const dsItem = dsIndexOf.get(item);
    if (!ds || dsItem === undefined) continue;
    const dsLabel = ds.itemLabels[dsItem];
    const dsIndex = perLabelIndex.get(dsLabel);
    if (dsIndex !== undefined) perLabel[dsIndex].dawidSkene++;
    const p = mv.plurality[i];
    const plurality = p >= 0 ? unknownData.labels[p] : null;
    const accepted = mv.accepted[i] === 1;
    if (accepted && plurality) {
      const entry = perLabel[p];
      // Running mean of top/total over the tweets accepted with this label.
      entry.majority++;
      entry.meanAgreement = (entry.meanAgreement ?? 0) + (mv.top[i] / mv.total[i] - (entry.meanAgreement ?? 0)) / entry.majority;
    }
    if (!accepted) majorityUndecided++;
    else if (plurality === dsLabel) sameLabel++;
    else differentLabel++;
    if (plurality !== dsLabel) {
      differencesTotal++;
      if (differences.length < MAX_LISTED_DIFFERENCES) {
        const votes: Record<string, number> = {};
        for (let k = 0; k < K; k++) if (counts.counts[i * K + k] > 0) votes[unknownData.labels[k]] = counts.counts[i * K + k];
        differences.push({
          tweetId: item,
          majority: plurality,
          majorityAccepted: accepted,
          dawidSkene: dsLabel,
          posterior: ds.posteriors[dsItem * ds.labels.length + ds.labels.indexOf(dsLabel)],
          votes,
        });
      }
    }
  }

  const goldStats = computeGoldStats(
    goldRows.map((r) => ({ tweetId: r.tweetId, label: r.label, correct: r.correct, assignmentGoldCorrect: r.assignment.goldCorrect, assignmentGoldTotal: r.assignment.goldTotal })),
    settings.assignmentApproval,
  );

  return {
    version,
    computedAt: new Date().toISOString(),
    goldStats,
    judgments: unknownData.label.length,
    tweets: unknownData.items.length,
    workers: unknownData.annotators.length,
    table3: {
      fleissKappa: finite(report.fleissKappa),
      krippendorffAlpha: finite(report.krippendorffAlpha),
      averageObservedAgreement: finite(report.averageObservedAgreement),
      averageMajorityAgreement: finite(report.averageMajorityAgreement),
      firstJudgmentsItems: report.firstJudgments.items,
      excludedItems: report.firstJudgments.excludedItems,
      pairableItems: report.pairableItems,
    },
    intervals,
    perLabel: perLabel.filter((p) => p.judgments > 0 || schemeLabels.includes(p.label)),
    comparison: {
      tweets: unknownData.items.length,
      sameLabel,
      differentLabel,
      majorityUndecided,
      majorityAccepted: mv.acceptedCount,
      dawidSkeneConverged: ds?.converged ?? false,
      dawidSkeneIterations: ds?.iterations ?? 0,
      goldAnchors: gold.size,
    },
    differences,
    differencesTotal,
  };
}

/** The job handler: computes, keeps only the newest result per event, and tells open pages. */
export async function runEventAnalysisJob(ctx: JobContext, { eventId }: JobPayload<typeof JOBS.eventAnalysis>): Promise<Prisma.InputJsonValue> {
  await ctx.progress(0, 1, "Reading judgments", true);
  const analysis = await computeEventAnalysis(ctx.db, eventId);
  await ctx.db.job.deleteMany({ where: { eventId, type: EVENT_ANALYSIS_JOB, state: { in: [JOB_STATE.succeeded, JOB_STATE.failed, JOB_STATE.cancelled] }, id: { not: ctx.job.id } } });
  publishLive({ eventId, kind: "analysis", data: { judgments: analysis.judgments } });
  return analysis as unknown as Prisma.InputJsonValue;
}

export type AnalysisStatus = {
  analysis: EventAnalysis | null;
  finishedAt: Date | null;
  /** A job is queued or running. */
  running: boolean;
  /** Decisions were made since the shown analysis (or there is none yet). */
  stale: boolean;
  currentVersion: string;
};

export async function analysisStatus(db: Db, eventId: string): Promise<AnalysisStatus> {
  const [latest, active, currentVersion] = await Promise.all([
    db.job.findFirst({ where: { eventId, type: EVENT_ANALYSIS_JOB, state: JOB_STATE.succeeded }, orderBy: { finishedAt: "desc" }, select: { result: true, finishedAt: true } }),
    db.job.count({ where: { eventId, type: EVENT_ANALYSIS_JOB, state: { in: [JOB_STATE.queued, JOB_STATE.running] } } }),
    analysisVersion(db, eventId),
  ]);
  const parsed = latest ? eventAnalysisSchema.safeParse(latest.result) : null;
  const analysis = parsed?.success ? parsed.data : null;
  return { analysis, finishedAt: latest?.finishedAt ?? null, running: active > 0, stale: !analysis || analysis.version !== currentVersion, currentVersion };
}

/**
 * Queues an analysis when the shown one is stale and none is queued or running; returns whether it queued.
 * `force` ignores the minimum interval (a researcher's explicit request).
 */
export async function requestEventAnalysis(db: Db, { eventId, userId, force = false }: { eventId: string; userId?: string | null; force?: boolean }): Promise<boolean> {
  const status = await analysisStatus(db, eventId);
  if (status.running) return false;
  if (!status.stale && !force) return false;
  if (!force && status.finishedAt && Date.now() - status.finishedAt.getTime() < ANALYSIS_MIN_INTERVAL_MS) return false;
  await enqueueJob(db, JOBS.eventAnalysis, { payload: { eventId }, eventId, createdById: userId ?? null, maxAttempts: 2 });
  return true;
}
