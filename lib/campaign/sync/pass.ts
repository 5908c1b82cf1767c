import "server-only";
import { isCrowdError } from "@/lib/crowd/errors";
import { policyFor } from "@/lib/crowd/policies";
import { parseCrowdPolicySettings } from "@/lib/crowd/policy";
import type { CrowdAssignment, CrowdProvider } from "@/lib/crowd/provider";
import { updateManyById } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, HIT_STATUS, TWEET_STATUS } from "@/lib/db/enums";
import { publishLive } from "@/lib/live/bus";
import { type EventContext, loadEventContext } from "../context";
import { getProvider } from "../providers";
import { forEachLimit, inChunks } from "./chunks";
import { decideHits } from "./decide";
import { deliverDecisions } from "./deliver";
import { runSyncFollowUps } from "./follow-ups";
import { gradeAssignments, withGrades } from "./grade";
import { ingestAssignments } from "./ingest";
import { reconcileLostHits } from "./lost";
import { ASSIGNMENT_SELECT, emptyResult, HIT_SELECT, type HitRow, type HitSyncOutcome, type StepReport, type SyncFollowUps, type SyncHitResult } from "./types";

/**
 * One sync of a batch of HITs of ONE event: the provider is asked HIT by HIT (that is MTurk's API), the database
 * work of all of them is done in a few set-wise statements and transactions. In order:
 *   1. list each HIT's submitted assignments and store the new ones with one judgment per tweet (ingest.ts);
 *   2. grade gold and record each decision FIRST (compare-and-set), then send it and mark it delivered (grade.ts,
 *      deliver.ts);
 *   3. decide the HITs whose assignments are all in (decide.ts); a HIT the provider does not know is lost (lost.ts);
 *   4. update the HITs' counters and collect the follow-ups (worker statistics, agreement snapshots).
 * Every step is idempotent, and a HIT whose provider calls fail is reported in its outcome and left for the next pass.
 */

/** Adds a step's deltas and failures to the outcomes (the first error of a HIT is kept) and sends its live messages. */
export function applyReport(outcomes: Map<string, HitSyncOutcome>, report: StepReport): void {
  for (const d of report.deltas) {
    const r = outcomes.get(d.hitId)?.result;
    if (!r) continue;
    if ("newAssignments" in d) r.newAssignments += d.newAssignments;
    else if ("decided" in d) r.decided[d.decided]++;
    else if ("delivered" in d) r.delivered += d.delivered;
    else {
      r.hitDecision = d.hitDecision;
      if (d.extraAssignments !== undefined) r.extraAssignments = d.extraAssignments;
    }
  }
  for (const f of report.failures) fail(outcomes, f.hitId, f.error);
  for (const m of report.live) publishLive(m);
}

function fail(outcomes: Map<string, HitSyncOutcome>, hitId: string, err: unknown): void {
  const o = outcomes.get(hitId);
  if (o && o.error === null) o.error = err ?? new Error("sync failed");
}

/** Lists each HIT's submitted assignments; a HIT whose listing fails is reported (not-found ones apart). */
async function listAssignments(provider: CrowdProvider, hits: HitRow[], concurrency: number) {
  const remote = new Map<string, CrowdAssignment[]>();
  const failures: StepReport["failures"] = [];
  const notFound: HitRow[] = [];
  await forEachLimit(
    hits.filter((h) => h.providerHitId),
    concurrency,
    async (h) => {
      try {
        const list: CrowdAssignment[] = [];
        for await (const a of provider.listSubmittedAssignments({ providerHitId: h.providerHitId as string })) list.push(a);
        remote.set(h.id, list);
      } catch (err) {
        if (isCrowdError(err, "not_found")) notFound.push(h);
        failures.push({ hitId: h.id, error: err });
      }
    },
  );
  return { remote, failures, notFound };
}

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
  const hits: HitRow[] = await db.hit.findMany({ where: { id: { in: [...hitIds] } }, select: HIT_SELECT });
  const outcomes = new Map<string, HitSyncOutcome>(hits.map((h) => [h.id, { result: emptyResult(), error: null }]));
  const healthy = (h: HitRow) => outcomes.get(h.id)?.error === null;

  // 1. Ingest.
  const { remote, failures, notFound } = await listAssignments(provider, hits, concurrency);
  const lost = notFound.length ? await reconcileLostHits({ db, provider, hits: notFound }) : null;
  // A lost HIT is settled: its listing error is not a sync error.
  const settled = new Set(lost?.lost ?? []);
  applyReport(outcomes, { deltas: lost?.deltas ?? [], live: lost?.live ?? [], failures: [...failures.filter((f) => !settled.has(f.hitId)), ...(lost?.failures ?? [])] });
  const listed = hits.filter((h) => remote.has(h.id));
  if (listed.length === 0) return outcomes;
  const listedIds = listed.map((h) => h.id);
  try {
    applyReport(outcomes, await ingestAssignments({ db, hits: listed, remote, labels: ctx.labels, provider }));
  } catch (err) {
    for (const h of listed) fail(outcomes, h.id, err);
    return outcomes;
  }

  // 2. Decide what is undecided; deliver what is decided but not delivered.
  const stored = await db.assignment.findMany({ where: { hitId: { in: listedIds } }, select: ASSIGNMENT_SELECT });
  const hitById = new Map(hits.map((h) => [h.id, h]));
  const workersByHit = new Map<string, Set<string>>();
  for (const a of stored) workersByHit.set(a.hitId, (workersByHit.get(a.hitId) ?? new Set<string>()).add(a.workerId));
  const graded = await gradeAssignments({ db, assignments: stored, hitById, settings: ctx.settings, crowd: { policy: policyFor(ctx.event.provider), settings: ctx.crowdPolicy ?? parseCrowdPolicySettings(null), labels: ctx.labels } });
  applyReport(outcomes, graded.report);
  applyReport(outcomes, await deliverDecisions({ db, provider, assignments: withGrades(stored, graded.won), hitById, concurrency }));

  // 3. The HITs.
  const open = listed.filter((h) => healthy(h) && (h.status === HIT_STATUS.published || h.status === HIT_STATUS.extended));
  if (open.length) {
    try {
      applyReport(outcomes, await decideHits({ db, provider, hits: open, settings: ctx.settings }));
    } catch (err) {
      for (const h of open) fail(outcomes, h.id, err);
    }
  }

  // A HIT's tweets become "judged" with its first stored assignment, unless the HIT was decided in this same pass
  // (its tweets are accepted or unresolved now: updating them twice in one pass cost a second write of the
  // tweet rows and their status index). Idempotent, so after a crash the next pass does it.
  const decidedNow = (h: HitRow) => {
    const d = outcomes.get(h.id)?.result.hitDecision;
    return d === HIT_STATUS.approved || d === HIT_STATUS.unresolved;
  };
  const judged = listed.filter((h) => workersByHit.has(h.id) && !decidedNow(h)).flatMap((h) => h.items.filter((it) => !it.isGold).map((it) => it.tweetId));
  await inChunks(judged, (ids) => db.tweet.updateMany({ where: { id: { in: ids }, status: TWEET_STATUS.in_hit }, data: { status: TWEET_STATUS.judged } }));

  // 4. Counters, follow-ups.
  const counts = await db.assignment.groupBy({
    by: ["hitId", "status"],
    where: { hitId: { in: listedIds }, status: { in: [ASSIGNMENT_STATUS.approved, ASSIGNMENT_STATUS.rejected] } },
    _count: { _all: true },
  });
  const countOf = (hitId: string, status: string) => counts.find((c) => c.hitId === hitId && c.status === status)?._count._all ?? 0;
  const now = new Date();
  await updateManyById(
    db,
    "Hit",
    listed.filter(healthy).map((h) => ({ id: h.id, approvedCount: countOf(h.id, ASSIGNMENT_STATUS.approved), rejectedCount: countOf(h.id, ASSIGNMENT_STATUS.rejected), lastSyncedAt: now, syncError: null })),
  );
  for (const h of listed) {
    const r = outcomes.get(h.id)?.result as SyncHitResult;
    if (r.newAssignments || r.delivered || r.hitDecision) {
      for (const w of workersByHit.get(h.id) ?? []) followUps.workers.add(w);
      followUps.events.add(h.eventId);
    }
  }
  return outcomes;
}

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
  /** Collects the worker statistics and snapshots to refresh instead of refreshing them now. */
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
