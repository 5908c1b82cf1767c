import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import { isCrowdError } from "@/lib/crowd/errors";
import { assignmentFeeCents } from "@/lib/crowd/mturk/fees";
import { parseHitAnswers } from "@/lib/crowd/mturk/hit-question";
import type { CrowdAssignment, CrowdProvider } from "@/lib/crowd/provider";
import { type Db, flavorOf } from "@/lib/db/client";
import { publishLive } from "@/lib/live/bus";
import { decideHitFromJudgments, type HitDecision } from "@/lib/procedure/decisions";
import { gradeAssignment } from "@/lib/procedure/grading";
import { newId } from "@/lib/ingest/bulk-insert";
import { type BulkColumn, insertRows, updateRows } from "./bulk-rows";
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
  items: Array<{ id: string; position: number; isGold: boolean; tweetId: string; tweet: { goldLabel: string | null } }>;
};

const HIT_SELECT = {
  id: true,
  eventId: true,
  status: true,
  providerHitId: true,
  maxAssignments: true,
  rewardCents: true,
  expiresAt: true,
  batch: { select: { lifetimeSeconds: true } },
  items: { orderBy: { position: "asc" }, select: { id: true, position: true, isGold: true, tweetId: true, tweet: { select: { goldLabel: true } } } },
} as const;

const AUDIT_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "at", type: "timestamp" },
  { name: "actorType", type: "text" },
  { name: "eventId", type: "text" },
  { name: "entityType", type: "text" },
  { name: "entityId", type: "text" },
  { name: "action", type: "text" },
  { name: "reason", type: "text" },
  { name: "details", type: "json" },
];
const ASSIGNMENT_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "hitId", type: "text" },
  { name: "workerId", type: "text" },
  { name: "providerAssignmentId", type: "text" },
  { name: "providerStatus", type: "text" },
  { name: "status", type: "text" },
  { name: "acceptTime", type: "timestamp" },
  { name: "submitTime", type: "timestamp" },
  { name: "autoApprovalTime", type: "timestamp" },
  { name: "decision", type: "text" },
  { name: "decidedBy", type: "text" },
  { name: "decidedAt", type: "timestamp" },
  { name: "decisionSentAt", type: "timestamp" },
  { name: "createdAt", type: "timestamp" },
];
/** The provider's answer document of an assignment, stored once beside it (AssignmentAnswer). */
const ANSWER_COLUMNS: BulkColumn[] = [
  { name: "assignmentId", type: "text" },
  { name: "raw", type: "text" },
];
/** Longer answer documents are not kept (a 30-tweet HIT's answers are about 4 KB; this bounds a malformed one). */
const MAX_STORED_ANSWER_CHARS = 200_000;
/** An assignment's decision (updateRows: the id comes first). */
const DECISION_COLUMNS: BulkColumn[] = [
  { name: "decision", type: "text" },
  { name: "decisionReason", type: "json" },
  { name: "decidedBy", type: "text" },
  { name: "decidedAt", type: "timestamp" },
  { name: "goldCorrect", type: "integer" },
  { name: "goldTotal", type: "integer" },
  { name: "feedback", type: "text" },
];
const DELIVERY_COLUMNS: BulkColumn[] = [
  { name: "decisionSentAt", type: "timestamp" },
  { name: "providerStatus", type: "text" },
  { name: "status", type: "text" },
];
const HIT_DECISION_COLUMNS: BulkColumn[] = [
  { name: "status", type: "text" },
  { name: "decidedAt", type: "timestamp" },
  { name: "acceptedTweets", type: "integer" },
];
const HIT_COUNTER_COLUMNS: BulkColumn[] = [
  { name: "approvedCount", type: "integer" },
  { name: "rejectedCount", type: "integer" },
  { name: "lastSyncedAt", type: "timestamp" },
  { name: "syncError", type: "text" },
];
const COST_COLUMNS: BulkColumn[] = [
  { name: "id", type: "text" },
  { name: "eventId", type: "text" },
  { name: "hitId", type: "text" },
  { name: "assignmentId", type: "text" },
  { name: "workerId", type: "text" },
  { name: "kind", type: "text" },
  { name: "amountCents", type: "integer" },
  { name: "reference", type: "text" },
  { name: "at", type: "timestamp" },
];

/** A system decision for the audit log, as a row of AUDIT_COLUMNS. */
type AuditRow = { eventId: string; entityType: string; entityId: string; action: string; reason: string; details?: unknown };
function auditValues(rows: readonly AuditRow[], at = new Date()): unknown[][] {
  return rows.map((r) => [newId(), at, "system", r.eventId, r.entityType, r.entityId, r.action, r.reason, r.details ?? null]);
}

type Executor = Pick<Db, "$executeRawUnsafe">;
async function insertAudits(db: Executor, flavor: ReturnType<typeof flavorOf>, rows: readonly AuditRow[]) {
  if (rows.length) await insertRows(db, flavor, "AuditLog", AUDIT_COLUMNS, auditValues(rows));
}

/** Prisma does not split an IN (…) list that is longer than SQLite's 999 bound parameters: lists of tweets go in slices. */
const IN_CHUNK = 500;
async function inChunks<T>(ids: readonly string[], fn: (chunk: string[]) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) out.push(await fn(ids.slice(i, i + IN_CHUNK)));
  return out;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

const emptyResult = (): SyncHitResult => ({ newAssignments: 0, decided: { approve: 0, reject: 0, hold: 0 }, delivered: 0, hitDecision: null, extraAssignments: 0 });

/** The outcome of one HIT in a batched sync: what was done, or the error that stopped it (the others go on). */
export type HitSyncOutcome = { result: SyncHitResult; error: unknown };

/** Syncs one HIT (the steps above); throws what stopped it. */
export async function syncHit({
  db,
  hitId,
  provider,
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
  const ctx = context ?? (await loadEventContext(db, (await db.hit.findUniqueOrThrow({ where: { id: hitId }, select: { eventId: true } })).eventId));
  const own: SyncFollowUps = followUps ?? { workers: new Set(), events: new Set() };
  const outcome = (await syncHits({ db, hitIds: [hitId], provider: provider ?? (await getProvider(db, ctx.event.provider)), context: ctx, followUps: own })).get(hitId);
  if (!outcome) throw new Error(`HIT ${hitId} does not exist`);
  if (!followUps) await runSyncFollowUps(db, own);
  if (outcome.error) throw outcome.error;
  return outcome.result;
}

/**
 * Syncs HITs of ONE event together: the provider is asked HIT by HIT (that is MTurk's API), but the database
 * work of all of them is done in a few set-wise statements and transactions (each statement costs about a
 * millisecond of CPU through Prisma here, and each commit writes the touched index pages, so a statement and a
 * transaction per assignment per step were most of the cost: deciding 200 HITs' 600 assignments in the campaign
 * benchmark went from 11.2 to 3.7 s of CPU). The steps and their guarantees
 * are those of syncHit; a HIT whose provider calls fail is reported in its outcome and left for the next pass.
 * At most SYNC_BATCH HITs per call.
 */
export async function syncHits({
  db,
  hitIds,
  provider,
  context: ctx,
  followUps,
  concurrency = 4,
}: {
  db: Db;
  hitIds: readonly string[];
  provider: CrowdProvider;
  context: EventContext;
  followUps: SyncFollowUps;
  concurrency?: number;
}): Promise<Map<string, HitSyncOutcome>> {
  const hits = (await db.hit.findMany({ where: { id: { in: [...hitIds] } }, select: HIT_SELECT })) as HitRow[];
  const out = new Map<string, HitSyncOutcome>(hits.map((h) => [h.id, { result: emptyResult(), error: null }]));
  const fail = (hitId: string, err: unknown) => {
    const o = out.get(hitId) as HitSyncOutcome;
    if (o.error === null) o.error = err ?? new Error("sync failed");
  };
  const healthy = (h: HitRow) => (out.get(h.id) as HitSyncOutcome).error === null;

  // 1. Ingest.
  const remote = new Map<string, CrowdAssignment[]>();
  await forEachLimit(
    hits.filter((h) => h.providerHitId),
    concurrency,
    async (h) => {
      try {
        const list: CrowdAssignment[] = [];
        for await (const a of provider.listSubmittedAssignments({ providerHitId: h.providerHitId as string })) list.push(a);
        remote.set(h.id, list);
      } catch (err) {
        fail(h.id, err);
      }
    },
  );
  const listed = hits.filter((h) => remote.has(h.id));
  if (listed.length === 0) return out;
  const listedIds = listed.map((h) => h.id);
  try {
    await ingestAssignments({ db, hits: listed, remote, ctx, provider, out });
  } catch (err) {
    for (const h of listed) fail(h.id, err);
    return out;
  }

  // 2. Decide what is undecided; deliver what is decided but not delivered.
  const assignments = await db.assignment.findMany({
    where: { hitId: { in: listedIds } },
    select: {
      id: true,
      hitId: true,
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
  const hitById = new Map(hits.map((h) => [h.id, h]));
  const workersByHit = new Map<string, Set<string>>();
  for (const a of assignments) {
    const set = workersByHit.get(a.hitId) ?? new Set<string>();
    set.add(a.workerId);
    workersByHit.set(a.hitId, set);
  }
  await gradeAssignments({ db, assignments, hitById, ctx, out });
  await deliverDecisions({ db, provider, assignments, hitById, concurrency, out, fail });

  // 3. The HITs.
  const open = listed.filter((h) => healthy(h) && (h.status === "published" || h.status === "extended"));
  if (open.length) {
    try {
      await decideHits({ db, provider, hits: open, ctx, out, fail });
    } catch (err) {
      for (const h of open) fail(h.id, err);
    }
  }

  // A HIT's tweets become "judged" with its first stored assignment, unless the HIT was decided in this same pass
  // (its tweets are accepted or unresolved now: updating every tweet twice in one pass cost a second write of the
  // tweet rows and their status index). Idempotent, so after a crash the next pass does it.
  const decidedNow = (h: HitRow) => {
    const decision = (out.get(h.id) as HitSyncOutcome).result.hitDecision;
    return decision === "approved" || decision === "unresolved";
  };
  const judged = listed
    .filter((h) => workersByHit.has(h.id) && !decidedNow(h))
    .flatMap((h) => h.items.filter((it) => !it.isGold).map((it) => it.tweetId));
  await inChunks(judged, (ids) => db.tweet.updateMany({ where: { id: { in: ids }, status: "in_hit" }, data: { status: "judged" } }));

  // 4. Counters, workers.
  const counts = await db.assignment.groupBy({ by: ["hitId", "status"], where: { hitId: { in: listedIds }, status: { in: ["approved", "rejected"] } }, _count: { _all: true } });
  const countOf = (hitId: string, status: string) => counts.find((c) => c.hitId === hitId && c.status === status)?._count._all ?? 0;
  const now = new Date();
  await updateRows(db, flavorOf(db), "Hit", HIT_COUNTER_COLUMNS, listed.filter(healthy).map((h) => [h.id, countOf(h.id, "approved"), countOf(h.id, "rejected"), now, null]));
  for (const h of listed) {
    const r = (out.get(h.id) as HitSyncOutcome).result;
    if (r.newAssignments || r.delivered || r.hitDecision) {
      for (const w of workersByHit.get(h.id) ?? []) followUps.workers.add(w);
      followUps.events.add(h.eventId);
    }
  }
  return out;
}

export type SyncFollowUps = { workers: Set<string>; events: Set<string> };

export async function runSyncFollowUps(db: Db, followUps: SyncFollowUps): Promise<void> {
  await refreshWorkerStats(db, [...followUps.workers]);
  for (const eventId of followUps.events) await recordMetricSnapshot(db, eventId);
}

/**
 * The sync loop's follow-ups are recomputed from all the stored rows of each worker and event, so at HumAID scale
 * doing them after every pass cost more than the passes (measured: 30 workers × 37 passes scanned 5.5M judgment
 * rows; at the end of a 3,700-HIT campaign one run took 4.4 s here, 1.4 s since the agreement is read with one
 * raw query). The loop collects them and runs them
 *  - when the process has used 20× their last cost in CPU time since (they take ≤ ~5% of the work, however
 *    long the passes wait on the provider: a throttled campaign does not pay for them more often; with the
 *    cheaper agreement read, about as often as at 10× before), or
 *  - when the last run is FOLLOW_UP_MAX_STALE_MS ago (and 20× its cost in wall time), so the dashboard's worker
 *    table and agreement chart are at most about five minutes behind while the loop mostly waits on the provider
 *    (a throttled campaign waits for most of its time: a tighter bound would recompute every statistic from all
 *    the stored rows every few passes), or
 *  - always when a pass finds nothing to do; flushSyncFollowUps() runs what is pending now.
 */
const FOLLOW_UP_COST_FACTOR = 20;
const FOLLOW_UP_MAX_STALE_MS = 300_000;
type DeferredFollowUps = SyncFollowUps & { lastAt: number; lastCostMs: number; lastCpuMs: number; lastCpuCostMs: number };
const deferredByDb = ((globalThis as unknown as { __accordDeferredFollowUpsV2?: WeakMap<Db, DeferredFollowUps> }).__accordDeferredFollowUpsV2 ??= new WeakMap());

/** This process's CPU time (user + system), in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Whether deferred follow-ups are due (exported for its test). */
export function followUpsDue(
  last: { lastAt: number; lastCostMs: number; lastCpuMs: number; lastCpuCostMs: number },
  now: { wallMs: number; cpuMs: number },
): boolean {
  if (now.cpuMs - last.lastCpuMs >= FOLLOW_UP_COST_FACTOR * last.lastCpuCostMs) return true;
  return now.wallMs - last.lastAt >= Math.max(FOLLOW_UP_MAX_STALE_MS, FOLLOW_UP_COST_FACTOR * last.lastCostMs);
}

async function runDeferredFollowUps(db: Db, followUps: SyncFollowUps | null, { force }: { force: boolean }): Promise<void> {
  let pending = deferredByDb.get(db);
  if (!pending) deferredByDb.set(db, (pending = { workers: new Set(), events: new Set(), lastAt: 0, lastCostMs: 0, lastCpuMs: 0, lastCpuCostMs: 0 }));
  for (const w of followUps?.workers ?? []) pending.workers.add(w);
  for (const e of followUps?.events ?? []) pending.events.add(e);
  if (pending.workers.size === 0 && pending.events.size === 0) return;
  if (!force && !followUpsDue(pending, { wallMs: Date.now(), cpuMs: cpuMs() })) return;
  const work: SyncFollowUps = { workers: new Set(pending.workers), events: new Set(pending.events) };
  pending.workers.clear();
  pending.events.clear();
  const t0 = Date.now();
  const c0 = cpuMs();
  try {
    await runSyncFollowUps(db, work);
  } catch (err) {
    for (const w of work.workers) pending.workers.add(w);
    for (const e of work.events) pending.events.add(e);
    throw err;
  } finally {
    pending.lastAt = Date.now();
    pending.lastCostMs = pending.lastAt - t0;
    pending.lastCpuMs = cpuMs();
    pending.lastCpuCostMs = pending.lastCpuMs - c0;
  }
}

/** Runs the follow-ups the sync loop has deferred (worker statistics, agreement snapshots) now. */
export async function flushSyncFollowUps(db: Db): Promise<void> {
  await runDeferredFollowUps(db, null, { force: true });
}

/**
 * Stores newly seen assignments with their workers and one judgment per answered tweet, in one transaction
 * (idempotent: an assignment another process stored first is skipped by its unique provider id).
 */
async function ingestAssignments({
  db,
  hits,
  remote,
  ctx,
  provider,
  out,
}: {
  db: Db;
  hits: HitRow[];
  remote: Map<string, CrowdAssignment[]>;
  ctx: EventContext;
  provider: CrowdProvider;
  out: Map<string, HitSyncOutcome>;
}) {
  const known = new Map(
    (await db.assignment.findMany({ where: { hitId: { in: hits.map((h) => h.id) } }, select: { id: true, providerAssignmentId: true, providerStatus: true } })).map((a) => [a.providerAssignmentId, a]),
  );
  const fresh: Array<{ hit: HitRow; a: CrowdAssignment }> = [];
  for (const hit of hits) {
    for (const a of remote.get(hit.id) ?? []) {
      const mine = known.get(a.assignmentId);
      if (!mine) fresh.push({ hit, a });
      else if (mine.providerStatus !== a.status) await db.assignment.update({ where: { id: mine.id }, data: { providerStatus: a.status } });
    }
  }
  if (fresh.length === 0) return;

  // Workers: the known ones in one query; a new worker is created once (a unique key guards two processes).
  const externalIds = [...new Set(fresh.map((f) => f.a.workerId))];
  const workerIds = new Map(
    (await db.worker.findMany({ where: { provider: provider.kind, externalId: { in: externalIds } }, select: { id: true, externalId: true } })).map((w) => [w.externalId, w.id]),
  );
  for (const externalId of externalIds) {
    if (workerIds.has(externalId)) continue;
    const w = await db.worker.upsert({
      where: { provider_externalId: { provider: provider.kind, externalId } },
      create: { provider: provider.kind, externalId, userId: provider.kind === "local" ? await localUserId(db, externalId) : null },
      update: {},
      select: { id: true },
    });
    workerIds.set(externalId, w.id);
  }
  await db.worker.updateMany({ where: { id: { in: [...workerIds.values()] } }, data: { lastSeenAt: new Date() } });

  const now = new Date();
  const rows = fresh.map(({ hit, a }) => {
    const parsed = parseHitAnswers({
      answerXml: a.answerXml,
      items: hit.items.map((it) => ({ itemId: it.id, tweetId: it.tweetId })),
      labels: ctx.labels,
    });
    // Already decided on the provider when first seen (approved elsewhere, or auto-approved): recorded as such.
    const decidedRemotely = a.status !== "Submitted";
    return { hit, a, parsed, decidedRemotely, id: newId(), workerId: workerIds.get(a.workerId) as string };
  });
  const flavor = flavorOf(db);
  await db.$transaction(
    async (tx) => {
      await insertRows(
        tx,
        flavor,
        "Assignment",
        ASSIGNMENT_COLUMNS,
        rows.map(({ hit, a, decidedRemotely, id, workerId }) => [
          id,
          hit.id,
          workerId,
          a.assignmentId,
          a.status,
          decidedRemotely ? (a.status === "Approved" ? "approved" : "rejected") : "submitted",
          a.acceptedAt ?? null,
          a.submittedAt ?? null,
          a.autoApprovalAt ?? null,
          decidedRemotely ? (a.status === "Approved" ? "approve" : "reject") : null,
          decidedRemotely ? "provider" : null,
          decidedRemotely ? (a.approvedAt ?? a.rejectedAt ?? now) : null,
          decidedRemotely ? now : null,
          now,
        ]),
        { onConflictDoNothing: true },
      );
      // The rows this transaction stored (not those another process stored first).
      const stored = new Set((await tx.assignment.findMany({ where: { id: { in: rows.map((r) => r.id) } }, select: { id: true } })).map((r) => r.id));
      const mine = rows.filter((r) => stored.has(r.id));
      await insertRows(tx, flavor, "AssignmentAnswer", ANSWER_COLUMNS, mine.filter((r) => r.a.answerXml.length <= MAX_STORED_ANSWER_CHARS).map((r) => [r.id, r.a.answerXml]));
      const judgments: unknown[][] = [];
      for (const { hit, a, parsed, decidedRemotely, id, workerId } of mine) {
        const itemById = new Map(hit.items.map((it) => [it.id, it]));
        for (const ans of parsed.answers) {
          const item = itemById.get(ans.itemId) as HitRow["items"][number];
          const correct = item.isGold ? ans.label === item.tweet.goldLabel : null;
          judgments.push([id, item.id, item.tweetId, workerId, ans.label, item.isGold, correct, decidedRemotely && a.status === "Approved" && !item.isGold, now]);
        }
      }
      await insertRows(tx, flavor, "Judgment", JUDGMENT_COLUMNS, judgments);
      const remotely = mine.filter((r) => r.decidedRemotely);
      for (const r of remotely) {
        if (r.a.status === "Approved") await recordPayments(tx, flavor, [{ hit: r.hit, assignmentId: r.id, workerId: r.workerId }]);
      }
      await insertAudits(
        tx,
        flavor,
        remotely.map((r) => ({
          eventId: r.hit.eventId,
          entityType: "assignment",
          entityId: r.id,
          action: r.a.status === "Approved" ? "approved-by-provider" : "rejected-by-provider",
          reason: "The provider had already decided this assignment when Accord first saw it (for example MTurk's auto-approval).",
        })),
      );
      for (const r of mine) (out.get(r.hit.id) as HitSyncOutcome).result.newAssignments++;
    },
    { timeout: 60_000 },
  );
}

type SyncAssignment = {
  id: string;
  hitId: string;
  providerAssignmentId: string;
  providerStatus: string;
  status: string;
  decision: string | null;
  decisionSentAt: Date | null;
  feedback: string | null;
  workerId: string;
  judgments: Array<{ hitItemId: string; label: string }>;
};

/** Grades the undecided assignments (gold ≥ 7/10); each decision is a compare-and-set on a null decision. */
async function gradeAssignments({ db, assignments, hitById, ctx, out }: { db: Db; assignments: SyncAssignment[]; hitById: Map<string, HitRow>; ctx: EventContext; out: Map<string, HitSyncOutcome> }) {
  const pending = assignments
    .filter((a) => a.decision === null && a.providerStatus === "Submitted")
    .map((a) => {
      const hit = hitById.get(a.hitId) as HitRow;
      const given = new Map(a.judgments.map((j) => [j.hitItemId, j.label]));
      const goldAnswers = hit.items.filter((it) => it.isGold && it.tweet.goldLabel).map((it) => ({ given: given.get(it.id) ?? null, expected: it.tweet.goldLabel as string }));
      return { a, hit, grade: gradeAssignment({ goldAnswers, settings: ctx.settings }) };
    });
  if (pending.length === 0) return;
  const decidedAt = new Date();
  const flavor = flavorOf(db);
  const claimed = await db.$transaction(async (tx) => {
    // Compare-and-set on a null decision, all rows in one statement; held ones also change status.
    const values = (ps: typeof pending) => ps.map(({ a, grade }) => [a.id, grade.decision, grade.reason, "system", decidedAt, grade.correct, grade.total, grade.reason.text]);
    const held = pending.filter((p) => p.grade.decision === "hold");
    const won = new Set([
      ...(await updateRows(tx, flavor, "Assignment", DECISION_COLUMNS, values(pending.filter((p) => p.grade.decision !== "hold")), `T."decision" IS NULL`)),
      ...(await updateRows(tx, flavor, "Assignment", [...DECISION_COLUMNS, { name: "status", type: "text" }], values(held).map((v) => [...v, "held"]), `T."decision" IS NULL`)),
    ]);
    const claimed = pending.filter((p) => won.has(p.a.id));
    await insertAudits(
      tx,
      flavor,
      claimed.map(({ a, hit, grade }) => ({
        eventId: hit.eventId,
        entityType: "assignment",
        entityId: a.id,
        action: grade.decision,
        reason: grade.reason.text,
        details: { hitId: hit.id, rule: grade.reason.rule, correct: grade.correct, total: grade.total, threshold: grade.reason.threshold, required: grade.reason.required },
      })),
    );
    return claimed;
  });
  for (const { a, hit, grade } of claimed) {
    (out.get(hit.id) as HitSyncOutcome).result.decided[grade.decision]++;
    a.decision = grade.decision;
    a.feedback = grade.reason.text;
    if (grade.decision === "hold") a.status = "held";
    publishLive({ eventId: hit.eventId, kind: "decision", data: { assignmentId: a.id, hitId: hit.id, decision: grade.decision, reason: grade.reason.text } });
  }
}

/**
 * Sends decided-but-undelivered decisions to the provider, then marks them delivered, counts the approved
 * judgments and pays, all in one transaction (a crash between them would otherwise leave an assignment marked
 * delivered whose judgments never count and whose payment never reaches the ledger).
 */
async function deliverDecisions({
  db,
  provider,
  assignments,
  hitById,
  concurrency,
  out,
  fail,
}: {
  db: Db;
  provider: CrowdProvider;
  assignments: SyncAssignment[];
  hitById: Map<string, HitRow>;
  concurrency: number;
  out: Map<string, HitSyncOutcome>;
  fail: (hitId: string, err: unknown) => void;
}) {
  const due = assignments.filter((a) => (a.decision === "approve" || a.decision === "reject") && !a.decisionSentAt);
  if (due.length === 0) return;
  const sent: Array<{ a: SyncAssignment; finalStatus: "Approved" | "Rejected" }> = [];
  await forEachLimit(due, concurrency, async (a) => {
    const hit = hitById.get(a.hitId) as HitRow;
    const approve = a.decision === "approve";
    let finalStatus: "Approved" | "Rejected" = approve ? "Approved" : "Rejected";
    try {
      if (a.providerStatus === "Submitted") {
        try {
          if (approve) await provider.approveAssignment({ assignmentId: a.providerAssignmentId, feedback: a.feedback ?? undefined });
          else await provider.rejectAssignment({ assignmentId: a.providerAssignmentId, feedback: a.feedback ?? "Rejected: too few gold tweets correct." });
        } catch (err) {
          if (!isCrowdError(err, "invalid_assignment_state")) throw err;
          // The call went through earlier (its answer was lost) or the provider decided on its own: read the truth.
          finalStatus = await remoteAssignmentStatus(provider, hit.providerHitId as string, a.providerAssignmentId);
        }
      } else {
        finalStatus = a.providerStatus === "Approved" ? "Approved" : "Rejected";
      }
      sent.push({ a, finalStatus });
    } catch (err) {
      fail(a.hitId, err);
    }
  });
  if (sent.length === 0) return;
  const flavor = flavorOf(db);
  const delivered = await db.$transaction(
    async (tx) => {
      const now = new Date();
      const marked = new Set(
        await updateRows(tx, flavor, "Assignment", DELIVERY_COLUMNS, sent.map((s) => [s.a.id, now, s.finalStatus, s.finalStatus === "Approved" ? "approved" : "rejected"]), `T."decisionSentAt" IS NULL`),
      );
      const won = sent.filter((s) => marked.has(s.a.id));
      const approved = won.filter((s) => s.finalStatus === "Approved");
      if (approved.length) {
        await inChunks(approved.map((s) => s.a.id), (ids) => tx.judgment.updateMany({ where: { assignmentId: { in: ids }, isGold: false }, data: { counted: true } }));
        await recordPayments(tx, flavor, approved.map((s) => ({ hit: hitById.get(s.a.hitId) as HitRow, assignmentId: s.a.id, workerId: s.a.workerId })));
      }
      await insertAudits(
        tx,
        flavor,
        won
          .filter((s) => s.finalStatus !== (s.a.decision === "approve" ? "Approved" : "Rejected"))
          .map((s) => ({
            eventId: (hitById.get(s.a.hitId) as HitRow).eventId,
            entityType: "assignment",
            entityId: s.a.id,
            action: s.finalStatus === "Approved" ? "approved-by-provider" : "rejected-by-provider",
            reason: `Accord decided to ${s.a.decision} but the provider had already ${s.finalStatus.toLowerCase()} it.`,
          })),
      );
      return won;
    },
    { timeout: 60_000 },
  );
  for (const s of delivered) {
    (out.get(s.a.hitId) as HitSyncOutcome).result.delivered++;
    s.a.decisionSentAt = new Date();
    s.a.status = s.finalStatus === "Approved" ? "approved" : "rejected";
  }
}

async function remoteAssignmentStatus(provider: CrowdProvider, providerHitId: string, assignmentId: string): Promise<"Approved" | "Rejected"> {
  for await (const a of provider.listSubmittedAssignments({ providerHitId })) {
    if (a.assignmentId === assignmentId && a.status !== "Submitted") return a.status;
  }
  throw new Error(`assignment ${assignmentId} is in an unexpected state on the provider`);
}

async function localUserId(db: Db, workerId: string): Promise<string | null> {
  const user = await db.user.findUnique({ where: { id: workerId }, select: { id: true } });
  return user?.id ?? null;
}

type Payment = { hit: Pick<HitRow, "id" | "eventId" | "rewardCents" | "maxAssignments">; assignmentId: string; workerId: string };

/** Reward + fee of approved assignments, once each (the ledger's reference keys are unique). */
async function recordPayments(db: Executor, flavor: ReturnType<typeof flavorOf>, payments: readonly Payment[]) {
  const at = new Date();
  const entries = payments.flatMap(({ hit, assignmentId, workerId }) => {
    const fee = assignmentFeeCents({ rewardCents: hit.rewardCents, maxAssignments: hit.maxAssignments });
    return (
      [
        ["reward", hit.rewardCents],
        ["fee", fee],
      ] as const
    )
      .filter(([, amountCents]) => amountCents !== 0)
      .map(([kind, amountCents]) => [newId(), hit.eventId, hit.id, assignmentId, workerId, kind, amountCents, `${kind}:${assignmentId}`, at]);
  });
  if (entries.length) await insertRows(db, flavor, "CostEntry", COST_COLUMNS, entries, { onConflictDoNothing: true });
}

/** Decides each HIT whose assignments are all in and decided (or that expired): approve, extend or unresolved. */
async function decideHits({
  db,
  provider,
  hits,
  ctx,
  out,
  fail,
}: {
  db: Db;
  provider: CrowdProvider;
  hits: HitRow[];
  ctx: EventContext;
  out: Map<string, HitSyncOutcome>;
  fail: (hitId: string, err: unknown) => void;
}) {
  const rows = await db.assignment.findMany({ where: { hitId: { in: hits.map((h) => h.id) } }, select: { hitId: true, status: true, decisionSentAt: true, decision: true } });
  const byHit = new Map<string, typeof rows>();
  for (const r of rows) byHit.set(r.hitId, [...(byHit.get(r.hitId) ?? []), r]);
  const ready: HitRow[] = [];
  for (const hit of hits) {
    const mine = byHit.get(hit.id) ?? [];
    if (mine.some((r) => r.decision === null || r.status === "held" || r.status === "submitted" || !r.decisionSentAt)) continue;
    if (mine.length < hit.maxAssignments) {
      try {
        // Not all in: decide only when no more can come (the HIT expired or nobody holds it).
        const remote = await provider.getHit({ providerHitId: hit.providerHitId as string });
        if (!(remote.status === "Reviewable" && remote.pendingCount === 0)) continue;
        // Reviewable may also mean "every slot submitted" by workers who submitted after this sync listed the
        // assignments: those must be ingested and decided first (the next sync does), never left to auto-approval.
        let listed = 0;
        for await (const a of provider.listSubmittedAssignments({ providerHitId: hit.providerHitId as string })) if (a.assignmentId) listed++;
        if (listed > mine.length) continue;
      } catch (err) {
        fail(hit.id, err);
        continue;
      }
    }
    ready.push(hit);
  }
  if (ready.length === 0) return;

  const unknownTweets = ready.flatMap((h) => h.items.filter((it) => !it.isGold).map((it) => it.tweetId));
  // Each tweet falls in one chunk, so its judgments keep their order.
  const counted = (
    await inChunks(unknownTweets, (ids) => db.judgment.findMany({ where: { tweetId: { in: ids }, counted: true }, select: { tweetId: true, label: true }, orderBy: { createdAt: "asc" } }))
  ).flat();
  const labelsByTweet = new Map<string, string[]>(unknownTweets.map((t) => [t, []]));
  for (const j of counted) labelsByTweet.get(j.tweetId)?.push(j.label);

  const finals: Array<{ hit: HitRow; decision: ReturnType<typeof decideHitFromJudgments> }> = [];
  for (const hit of ready) {
    const decided = decideHitFromJudgments({
      tweets: hit.items.filter((it) => !it.isGold).map((it) => ({ tweetId: it.tweetId, labels: labelsByTweet.get(it.tweetId) ?? [] })),
      currentAssignments: hit.maxAssignments,
      settings: ctx.settings,
    });
    if (decided.hit.state !== "extend") {
      finals.push({ hit, decision: decided });
      continue;
    }
    try {
      await extendHit({ db, provider, hit, decision: decided.hit });
      const r = (out.get(hit.id) as HitSyncOutcome).result;
      r.hitDecision = "extended";
      r.extraAssignments = decided.hit.extraAssignments;
    } catch (err) {
      fail(hit.id, err);
    }
  }
  if (finals.length === 0) return;

  const flavor = flavorOf(db);
  await db.$transaction(
    async (tx) => {
      // Replaces any earlier label of these tweets (one delete and one multi-row insert, not an upsert per tweet).
      const now = new Date();
      const labelled = finals.flatMap(({ hit, decision }) => decision.tweets.filter((t) => t.state === "accepted" && t.label).map((t) => ({ hit, t })));
      if (labelled.length) {
        await inChunks(labelled.map(({ t }) => t.tweetId), (ids) => tx.acceptedLabel.deleteMany({ where: { tweetId: { in: ids } } }));
        await insertRows(tx, flavor, "AcceptedLabel", ACCEPTED_LABEL_COLUMNS, labelled.map(({ hit, t }) => [newId(), t.tweetId, hit.eventId, t.label, t.top, t.total, t.votes, "majority", now]));
      }
      const all = finals.flatMap(({ decision }) => decision.tweets);
      const accepted = all.filter((t) => t.state === "accepted").map((t) => t.tweetId);
      const rest = all.filter((t) => t.state !== "accepted").map((t) => t.tweetId);
      await inChunks(accepted, (ids) => tx.tweet.updateMany({ where: { id: { in: ids } }, data: { status: "accepted" } }));
      await inChunks(rest, (ids) => tx.tweet.updateMany({ where: { id: { in: ids } }, data: { status: "unresolved" } }));
      await updateRows(
        tx,
        flavor,
        "Hit",
        HIT_DECISION_COLUMNS,
        finals.map(({ hit, decision }) => [hit.id, decision.hit.state, now, decision.tweets.filter((t) => t.state === "accepted").length]),
      );
      await insertAudits(
        tx,
        flavor,
        finals.map(({ hit, decision }) => ({
          eventId: hit.eventId,
          entityType: "hit",
          entityId: hit.id,
          action: decision.hit.state === "approved" ? "approve-hit" : "unresolved-hit",
          reason: decision.hit.reason.text,
          details: decision.hit.reason,
        })),
      );
    },
    { timeout: 60_000 },
  );
  for (const { hit, decision } of finals) {
    const state = decision.hit.state as "approved" | "unresolved";
    (out.get(hit.id) as HitSyncOutcome).result.hitDecision = state;
    publishLive({ eventId: hit.eventId, kind: "hit", data: { hitId: hit.id, state, reason: decision.hit.reason.text } });
  }
}

/** Asks the provider for more assignments (a fresh token per round: a retry of this round adds nothing twice). */
async function extendHit({ db, provider, hit, decision }: { db: Db; provider: CrowdProvider; hit: HitRow; decision: HitDecision }) {
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
    select: { id: true },
  });
  if (candidates.length === 0) return [];
  // One statement (SQLite runs one writer at a time): take those still unleased or expired, then read which are ours.
  const ids = candidates.map((c) => c.id);
  await db.hit.updateMany({ where: { id: { in: ids }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] }, data: { leaseOwner: owner, leaseUntil } });
  const mine = new Set((await db.hit.findMany({ where: { id: { in: ids }, leaseOwner: owner, leaseUntil }, select: { id: true } })).map((h) => h.id));
  return ids.filter((id) => mine.has(id));
}

export async function releaseHit(db: Db, { hitId, owner, error }: { hitId: string; owner: string; error?: string }) {
  await db.hit.updateMany({
    where: { id: hitId, leaseOwner: owner },
    data: { leaseOwner: null, leaseUntil: null, ...(error !== undefined ? { syncError: error, lastSyncedAt: new Date() } : {}) },
  });
}

/**
 * HITs per syncHits call. Bigger batches mean fewer commits, and each commit writes every index page its judgments
 * touched (at HumAID scale nearly the whole judgment-by-tweet index, whatever the batch size).
 */
const SYNC_BATCH = 100;

/**
 * HITs one pass of the loop claims. Bigger passes share each pass's fixed work (claiming, its transactions and
 * their commits, the statements per step) among more HITs: deciding 1,000 HITs took 11.2 s of CPU in passes of
 * 100 against 12.7 s in passes of 50 (scripts/bench/campaign.ts --pass-hits, three runs each, interleaved). A
 * pass of 100 makes about 400 requests (a list and three decisions per HIT), which a throttled provider may
 * stretch past the lease: the pass renews its leases while it runs (LEASE_RENEW_FRACTION).
 */
export const SYNC_PASS_HITS = 100;
/** How long a claimed HIT stays leased to its pass without a renewal (a dead process's HITs are free after it). */
export const SYNC_LEASE_MS = 60_000;
/** A running pass renews its leases every third of the lease. */
const LEASE_RENEW_FRACTION = 1 / 3;

/** Extends the leases this owner still holds on `hitIds` (a pass that is still running). */
async function renewLeases(db: Db, { hitIds, owner, leaseMs }: { hitIds: string[]; owner: string; leaseMs: number }): Promise<void> {
  await db.hit.updateMany({ where: { id: { in: hitIds }, leaseOwner: owner }, data: { leaseUntil: new Date(Date.now() + leaseMs) } });
}

/**
 * One pass: claim due HITs and sync them, batched per event (syncHits). Provider errors are recorded on the
 * HIT and shown on the dashboard; the other HITs go on.
 */
export async function syncDueHits(
  db: Db,
  {
    owner,
    limit = SYNC_PASS_HITS,
    minIntervalMs,
    leaseMs = SYNC_LEASE_MS,
    provider,
    concurrency = 4,
  }: { owner: string; limit?: number; minIntervalMs?: number; leaseMs?: number; provider?: CrowdProvider; concurrency?: number },
): Promise<{ synced: number; errors: number }> {
  const ids = await claimDueHits(db, { owner, limit, minIntervalMs, leaseMs });
  if (ids.length === 0) {
    await flushSyncFollowUps(db).catch((err: unknown) => console.error("[accord] worker statistics / snapshot failed:", err instanceof Error ? err.message : err));
    return { synced: 0, errors: 0 };
  }
  // A pass waiting on a throttled provider may outlast the lease: it keeps its HITs until it releases them.
  const renewal = setInterval(() => {
    renewLeases(db, { hitIds: ids, owner, leaseMs }).catch((err: unknown) => console.error("[accord] lease renewal failed:", err instanceof Error ? err.message : err));
  }, leaseMs * LEASE_RENEW_FRACTION);
  renewal.unref?.();
  try {
    return await syncClaimedHits(db, { ids, owner, provider, concurrency });
  } finally {
    clearInterval(renewal);
  }
}

async function syncClaimedHits(
  db: Db,
  { ids, owner, provider, concurrency }: { ids: string[]; owner: string; provider?: CrowdProvider; concurrency: number },
): Promise<{ synced: number; errors: number }> {
  const followUps: SyncFollowUps = { workers: new Set(), events: new Set() };
  const eventOf = new Map((await db.hit.findMany({ where: { id: { in: ids } }, select: { id: true, eventId: true } })).map((h) => [h.id, h.eventId]));
  const byEvent = new Map<string, string[]>();
  for (const [id, eventId] of eventOf) byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), id]);
  const failed = new Map<string, unknown>();
  for (const [eventId, hitIds] of byEvent) {
    try {
      const context = await loadEventContext(db, eventId);
      const p = provider ?? (await getProvider(db, context.event.provider));
      for (let i = 0; i < hitIds.length; i += SYNC_BATCH) {
        const outcomes = await syncHits({ db, hitIds: hitIds.slice(i, i + SYNC_BATCH), provider: p, context, followUps, concurrency });
        for (const [id, o] of outcomes) if (o.error) failed.set(id, o.error);
      }
    } catch (err) {
      for (const id of hitIds) failed.set(id, err);
    }
  }
  await db.hit.updateMany({ where: { id: { in: ids.filter((id) => !failed.has(id)) }, leaseOwner: owner }, data: { leaseOwner: null, leaseUntil: null } });
  for (const [id, err] of failed) {
    const message = err instanceof Error ? err.message : String(err);
    await releaseHit(db, { hitId: id, owner, error: message }).catch(() => undefined);
    const eventId = eventOf.get(id);
    if (eventId) publishLive({ eventId, kind: "sync-error", data: { hitId: id, message } });
    if (!isCrowdError(err)) console.error(`[accord] sync of HIT ${id} failed:`, err);
  }
  // Statistics are recomputed from the stored rows, so a failure here is repaired by the next pass.
  await runDeferredFollowUps(db, followUps, { force: false }).catch((err: unknown) => console.error("[accord] worker statistics / snapshot failed:", err instanceof Error ? err.message : err));
  return { synced: ids.length - failed.size, errors: failed.size };
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
