import { writeAudit } from "@/lib/audit/write-audit";
import { isCrowdError } from "@/lib/crowd/errors";
import { assignmentFeeCents } from "@/lib/crowd/mturk/fees";
import { parseHitAnswers } from "@/lib/crowd/mturk/hit-question";
import type { CrowdAssignment, CrowdProvider } from "@/lib/crowd/provider";
import { type Db, flavorOf } from "@/lib/db/client";
import { publishLive } from "@/lib/live/bus";
import { decideHitFromJudgments } from "@/lib/procedure/decisions";
import { gradeAssignment } from "@/lib/procedure/grading";
import { newId } from "@/lib/ingest/bulk-insert";
import { type BulkColumn, insertRows } from "./bulk-rows";
import { loadEventContext, type EventContext } from "./context";
import { getProvider } from "./providers";
import { recordMetricSnapshot } from "./snapshots";
import { refreshWorkerStats } from "./worker-stats";

/**
 * The sync loop's work for one HIT, in order:
 *   1. fetch its submitted assignments (paginated) and store each new one with one judgment per tweet;
 *   2. grade gold (≥ 7/10 → approve, else reject with the rule and the score as feedback, or hold) — the decision
 *      is recorded in the database FIRST (compare-and-set on a null decision, so no assignment is ever decided
 *      twice, even by two processes), then sent to the provider, then marked delivered;
 *   3. recompute the HIT's unknown tweets from approved judgments (2 of 3) and decide the HIT (≥ 14/20 →
 *      approved; else extra assignments up to 5, or unresolved);
 *   4. refresh worker statistics and the cost ledger; 5. notify the live dashboard.
 * Every step is idempotent: running it again after a crash or a provider error changes nothing twice.
 */
export type SyncHitResult = {
  newAssignments: number;
  decided: { approve: number; reject: number; hold: number };
  delivered: number;
  hitDecision: "approved" | "extended" | "unresolved" | null;
  extraAssignments: number;
};

const JUDGMENT_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "assignmentId", type: "text" },
  { name: "hitItemId", type: "text" },
  { name: "tweetId", type: "text" },
  { name: "workerId", type: "text" },
  { name: "label", type: "text" },
  { name: "isGold", type: "boolean" },
  { name: "correct", type: "boolean" },
  { name: "counted", type: "boolean" },
  { name: "createdAt", type: "timestamp" },
];
const ACCEPTED_LABEL_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "tweetId", type: "text" },
  { name: "eventId", type: "text" },
  { name: "label", type: "text" },
  { name: "topVotes", type: "integer" },
  { name: "totalVotes", type: "integer" },
  { name: "votes", type: "json" },
  { name: "method", type: "text" },
  { name: "decidedAt", type: "timestamp" },
];

type HitRow = {
  id: string;
  eventId: string;
  status: string;
  providerHitId: string | null;
  maxAssignments: number;
  rewardCents: number;
  expiresAt: Date | null;
  batch: { lifetimeSeconds: number } | null;
  items: Array<{ id: string; position: number; isGold: boolean; tweetId: string; tweet: { externalId: string; text: string; goldLabel: string | null } }>;
};

export async function syncHit({
  db,
  hitId,
  provider: injected,
  context,
  followUps,
}: {
  db: Db;
  hitId: string;
  provider?: CrowdProvider;
  context?: EventContext;
  /** Collects the worker statistics and snapshots to refresh instead of refreshing them now (runSyncFollowUps). */
  followUps?: SyncFollowUps;
}): Promise<SyncHitResult> {
  const hit = (await db.hit.findUniqueOrThrow({
    where: { id: hitId },
    select: {
      id: true,
      eventId: true,
      status: true,
      providerHitId: true,
      maxAssignments: true,
      rewardCents: true,
      expiresAt: true,
      batch: { select: { lifetimeSeconds: true } },
      items: { orderBy: { position: "asc" }, select: { id: true, position: true, isGold: true, tweetId: true, tweet: { select: { externalId: true, text: true, goldLabel: true } } } },
    },
  })) as HitRow;
  const ctx = context ?? (await loadEventContext(db, hit.eventId));
  const provider = injected ?? (await getProvider(db, ctx.event.provider));
  const result: SyncHitResult = { newAssignments: 0, decided: { approve: 0, reject: 0, hold: 0 }, delivered: 0, hitDecision: null, extraAssignments: 0 };
  if (!hit.providerHitId) return result;

  // 1. Ingest.
  const remote: CrowdAssignment[] = [];
  for await (const a of provider.listSubmittedAssignments({ providerHitId: hit.providerHitId })) remote.push(a);
  const known = new Map(
    (await db.assignment.findMany({ where: { hitId: hit.id }, select: { id: true, providerAssignmentId: true, providerStatus: true } })).map((a) => [a.providerAssignmentId, a]),
  );
  const touchedWorkers = new Set<string>();
  for (const a of remote) {
    const mine = known.get(a.assignmentId);
    if (!mine) {
      // The HIT's tweets become "judged" with its first assignment (later ones need not touch them again).
      const first = known.size === 0 && result.newAssignments === 0;
      if (await ingestAssignment({ db, hit, ctx, provider, assignment: a, markJudged: first })) result.newAssignments++;
    } else if (mine.providerStatus !== a.status) {
      await db.assignment.update({ where: { id: mine.id }, data: { providerStatus: a.status } });
    }
  }

  // 2. Decide what is undecided; deliver what is decided but not delivered.
  const assignments = await db.assignment.findMany({
    where: { hitId: hit.id },
    select: {
      id: true,
      providerAssignmentId: true,
      providerStatus: true,
      status: true,
      decision: true,
      decisionSentAt: true,
      feedback: true,
      workerId: true,
      judgments: { where: { isGold: true }, select: { hitItemId: true, label: true } },
    },
  });
  for (const a of assignments) {
    if (a.decision === null && a.providerStatus === "Submitted") {
      const given = new Map(a.judgments.map((j) => [j.hitItemId, j.label]));
      const goldAnswers = hit.items.filter((it) => it.isGold && it.tweet.goldLabel).map((it) => ({ given: given.get(it.id) ?? null, expected: it.tweet.goldLabel as string }));
      const grade = gradeAssignment({ goldAnswers, settings: ctx.settings });
      const claimed = await db.assignment.updateMany({
        where: { id: a.id, decision: null },
        data: {
          decision: grade.decision,
          decisionReason: grade.reason,
          decidedBy: "system",
          decidedAt: new Date(),
          goldCorrect: grade.correct,
          goldTotal: grade.total,
          feedback: grade.reason.text,
          ...(grade.decision === "hold" ? { status: "held" } : {}),
        },
      });
      if (claimed.count === 1) {
        result.decided[grade.decision]++;
        a.decision = grade.decision;
        a.feedback = grade.reason.text;
        await writeAudit(db, {
          actorType: "system",
          eventId: hit.eventId,
          entityType: "assignment",
          entityId: a.id,
          action: grade.decision,
          reason: grade.reason.text,
          details: { hitId: hit.id, rule: grade.reason.rule, correct: grade.correct, total: grade.total, threshold: grade.reason.threshold, required: grade.reason.required },
        });
        publishLive({ eventId: hit.eventId, kind: "decision", data: { assignmentId: a.id, hitId: hit.id, decision: grade.decision, reason: grade.reason.text } });
      }
    }
    if ((a.decision === "approve" || a.decision === "reject") && !a.decisionSentAt) {
      if (await deliverDecision({ db, provider, hit, assignment: a, remoteStatus: a.providerStatus })) result.delivered++;
    }
    touchedWorkers.add(a.workerId);
  }

  // 3. The HIT.
  if (hit.status === "published" || hit.status === "extended") {
    const decision = await maybeDecideHit({ db, provider, hit, ctx });
    if (decision) {
      result.hitDecision = decision.state;
      result.extraAssignments = decision.extra;
    }
  }

  // 4. Counters, workers.
  const [approvedCount, rejectedCount] = await Promise.all([
    db.assignment.count({ where: { hitId: hit.id, status: "approved" } }),
    db.assignment.count({ where: { hitId: hit.id, status: "rejected" } }),
  ]);
  await db.hit.update({ where: { id: hit.id }, data: { approvedCount, rejectedCount, lastSyncedAt: new Date(), syncError: null } });
  if (result.newAssignments || result.delivered || result.hitDecision) {
    if (followUps) {
      for (const w of touchedWorkers) followUps.workers.add(w);
      followUps.events.add(hit.eventId);
    } else await runSyncFollowUps(db, { workers: touchedWorkers, events: new Set([hit.eventId]) });
  }
  return result;
}

/** Worker statistics and agreement snapshots to refresh after syncing (once per pass rather than per HIT). */
export type SyncFollowUps = { workers: Set<string>; events: Set<string> };

export async function runSyncFollowUps(db: Db, followUps: SyncFollowUps): Promise<void> {
  await refreshWorkerStats(db, [...followUps.workers]);
  for (const eventId of followUps.events) await recordMetricSnapshot(db, eventId);
}

/** Stores a newly seen assignment with its worker and one judgment per answered tweet (idempotent). */
async function ingestAssignment({
  db,
  hit,
  ctx,
  provider,
  assignment: a,
  markJudged,
}: {
  db: Db;
  hit: HitRow;
  ctx: EventContext;
  provider: CrowdProvider;
  assignment: CrowdAssignment;
  markJudged: boolean;
}) {
  const parsed = parseHitAnswers({
    answerXml: a.answerXml,
    items: hit.items.map((it) => ({ itemId: it.id, tweetId: it.tweet.externalId, text: it.tweet.text })),
    labels: ctx.labels,
  });
  const itemById = new Map(hit.items.map((it) => [it.id, it]));
  const worker = await db.worker.upsert({
    where: { provider_externalId: { provider: provider.kind, externalId: a.workerId } },
    create: { provider: provider.kind, externalId: a.workerId, userId: provider.kind === "local" ? await localUserId(db, a.workerId) : null },
    update: { lastSeenAt: new Date() },
    select: { id: true },
  });
  // Already decided on the provider when first seen (approved elsewhere, or auto-approved): record it as such.
  const decidedRemotely = a.status !== "Submitted";
  const flavor = flavorOf(db);
  try {
    await db.$transaction(async (tx) => {
      const row = await tx.assignment.create({
        data: {
          hitId: hit.id,
          workerId: worker.id,
          providerAssignmentId: a.assignmentId,
          providerStatus: a.status,
          status: decidedRemotely ? (a.status === "Approved" ? "approved" : "rejected") : "submitted",
          acceptTime: a.acceptedAt ?? null,
          submitTime: a.submittedAt ?? null,
          autoApprovalTime: a.autoApprovalAt ?? null,
          answerRaw: a.answerXml.length <= 200_000 ? a.answerXml : null,
          ...(decidedRemotely ? { decision: a.status === "Approved" ? "approve" : "reject", decidedBy: "provider", decidedAt: a.approvedAt ?? a.rejectedAt ?? new Date(), decisionSentAt: new Date() } : {}),
        },
        select: { id: true },
      });
      const now = new Date();
      await insertRows(
        tx,
        flavor,
        "Judgment",
        JUDGMENT_COLUMNS,
        parsed.answers.map((ans) => {
          const item = itemById.get(ans.itemId)!;
          const correct = item.isGold ? ans.label === item.tweet.goldLabel : null;
          return [newId(), row.id, item.id, item.tweetId, worker.id, ans.label, item.isGold, correct, decidedRemotely && a.status === "Approved" && !item.isGold, now];
        }),
      );
      const unknownTweets = hit.items.filter((it) => !it.isGold).map((it) => it.tweetId);
      if (markJudged) await tx.tweet.updateMany({ where: { id: { in: unknownTweets }, status: "in_hit" }, data: { status: "judged" } });
      if (decidedRemotely && a.status === "Approved") await recordPayment(tx as unknown as Db, { hit, assignmentId: row.id, workerId: worker.id });
      if (decidedRemotely) {
        await writeAudit(tx, {
          actorType: "system",
          eventId: hit.eventId,
          entityType: "assignment",
          entityId: row.id,
          action: a.status === "Approved" ? "approved-by-provider" : "rejected-by-provider",
          reason: "The provider had already decided this assignment when Accord first saw it (for example MTurk's auto-approval).",
        });
      }
    });
    return true;
  } catch (err) {
    // Another process stored it first (unique providerAssignmentId): nothing to do.
    if ((err as { code?: string }).code === "P2002") return false;
    throw err;
  }
}

async function localUserId(db: Db, workerId: string): Promise<string | null> {
  const user = await db.user.findUnique({ where: { id: workerId }, select: { id: true } });
  return user?.id ?? null;
}

/** Sends a recorded decision to the provider and marks it delivered; reconciles when the provider already moved. */
async function deliverDecision({
  db,
  provider,
  hit,
  assignment: a,
  remoteStatus,
}: {
  db: Db;
  provider: CrowdProvider;
  hit: HitRow;
  assignment: { id: string; providerAssignmentId: string; decision: string | null; feedback: string | null; workerId: string };
  remoteStatus: string;
}): Promise<boolean> {
  const approve = a.decision === "approve";
  const wanted = approve ? "Approved" : "Rejected";
  let finalStatus: "Approved" | "Rejected" = wanted;
  if (remoteStatus === "Submitted") {
    try {
      if (approve) await provider.approveAssignment({ assignmentId: a.providerAssignmentId, feedback: a.feedback ?? undefined });
      else await provider.rejectAssignment({ assignmentId: a.providerAssignmentId, feedback: a.feedback ?? "Rejected: too few gold tweets correct." });
    } catch (err) {
      if (!isCrowdError(err, "invalid_assignment_state")) throw err;
      // The call went through earlier (its answer was lost) or the provider decided on its own: read the truth.
      finalStatus = await remoteAssignmentStatus(provider, hit.providerHitId as string, a.providerAssignmentId);
    }
  } else {
    finalStatus = remoteStatus === "Approved" ? "Approved" : "Rejected";
  }
  // Delivered, counted and paid in one transaction: a crash between them would otherwise leave an assignment
  // marked delivered whose judgments never count and whose payment never reaches the ledger.
  const delivered = await db.$transaction(async (tx) => {
    const updated = await tx.assignment.updateMany({
      where: { id: a.id, decisionSentAt: null },
      data: { decisionSentAt: new Date(), providerStatus: finalStatus, status: finalStatus === "Approved" ? "approved" : "rejected" },
    });
    if (updated.count !== 1) return false;
    if (finalStatus === "Approved") {
      await tx.judgment.updateMany({ where: { assignmentId: a.id, isGold: false }, data: { counted: true } });
      await recordPayment(tx as unknown as Db, { hit, assignmentId: a.id, workerId: a.workerId });
    }
    return true;
  });
  if (!delivered) return false;
  if (finalStatus !== wanted) {
    await writeAudit(db, {
      actorType: "system",
      eventId: hit.eventId,
      entityType: "assignment",
      entityId: a.id,
      action: finalStatus === "Approved" ? "approved-by-provider" : "rejected-by-provider",
      reason: `Accord decided to ${a.decision} but the provider had already ${finalStatus.toLowerCase()} it.`,
    });
  }
  return true;
}

async function remoteAssignmentStatus(provider: CrowdProvider, providerHitId: string, assignmentId: string): Promise<"Approved" | "Rejected"> {
  for await (const a of provider.listSubmittedAssignments({ providerHitId })) {
    if (a.assignmentId === assignmentId && a.status !== "Submitted") return a.status;
  }
  throw new Error(`assignment ${assignmentId} is in an unexpected state on the provider`);
}

/** Reward + fee of an approved assignment, once (the ledger's reference keys are unique). */
async function recordPayment(db: Db, { hit, assignmentId, workerId }: { hit: Pick<HitRow, "id" | "eventId" | "rewardCents" | "maxAssignments">; assignmentId: string; workerId: string }) {
  const fee = assignmentFeeCents({ rewardCents: hit.rewardCents, maxAssignments: hit.maxAssignments });
  const entries = (
    [
      ["reward", hit.rewardCents],
      ["fee", fee],
    ] as const
  )
    .filter(([, amountCents]) => amountCents !== 0)
    .map(([kind, amountCents]) => ({ eventId: hit.eventId, hitId: hit.id, assignmentId, workerId, kind, amountCents, reference: `${kind}:${assignmentId}` }));
  const existing = new Set((await db.costEntry.findMany({ where: { reference: { in: entries.map((e) => e.reference) } }, select: { reference: true } })).map((e) => e.reference));
  const missing = entries.filter((e) => !existing.has(e.reference));
  if (missing.length === 0) return;
  try {
    await db.costEntry.createMany({ data: missing });
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
  }
}

/** Decides the HIT once all its assignments are in and decided (or it expired); returns what was done. */
async function maybeDecideHit({ db, provider, hit, ctx }: { db: Db; provider: CrowdProvider; hit: HitRow; ctx: EventContext }) {
  const rows = await db.assignment.findMany({ where: { hitId: hit.id }, select: { status: true, decisionSentAt: true, decision: true } });
  const undecided = rows.some((r) => r.decision === null || r.status === "held" || r.status === "submitted" || !r.decisionSentAt);
  if (undecided) return null;
  if (rows.length < hit.maxAssignments) {
    // Not all in: decide only when no more can come (the HIT expired or nobody holds it).
    const remote = await provider.getHit({ providerHitId: hit.providerHitId as string });
    if (!(remote.status === "Reviewable" && remote.pendingCount === 0)) return null;
    // Reviewable may also mean "every slot submitted" by workers who submitted after this sync listed the
    // assignments: those must be ingested and decided first (the next sync does), never left to auto-approval.
    let listed = 0;
    for await (const a of provider.listSubmittedAssignments({ providerHitId: hit.providerHitId as string })) if (a.assignmentId) listed++;
    if (listed > rows.length) return null;
  }

  const unknownItems = hit.items.filter((it) => !it.isGold);
  const counted = await db.judgment.findMany({
    where: { tweetId: { in: unknownItems.map((it) => it.tweetId) }, counted: true },
    select: { tweetId: true, label: true },
    orderBy: { createdAt: "asc" },
  });
  const labelsByTweet = new Map<string, string[]>(unknownItems.map((it) => [it.tweetId, []]));
  for (const j of counted) labelsByTweet.get(j.tweetId)?.push(j.label);
  const { hit: decision, tweets } = decideHitFromJudgments({
    tweets: [...labelsByTweet.entries()].map(([tweetId, labels]) => ({ tweetId, labels })),
    currentAssignments: hit.maxAssignments,
    settings: ctx.settings,
  });

  if (decision.state === "extend") {
    // A fresh token per round: a retry of this round adds nothing twice.
    await provider.addAssignments({ providerHitId: hit.providerHitId as string, count: decision.extraAssignments, uniqueToken: `${hit.id}-to-${hit.maxAssignments + decision.extraAssignments}` });
    const remote = await provider.getHit({ providerHitId: hit.providerHitId as string });
    if (remote.expiresAt.getTime() <= Date.now() || remote.status === "Reviewable") {
      const lifetime = (hit.batch?.lifetimeSeconds ?? 3 * 24 * 3600) * 1000;
      await provider.extendHit({ providerHitId: hit.providerHitId as string, expiresAt: new Date(Math.max(Date.now(), remote.expiresAt.getTime()) + lifetime) });
    }
    const moved = await db.hit.updateMany({
      where: { id: hit.id, maxAssignments: hit.maxAssignments },
      data: { maxAssignments: hit.maxAssignments + decision.extraAssignments, status: "extended" },
    });
    if (moved.count === 1) {
      await writeAudit(db, { actorType: "system", eventId: hit.eventId, entityType: "hit", entityId: hit.id, action: "extend", reason: decision.reason.text, details: { ...decision.reason, extra: decision.extraAssignments } });
      publishLive({ eventId: hit.eventId, kind: "hit", data: { hitId: hit.id, state: "extended", reason: decision.reason.text } });
    }
    return { state: "extended" as const, extra: decision.extraAssignments };
  }

  const final = decision.state; // approved | unresolved
  const flavor = flavorOf(db);
  await db.$transaction(
    async (tx) => {
      // Replaces any earlier label of these tweets (one delete and one multi-row insert, not an upsert per tweet).
      const labelled = tweets.filter((t) => t.state === "accepted" && t.label);
      if (labelled.length) {
        const now = new Date();
        await tx.acceptedLabel.deleteMany({ where: { tweetId: { in: labelled.map((t) => t.tweetId) } } });
        await insertRows(tx, flavor, "AcceptedLabel", ACCEPTED_LABEL_COLUMNS, labelled.map((t) => [newId(), t.tweetId, hit.eventId, t.label, t.top, t.total, t.votes, "majority", now]));
      }
      const accepted = tweets.filter((t) => t.state === "accepted").map((t) => t.tweetId);
      const rest = tweets.filter((t) => t.state !== "accepted").map((t) => t.tweetId);
      if (accepted.length) await tx.tweet.updateMany({ where: { id: { in: accepted } }, data: { status: "accepted" } });
      if (rest.length) await tx.tweet.updateMany({ where: { id: { in: rest } }, data: { status: "unresolved" } });
      await tx.hit.update({ where: { id: hit.id }, data: { status: final, decidedAt: new Date(), acceptedTweets: accepted.length } });
      await writeAudit(tx, { actorType: "system", eventId: hit.eventId, entityType: "hit", entityId: hit.id, action: final === "approved" ? "approve-hit" : "unresolved-hit", reason: decision.reason.text, details: decision.reason });
    },
    { timeout: 60_000 },
  );
  publishLive({ eventId: hit.eventId, kind: "hit", data: { hitId: hit.id, state: final, reason: decision.reason.text } });
  return { state: final, extra: 0 };
}

// ---- the loop -------------------------------------------------------------------------------

export const ACTIVE_HIT_STATUSES = ["published", "extended"];

/**
 * Claims up to `limit` active HITs that are due (not synced for `minIntervalMs`), most overdue first, with a
 * lease so that no two processes sync the same HIT at once (FOR UPDATE SKIP LOCKED on PostgreSQL, a
 * compare-and-set on SQLite). Expired leases (a dead process) are taken over.
 */
export async function claimDueHits(db: Db, { owner, limit = 10, minIntervalMs = 2_000, leaseMs = 60_000 }: { owner: string; limit?: number; minIntervalMs?: number; leaseMs?: number }): Promise<string[]> {
  const now = new Date();
  const dueBefore = new Date(now.getTime() - minIntervalMs);
  const leaseUntil = new Date(now.getTime() + leaseMs);
  if (flavorOf(db) === "postgres") {
    return db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM "Hit"
         WHERE status IN ('published', 'extended')
           AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
           AND ("lastSyncedAt" IS NULL OR "lastSyncedAt" < ${dueBefore})
         ORDER BY "lastSyncedAt" ASC NULLS FIRST
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return [];
      await tx.hit.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { leaseOwner: owner, leaseUntil } });
      return rows.map((r) => r.id);
    });
  }
  const candidates = await db.hit.findMany({
    where: {
      status: { in: ACTIVE_HIT_STATUSES },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      AND: [{ OR: [{ lastSyncedAt: null }, { lastSyncedAt: { lt: dueBefore } }] }],
    },
    orderBy: [{ lastSyncedAt: { sort: "asc", nulls: "first" } }],
    take: limit,
    select: { id: true, leaseUntil: true },
  });
  const claimed: string[] = [];
  for (const c of candidates) {
    const res = await db.hit.updateMany({ where: { id: c.id, leaseUntil: c.leaseUntil }, data: { leaseOwner: owner, leaseUntil } });
    if (res.count === 1) claimed.push(c.id);
  }
  return claimed;
}

export async function releaseHit(db: Db, { hitId, owner, error }: { hitId: string; owner: string; error?: string }) {
  await db.hit.updateMany({
    where: { id: hitId, leaseOwner: owner },
    data: { leaseOwner: null, leaseUntil: null, ...(error !== undefined ? { syncError: error, lastSyncedAt: new Date() } : {}) },
  });
}

/** One pass: claim due HITs and sync each. Provider errors are recorded on the HIT and shown on the dashboard. */
export async function syncDueHits(
  db: Db,
  { owner, limit = 10, minIntervalMs, provider, concurrency = 4 }: { owner: string; limit?: number; minIntervalMs?: number; provider?: CrowdProvider; concurrency?: number },
): Promise<{ synced: number; errors: number }> {
  const ids = await claimDueHits(db, { owner, limit, minIntervalMs });
  let errors = 0;
  const contexts = new Map<string, Promise<EventContext>>();
  const followUps: SyncFollowUps = { workers: new Set(), events: new Set() };
  const queue = [...ids];
  const work = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        const eventId = (await db.hit.findUniqueOrThrow({ where: { id }, select: { eventId: true } })).eventId;
        if (!contexts.has(eventId)) contexts.set(eventId, loadEventContext(db, eventId));
        await syncHit({ db, hitId: id, provider, context: await contexts.get(eventId)!, followUps });
        await releaseHit(db, { hitId: id, owner });
      } catch (err) {
        errors++;
        const message = err instanceof Error ? err.message : String(err);
        await releaseHit(db, { hitId: id, owner, error: message }).catch(() => undefined);
        const hit = await db.hit.findUnique({ where: { id }, select: { eventId: true } }).catch(() => null);
        if (hit) publishLive({ eventId: hit.eventId, kind: "sync-error", data: { hitId: id, message } });
        if (!isCrowdError(err)) console.error(`[accord] sync of HIT ${id} failed:`, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, ids.length)) }, work));
  // Statistics are recomputed from the stored rows, so a failure here is repaired by the next pass.
  await runSyncFollowUps(db, followUps).catch((err: unknown) => console.error("[accord] worker statistics / snapshot failed:", err instanceof Error ? err.message : err));
  return { synced: ids.length - errors, errors };
}

/** The background loop (server process and `accord worker`): a pass every `intervalMs` while HITs are due. */
export function startSyncLoop(db: Db, { owner, intervalMs = 2_000, minIntervalMs = 2_000, provider }: { owner: string; intervalMs?: number; minIntervalMs?: number; provider?: CrowdProvider }) {
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopping) {
      let synced = 0;
      try {
        synced = (await syncDueHits(db, { owner, minIntervalMs, provider })).synced;
      } catch (err) {
        console.error("[accord] sync pass failed:", err instanceof Error ? err.message : err);
      }
      if (synced > 0 || stopping) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, intervalMs);
        timer.unref?.();
      });
    }
  })();
  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
