import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { recordPayments, type Payment } from "@/lib/campaign/ledger";
import { insertMany } from "@/lib/db/bulk";
import { ASSIGNMENT_STATUS, DECISION, HIT_STATUS, PROVIDER_ASSIGNMENT_STATUS, PROVIDER_KIND, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { encodeJudgments, type Judgment as MetricJudgment } from "@/lib/metrics/judgments";
import { eventAgreementReport } from "@/lib/metrics/report";
import { table3BothScopes } from "@/lib/metrics/table3";
import { toStoredScopes } from "@/lib/analysis/table3-scopes";
import { decideHit, decideTweet, type TweetDecision } from "@/lib/procedure/decisions";
import { gradeAssignment } from "@/lib/procedure/grading";
import { packHits } from "@/lib/procedure/hit-packing";
import { readEventSettings } from "@/lib/events/event-settings";
import { createRng, randomInt, type Rng, seedFrom, shuffled } from "@/lib/util/random";

/**
 * Writes the OUTCOME of a finished campaign straight into the database, without a crowd provider: HITs
 * packed by lib/procedure, simulated workers answering with known accuracies, every assignment graded and
 * every tweet and HIT decided by the paper's rules, with the rows the real sync loop writes (judgments,
 * accepted labels, tweet and HIT status, worker statistics, cost ledger, audit log, metric snapshots).
 * For tests, end-to-end fixtures and the dashboard benchmark at HumAID scale — the live demo runs the real
 * campaign engine against the simulator instead.
 */
export type WorkerProfile = { kind: "careful" | "average" | "sloppy" | "spammer"; accuracy: number };

export const DEFAULT_WORKER_MIX: Array<{ profile: WorkerProfile; count: number }> = [
  { profile: { kind: "careful", accuracy: 0.92 }, count: 20 },
  { profile: { kind: "average", accuracy: 0.8 }, count: 20 },
  { profile: { kind: "sloppy", accuracy: 0.6 }, count: 6 },
  { profile: { kind: "spammer", accuracy: 0 }, count: 4 },
];

export type SyntheticCampaignOptions = {
  eventId: string;
  /** True label per tweet id (unknown and gold); gold tweets use their goldLabel when missing here. */
  truth: ReadonlyMap<string, string>;
  /** The event's label values (answers are drawn from them). */
  labels: readonly string[];
  seed?: number | string;
  /** HITs to create at most (default: as many as the pending unknown tweets fill). */
  hits?: number;
  workers?: Array<{ profile: WorkerProfile; count: number }>;
  /** Whose crowd: events with the same crowd share their workers (default: one crowd for every synthetic event). */
  crowd?: string;
  /** Add assignments when a HIT misses 14/20, up to the settings' maximum (default true). */
  extend?: boolean;
  /** When the campaign starts and how long it runs (timestamps of submissions and decisions). */
  startAt?: Date;
  durationMs?: number;
  rewardCents?: number;
  /** Metric snapshots written over the campaign (default 12). */
  snapshots?: number;
  /** Leave this many of the last HITs published but undecided (their assignments submitted, not decided). */
  openHits?: number;
};

export type SyntheticCampaignResult = {
  hits: number;
  assignments: number;
  judgments: number;
  approved: number;
  rejected: number;
  acceptedTweets: number;
  unresolvedTweets: number;
};

type WorkerRow = { id: string; externalId: string; profile: WorkerProfile };

const CHUNK = 2_000;

async function insertChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

function workerExternalId(rng: Rng): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let s = "A";
  for (let i = 0; i < 13; i++) s += alphabet[randomInt(rng, alphabet.length)];
  return s;
}

async function ensureWorkers(db: Db, mix: Array<{ profile: WorkerProfile; count: number }>, rng: Rng): Promise<WorkerRow[]> {
  const wanted: Array<{ externalId: string; profile: WorkerProfile }> = [];
  for (const { profile, count } of mix) for (let i = 0; i < count; i++) wanted.push({ externalId: workerExternalId(rng), profile });
  const existing = await db.worker.findMany({
    where: { provider: PROVIDER_KIND.mturk, externalId: { in: wanted.map((w) => w.externalId) } },
    select: { id: true, externalId: true },
  });
  const have = new Map(existing.map((w) => [w.externalId, w.id]));
  const missing = wanted.filter((w) => !have.has(w.externalId));
  if (missing.length) {
    await db.worker.createMany({ data: missing.map((w) => ({ provider: PROVIDER_KIND.mturk, externalId: w.externalId, qualified: true })) });
    const created = await db.worker.findMany({
      where: { provider: PROVIDER_KIND.mturk, externalId: { in: missing.map((w) => w.externalId) } },
      select: { id: true, externalId: true },
    });
    for (const w of created) have.set(w.externalId, w.id);
  }
  return wanted.map((w) => ({ id: have.get(w.externalId) as string, externalId: w.externalId, profile: w.profile }));
}

function answer(truth: string, profile: WorkerProfile, labels: readonly string[], rng: Rng): string {
  if (profile.kind === "spammer" || rng() >= profile.accuracy) {
    // A wrong (or random) answer: any label, biased away from the truth for non-spammers.
    const other = labels[randomInt(rng, labels.length)];
    return profile.kind === "spammer" || other !== truth ? other : labels[(labels.indexOf(other) + 1) % labels.length];
  }
  return truth;
}

export async function seedSyntheticCampaign(db: Db, options: SyntheticCampaignOptions): Promise<SyntheticCampaignResult> {
  const { eventId, truth, labels } = options;
  const seed = options.seed ?? "synthetic";
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, settings: true, provider: true } });
  const settings = readEventSettings(event);
  const rewardCents = options.rewardCents ?? 50;
  const startAt = (options.startAt ?? new Date(Date.now() - 6 * 3600_000)).getTime();
  const duration = options.durationMs ?? 6 * 3600_000 - 60_000;

  const [unknown, gold, seqAgg] = await Promise.all([
    db.tweet.findMany({ where: { eventId, role: TWEET_ROLE.unknown, status: TWEET_STATUS.pending }, orderBy: { externalId: "asc" }, select: { id: true } }),
    db.tweet.findMany({ where: { eventId, role: TWEET_ROLE.gold, status: { not: TWEET_STATUS.retired } }, orderBy: { externalId: "asc" }, select: { id: true, goldLabel: true } }),
    db.hit.aggregate({ where: { eventId }, _max: { seq: true } }),
  ]);
  const goldLabel = new Map(gold.map((g) => [g.id, g.goldLabel ?? truth.get(g.id) ?? labels[0]]));
  const packed = packHits({ unknownIds: unknown.map((t) => t.id), goldIds: gold.map((g) => g.id), seed: seedFrom(seed, eventId, "pack"), settings });
  const hitsToMake = packed.hits.slice(0, options.hits ?? packed.hits.length);
  // One pool for every event (the same seed), as on MTurk where the same workers take HITs of several events.
  const workers = await ensureWorkers(db, options.workers ?? DEFAULT_WORKER_MIX, createRng(seedFrom(options.crowd ?? "synthetic-workers")));
  const firstSeq = (seqAgg._max.seq ?? 0) + 1;
  const openFrom = hitsToMake.length - Math.min(options.openHits ?? 0, hitsToMake.length);

  const hitRows: Prisma.HitCreateManyInput[] = [];
  const itemRows: Prisma.HitItemCreateManyInput[] = [];
  const assignmentRows: Prisma.AssignmentCreateManyInput[] = [];
  const judgmentRows: Prisma.JudgmentCreateManyInput[] = [];
  const acceptedRows: Prisma.AcceptedLabelCreateManyInput[] = [];
  const payments: Payment[] = [];
  const auditRows: Prisma.AuditLogCreateManyInput[] = [];
  const tweetStatus = new Map<string, string>();
  const workerStats = new Map<string, { submitted: number; approved: number; rejected: number; goldCorrect: number; goldTotal: number; agree: number; agreeTotal: number; seconds: number; earnings: number }>();
  const approvedJudgmentsForMetrics: Array<MetricJudgment & { at: number }> = [];
  let assignmentCounter = 0;
  let approved = 0;
  let rejected = 0;
  let accepted = 0;
  let unresolved = 0;

  const stat = (workerId: string) => {
    let s = workerStats.get(workerId);
    if (!s) {
      s = { submitted: 0, approved: 0, rejected: 0, goldCorrect: 0, goldTotal: 0, agree: 0, agreeTotal: 0, seconds: 0, earnings: 0 };
      workerStats.set(workerId, s);
    }
    return s;
  };

  hitsToMake.forEach((hit, h) => {
    const hitId = `${eventId}-sh${firstSeq + h}`;
    const publishedAt = startAt + Math.floor((h / Math.max(1, hitsToMake.length)) * duration * 0.8);
    const open = h >= openFrom;
    const itemIds = hit.items.map((_, i) => `${hitId}-i${i}`);
    hit.items.forEach((item, i) => itemRows.push({ id: itemIds[i], hitId, tweetId: item.tweetId, position: item.position, isGold: item.isGold }));
    const unknownItems = hit.items.map((it, i) => ({ ...it, itemId: itemIds[i] })).filter((it) => !it.isGold);
    const goldItems = hit.items.map((it, i) => ({ ...it, itemId: itemIds[i] })).filter((it) => it.isGold);
    const approvedLabels = new Map<string, string[]>(unknownItems.map((it) => [it.tweetId, []]));
    const approvedBy = new Map<string, Array<{ workerId: string; label: string }>>(unknownItems.map((it) => [it.tweetId, []]));
    const pool = shuffled(workers, createRng(seedFrom(seed, hitId, "workers")));
    let maxAssignments = settings.judgmentsPerTweet;
    let used = 0;
    let hitApproved = 0;
    let hitRejected = 0;
    let decisions: TweetDecision[] = [];
    let finalState: "approved" | "unresolved" | "published" = HIT_STATUS.published;
    let decidedAt = publishedAt;
    for (let round = 0; ; round++) {
      while (used < maxAssignments && used < pool.length) {
        const worker = pool[used++];
        const aRng = createRng(seedFrom(seed, hitId, worker.id));
        const assignmentId = `${hitId}-a${++assignmentCounter}`;
        const acceptTime = publishedAt + (round * 40 + 2 + randomInt(aRng, 30)) * 60_000;
        const workSeconds = 240 + randomInt(aRng, 900);
        const submitTime = acceptTime + workSeconds * 1000;
        const answers = hit.items.map((it) => answer(it.isGold ? (goldLabel.get(it.tweetId) as string) : (truth.get(it.tweetId) ?? labels[0]), worker.profile, labels, aRng));
        const goldAnswers = goldItems.map((g) => ({ given: answers[g.position], expected: goldLabel.get(g.tweetId) as string }));
        // The whole-record rule sees the worker's gold so far in generation order (stored with the grade's reason).
        const grade = gradeAssignment({ goldAnswers, settings, priorRecord: { correct: stat(worker.id).goldCorrect, total: stat(worker.id).goldTotal } });
        const decided = !open;
        const status = !decided ? ASSIGNMENT_STATUS.submitted : grade.decision === DECISION.approve ? ASSIGNMENT_STATUS.approved : grade.decision === DECISION.reject ? ASSIGNMENT_STATUS.rejected : ASSIGNMENT_STATUS.held;
        const decisionAt = submitTime + 30_000 + randomInt(aRng, 60_000);
        decidedAt = Math.max(decidedAt, decisionAt);
        assignmentRows.push({
          id: assignmentId,
          hitId,
          workerId: worker.id,
          providerAssignmentId: `SYN${assignmentId.replace(/[^A-Za-z0-9]/g, "").slice(-24)}${assignmentCounter}`,
          providerStatus: status === ASSIGNMENT_STATUS.approved ? PROVIDER_ASSIGNMENT_STATUS.Approved : status === ASSIGNMENT_STATUS.rejected ? PROVIDER_ASSIGNMENT_STATUS.Rejected : PROVIDER_ASSIGNMENT_STATUS.Submitted,
          status,
          acceptTime: new Date(acceptTime),
          submitTime: new Date(submitTime),
          autoApprovalTime: new Date(submitTime + 3 * 86400_000),
          goldCorrect: grade.correct,
          goldTotal: grade.total,
          decision: decided ? grade.decision : null,
          decisionReason: decided ? (grade.reason as unknown as Prisma.InputJsonValue) : undefined,
          decidedBy: decided ? "system" : null,
          decidedAt: decided ? new Date(decisionAt) : null,
          decisionSentAt: decided ? new Date(decisionAt + 1000) : null,
          feedback: decided && grade.decision !== DECISION.approve ? grade.reason.text : null,
          createdAt: new Date(submitTime),
        });
        const s = stat(worker.id);
        s.submitted++;
        s.seconds += workSeconds;
        s.goldCorrect += grade.correct;
        s.goldTotal += grade.total;
        hit.items.forEach((it, i) => {
          const label = answers[i];
          judgmentRows.push({
            assignmentId,
            hitItemId: itemIds[i],
            tweetId: it.tweetId,
            workerId: worker.id,
            label,
            isGold: it.isGold,
            correct: it.isGold ? label === goldLabel.get(it.tweetId) : null,
            counted: status === ASSIGNMENT_STATUS.approved && !it.isGold,
            createdAt: new Date(submitTime),
          });
          if (status === ASSIGNMENT_STATUS.approved && !it.isGold) {
            approvedLabels.get(it.tweetId)?.push(label);
            approvedBy.get(it.tweetId)?.push({ workerId: worker.id, label });
            approvedJudgmentsForMetrics.push({ item: it.tweetId, annotator: worker.id, label, order: submitTime, at: decisionAt });
          }
        });
        if (!decided) continue;
        if (status === ASSIGNMENT_STATUS.approved) {
          approved++;
          hitApproved++;
          s.approved++;
          s.earnings += rewardCents;
          payments.push({ eventId, hitId, assignmentId, workerId: worker.id, rewardCents, maxAssignments, at: new Date(decisionAt) });
        } else if (status === ASSIGNMENT_STATUS.rejected) {
          rejected++;
          hitRejected++;
          s.rejected++;
        }
        auditRows.push({
          at: new Date(decisionAt),
          actorType: "system",
          eventId,
          entityType: "assignment",
          entityId: assignmentId,
          action: grade.decision,
          reason: grade.reason.text,
          details: { rule: grade.reason.rule, correct: grade.correct, total: grade.total, threshold: `${settings.assignmentApproval.num}/${settings.assignmentApproval.den}`, hitId, workerId: worker.id },
        });
      }
      if (open) break;
      decisions = unknownItems.map((it) => decideTweet({ labels: approvedLabels.get(it.tweetId) ?? [], settings }));
      const hitDecision = decideHit({ tweetStates: decisions, currentAssignments: maxAssignments, settings });
      if (hitDecision.state === "extend" && options.extend !== false && used + hitDecision.extraAssignments <= pool.length) {
        maxAssignments += hitDecision.extraAssignments;
        continue;
      }
      finalState = hitDecision.state === HIT_STATUS.approved ? HIT_STATUS.approved : HIT_STATUS.unresolved;
      break;
    }
    let hitAccepted = 0;
    unknownItems.forEach((it, i) => {
      if (open) {
        tweetStatus.set(it.tweetId, TWEET_STATUS.in_hit);
        return;
      }
      const d = decisions[i];
      if (d.state === TWEET_STATUS.accepted && d.label) {
        hitAccepted++;
        accepted++;
        tweetStatus.set(it.tweetId, TWEET_STATUS.accepted);
        acceptedRows.push({ tweetId: it.tweetId, eventId, label: d.label, topVotes: d.top, totalVotes: d.total, votes: d.votes, method: "majority", decidedAt: new Date(decidedAt) });
        for (const j of approvedBy.get(it.tweetId) ?? []) {
          const s = stat(j.workerId);
          s.agreeTotal++;
          if (j.label === d.label) s.agree++;
        }
      } else {
        unresolved++;
        tweetStatus.set(it.tweetId, TWEET_STATUS.unresolved);
      }
    });
    hitRows.push({
      id: hitId,
      eventId,
      seq: firstSeq + h,
      provider: event.provider,
      providerHitId: `SYNHIT${eventId.slice(-10)}${firstSeq + h}`,
      uniqueRequestToken: `syn-${hitId}`,
      status: finalState,
      maxAssignments,
      rewardCents,
      seed: seedFrom(seed, hitId) & 0x7fffffff,
      approvedCount: hitApproved,
      rejectedCount: hitRejected,
      acceptedTweets: hitAccepted,
      publishedAt: new Date(publishedAt),
      expiresAt: new Date(publishedAt + 7 * 86400_000),
      decidedAt: open ? null : new Date(decidedAt),
      lastSyncedAt: new Date(decidedAt),
      createdAt: new Date(publishedAt),
    });
    if (!open) {
      auditRows.push({
        at: new Date(decidedAt + 1000),
        actorType: "system",
        eventId,
        entityType: "hit",
        entityId: hitId,
        action: finalState === HIT_STATUS.approved ? "approve-hit" : "unresolved-hit",
        reason: `${hitAccepted} of ${unknownItems.length} unknown tweets accepted`,
        details: { accepted: hitAccepted, total: unknownItems.length },
      });
    }
  });

  await insertMany(db, "Hit", hitRows);
  await insertMany(db, "HitItem", itemRows);
  await insertMany(db, "Assignment", assignmentRows);
  await insertMany(db, "Judgment", judgmentRows);
  await insertMany(db, "AcceptedLabel", acceptedRows);
  await recordPayments(db, payments);
  await insertMany(db, "AuditLog", auditRows);
  const byStatus = new Map<string, string[]>();
  for (const [id, status] of tweetStatus) {
    const list = byStatus.get(status) ?? [];
    list.push(id);
    byStatus.set(status, list);
  }
  for (const [status, ids] of byStatus) await insertChunks(ids, (c) => db.tweet.updateMany({ where: { id: { in: c } }, data: { status } }));
  for (const [workerId, s] of workerStats) {
    await db.worker.update({
      where: { id: workerId },
      data: {
        assignmentsSubmitted: { increment: s.submitted },
        assignmentsApproved: { increment: s.approved },
        assignmentsRejected: { increment: s.rejected },
        goldCorrect: { increment: s.goldCorrect },
        goldTotal: { increment: s.goldTotal },
        agreeCount: { increment: s.agree },
        agreeTotal: { increment: s.agreeTotal },
        workSeconds: { increment: s.seconds },
        earningsCents: { increment: s.earnings },
        lastSeenAt: new Date(startAt + duration),
      },
    });
  }
  await writeSnapshots(db, eventId, approvedJudgmentsForMetrics, accepted, options.snapshots ?? 12);
  return { hits: hitRows.length, assignments: assignmentRows.length, judgments: judgmentRows.length, approved, rejected, acceptedTweets: accepted, unresolvedTweets: unresolved };
}

/**
 * Metric snapshots at evenly spaced moments of the campaign, computed with lib/metrics as the sync loop does, in
 * both Table 3 scopes (the agreed scope uses the campaign's final accepted labels).
 */
async function writeSnapshots(db: Db, eventId: string, judgments: Array<MetricJudgment & { at: number }>, acceptedTotal: number, count: number) {
  if (judgments.length === 0 || count <= 0) return;
  const agreedIds = new Set((await db.acceptedLabel.findMany({ where: { eventId }, select: { tweetId: true } })).map((a) => a.tweetId));
  const sorted = judgments.slice().sort((a, b) => a.at - b.at);
  const rows: Prisma.MetricSnapshotCreateManyInput[] = [];
  for (let s = 1; s <= count; s++) {
    const upTo = Math.max(1, Math.round((s / count) * sorted.length));
    const part = sorted.slice(0, upTo).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    const data = encodeJudgments(part, { duplicates: "first" });
    const report = eventAgreementReport(data);
    const scopes = toStoredScopes(table3BothScopes(data, { isAgreed: (i) => agreedIds.has(data.items[i]!) }));
    const finite = (x: number) => (Number.isFinite(x) ? x : null);
    rows.push({
      eventId,
      at: new Date(sorted[upTo - 1].at),
      judgments: upTo,
      tweetsAccepted: Math.round((upTo / sorted.length) * acceptedTotal),
      fleissKappa: finite(report.fleissKappa),
      krippendorffAlpha: finite(report.krippendorffAlpha),
      averageObservedAgreement: finite(report.averageObservedAgreement),
      averageMajorityAgreement: finite(report.averageMajorityAgreement),
      scopes: scopes as unknown as Prisma.InputJsonValue,
    });
  }
  await db.metricSnapshot.createMany({ data: rows });
}
