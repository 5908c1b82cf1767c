import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { insertMany, updateManyById } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, HIT_STATUS, TWEET_STATUS } from "@/lib/db/enums";
import { decideHitFromJudgments, type HitDecision } from "@/lib/procedure/decisions";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { insertAudits } from "./audit-rows";
import { inChunks } from "./chunks";
import { emptyReport, type HitRow, type Live, type StepReport } from "./types";

type AssignmentState = { hitId: string; status: string; decisionSentAt: Date | null; decision: string | null };
type Decided = ReturnType<typeof decideHitFromJudgments>;

/** Whether every stored assignment of a HIT is decided and delivered (nothing held or waiting; pure). */
export function allDecided(rows: readonly AssignmentState[]): boolean {
  return !rows.some((r) => r.decision === null || r.status === ASSIGNMENT_STATUS.held || r.status === ASSIGNMENT_STATUS.submitted || !r.decisionSentAt);
}

/** Each HIT's decision from the counted labels of its unknown tweets (pure): approve, extend or unresolved. */
export function decideReady(ready: readonly HitRow[], labelsByTweet: ReadonlyMap<string, string[]>, settings: ProcedureSettings) {
  return ready.map((hit) => ({
    hit,
    decision: decideHitFromJudgments({
      tweets: hit.items.filter((it) => !it.isGold).map((it) => ({ tweetId: it.tweetId, labels: labelsByTweet.get(it.tweetId) ?? [] })),
      currentAssignments: hit.maxAssignments,
      settings,
    }),
  }));
}

/** The labels, tweet states, HIT rows, audits and live messages of final decisions (pure). */
export function finalWrites(finals: ReadonlyArray<{ hit: HitRow; decision: Decided }>, now: Date) {
  const tweets = finals.flatMap(({ decision }) => decision.tweets);
  return {
    labels: finals.flatMap(({ hit, decision }) =>
      decision.tweets
        .filter((t) => t.state === TWEET_STATUS.accepted && t.label)
        .map((t) => ({ tweetId: t.tweetId, eventId: hit.eventId, label: t.label as string, topVotes: t.top, totalVotes: t.total, votes: t.votes, method: "majority", decidedAt: now })),
    ),
    accepted: tweets.filter((t) => t.state === TWEET_STATUS.accepted).map((t) => t.tweetId),
    unresolved: tweets.filter((t) => t.state !== TWEET_STATUS.accepted).map((t) => t.tweetId),
    hits: finals.map(({ hit, decision }) => ({ id: hit.id, status: decision.hit.state, decidedAt: now, acceptedTweets: decision.tweets.filter((t) => t.state === TWEET_STATUS.accepted).length })),
    audits: finals.map(({ hit, decision }) => ({
      eventId: hit.eventId,
      entityType: "hit",
      entityId: hit.id,
      action: decision.hit.state === HIT_STATUS.approved ? "approve-hit" : "unresolved-hit",
      reason: decision.hit.reason.text,
      details: decision.hit.reason,
    })),
    live: finals.map(({ hit, decision }): Live => ({ eventId: hit.eventId, kind: "hit", data: { hitId: hit.id, state: decision.hit.state, reason: decision.hit.reason.text } })),
  };
}

/** HITs whose stored assignments are all decided and that can get no more: every slot is in, or the HIT is over. */
async function readyHits(db: Db, provider: CrowdProvider, hits: HitRow[], report: StepReport): Promise<HitRow[]> {
  const rows = await db.assignment.findMany({ where: { hitId: { in: hits.map((h) => h.id) } }, select: { hitId: true, status: true, decisionSentAt: true, decision: true } });
  const byHit = new Map<string, AssignmentState[]>();
  for (const r of rows) byHit.set(r.hitId, [...(byHit.get(r.hitId) ?? []), r]);
  const ready: HitRow[] = [];
  for (const hit of hits) {
    const mine = byHit.get(hit.id) ?? [];
    if (!allDecided(mine)) continue;
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
        report.failures.push({ hitId: hit.id, error: err });
        continue;
      }
    }
    ready.push(hit);
  }
  return ready;
}

/** Asks the provider for more assignments (a fresh token per round: a retry of this round adds nothing twice). */
async function extendHit({ db, provider, hit, decision }: { db: Db; provider: CrowdProvider; hit: HitRow; decision: HitDecision }): Promise<Live | null> {
  await provider.addAssignments({ providerHitId: hit.providerHitId as string, count: decision.extraAssignments, uniqueToken: `${hit.id}-to-${hit.maxAssignments + decision.extraAssignments}` });
  const remote = await provider.getHit({ providerHitId: hit.providerHitId as string });
  if (remote.expiresAt.getTime() <= Date.now() || remote.status === "Reviewable") {
    const lifetime = (hit.batch?.lifetimeSeconds ?? 3 * 24 * 3600) * 1000;
    await provider.extendHit({ providerHitId: hit.providerHitId as string, expiresAt: new Date(Math.max(Date.now(), remote.expiresAt.getTime()) + lifetime) });
  }
  const moved = await db.hit.updateMany({
    where: { id: hit.id, maxAssignments: hit.maxAssignments },
    data: { maxAssignments: hit.maxAssignments + decision.extraAssignments, status: HIT_STATUS.extended },
  });
  if (moved.count !== 1) return null;
  await writeAudit(db, { actorType: "system", eventId: hit.eventId, entityType: "hit", entityId: hit.id, action: "extend", reason: decision.reason.text, details: { ...decision.reason, extra: decision.extraAssignments } });
  return { eventId: hit.eventId, kind: "hit", data: { hitId: hit.id, state: HIT_STATUS.extended, reason: decision.reason.text } };
}

/**
 * Decides each HIT whose assignments are all in and decided (or that can get no more): ≥ 14/20 accepted →
 * approved; else extra assignments up to the maximum, or unresolved.
 */
export async function decideHits({ db, provider, hits, settings }: { db: Db; provider: CrowdProvider; hits: HitRow[]; settings: ProcedureSettings }): Promise<StepReport> {
  const report = emptyReport();
  const ready = await readyHits(db, provider, hits, report);
  if (ready.length === 0) return report;

  const unknownTweets = ready.flatMap((h) => h.items.filter((it) => !it.isGold).map((it) => it.tweetId));
  // Each tweet falls in one chunk, so its judgments keep their order.
  const counted = (
    await inChunks(unknownTweets, (ids) => db.judgment.findMany({ where: { tweetId: { in: ids }, counted: true }, select: { tweetId: true, label: true }, orderBy: { createdAt: "asc" } }))
  ).flat();
  const labelsByTweet = new Map<string, string[]>(unknownTweets.map((t) => [t, []]));
  for (const j of counted) labelsByTweet.get(j.tweetId)?.push(j.label);

  const finals: Array<{ hit: HitRow; decision: Decided }> = [];
  for (const { hit, decision } of decideReady(ready, labelsByTweet, settings)) {
    if (decision.hit.state !== "extend") {
      finals.push({ hit, decision });
      continue;
    }
    try {
      const live = await extendHit({ db, provider, hit, decision: decision.hit });
      if (live) report.live.push(live);
      report.deltas.push({ hitId: hit.id, hitDecision: "extended", extraAssignments: decision.hit.extraAssignments });
    } catch (err) {
      report.failures.push({ hitId: hit.id, error: err });
    }
  }
  if (finals.length === 0) return report;

  const w = finalWrites(finals, new Date());
  await db.$transaction(
    async (tx) => {
      // Replaces any earlier label of these tweets (one delete and one multi-row insert, not an upsert per tweet).
      if (w.labels.length) {
        await inChunks(w.labels.map((l) => l.tweetId), (ids) => tx.acceptedLabel.deleteMany({ where: { tweetId: { in: ids } } }));
        await insertMany(tx, "AcceptedLabel", w.labels);
      }
      await inChunks(w.accepted, (ids) => tx.tweet.updateMany({ where: { id: { in: ids } }, data: { status: TWEET_STATUS.accepted } }));
      await inChunks(w.unresolved, (ids) => tx.tweet.updateMany({ where: { id: { in: ids } }, data: { status: TWEET_STATUS.unresolved } }));
      await updateManyById(tx, "Hit", w.hits);
      await insertAudits(tx, w.audits);
    },
    { timeout: 60_000 },
  );
  for (const { hit, decision } of finals) report.deltas.push({ hitId: hit.id, hitDecision: decision.hit.state as "approved" | "unresolved" });
  report.live.push(...w.live);
  return report;
}
