import "server-only";
import { parseHitAnswers } from "@/lib/crowd/mturk/hit-question";
import type { CrowdAssignment, CrowdProvider } from "@/lib/crowd/provider";
import { type BulkRow, insertMany } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, DECISION, PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";
import { findCrowd } from "@/lib/crowd/registry";
import { newId } from "@/lib/db/ids";
import { feesOf, type Payment, recordPayments } from "../ledger";
import { insertAudits } from "./audit-rows";
import { type AuditRow, emptyReport, type HitRow, type StepReport } from "./types";

/** Longer answer documents are not kept (a 30-tweet HIT's answers are about 4 KB; this bounds a malformed one). */
const MAX_STORED_ANSWER_CHARS = 200_000;

type Known = { id: string; providerAssignmentId: string; providerStatus: string };

/** The provider's assignments Accord has not stored yet, and the stored ones whose provider status moved. */
export function diffAssignments(hits: readonly HitRow[], remote: ReadonlyMap<string, CrowdAssignment[]>, known: readonly Known[]) {
  const byProviderId = new Map(known.map((a) => [a.providerAssignmentId, a]));
  const fresh: Array<{ hit: HitRow; a: CrowdAssignment }> = [];
  const moved: Array<{ id: string; providerStatus: string }> = [];
  for (const hit of hits) {
    for (const a of remote.get(hit.id) ?? []) {
      const mine = byProviderId.get(a.assignmentId);
      if (!mine) fresh.push({ hit, a });
      else if (mine.providerStatus !== a.status) moved.push({ id: mine.id, providerStatus: a.status });
    }
  }
  return { fresh, moved };
}

/** Everything one new assignment stores: its row, answer document, judgments, and (decided remotely) payment and audit. */
export type IngestRows = {
  hitId: string;
  assignment: BulkRow<"Assignment"> & { id: string };
  answer: BulkRow<"AssignmentAnswer"> | null;
  judgments: Array<BulkRow<"Judgment">>;
  payment: Payment | null;
  audit: AuditRow | null;
};

/**
 * The rows of new assignments (pure). One already decided on the provider when first seen (approved elsewhere, or
 * auto-approved) is recorded as such, its judgments counted when approved.
 */
export function ingestRows(
  fresh: ReadonlyArray<{ hit: HitRow; a: CrowdAssignment }>,
  { workerIds, labels, now, id = newId }: { workerIds: ReadonlyMap<string, string>; labels: Parameters<typeof parseHitAnswers>[0]["labels"]; now: Date; id?: () => string },
): IngestRows[] {
  return fresh.map(({ hit, a }) => {
    const assignmentId = id();
    const workerId = workerIds.get(a.workerId) as string;
    const decidedRemotely = a.status !== PROVIDER_ASSIGNMENT_STATUS.Submitted;
    const approved = a.status === PROVIDER_ASSIGNMENT_STATUS.Approved;
    const parsed = parseHitAnswers({ answerXml: a.answerXml, items: hit.items.map((it) => ({ itemId: it.id, tweetId: it.tweetId })), labels });
    const itemById = new Map(hit.items.map((it) => [it.id, it]));
    const judgments = parsed.answers.map((ans) => {
      const item = itemById.get(ans.itemId) as HitRow["items"][number];
      return {
        assignmentId,
        hitItemId: item.id,
        tweetId: item.tweetId,
        workerId,
        label: ans.label,
        isGold: item.isGold,
        correct: item.isGold ? ans.label === item.tweet.goldLabel : null,
        counted: decidedRemotely && approved && !item.isGold,
        createdAt: now,
      };
    });
    return {
      hitId: hit.id,
      assignment: {
        id: assignmentId,
        hitId: hit.id,
        workerId,
        providerAssignmentId: a.assignmentId,
        providerStatus: a.status,
        status: decidedRemotely ? (approved ? ASSIGNMENT_STATUS.approved : ASSIGNMENT_STATUS.rejected) : ASSIGNMENT_STATUS.submitted,
        acceptTime: a.acceptedAt ?? null,
        submitTime: a.submittedAt ?? null,
        autoApprovalTime: a.autoApprovalAt ?? null,
        decision: decidedRemotely ? (approved ? DECISION.approve : DECISION.reject) : null,
        decidedBy: decidedRemotely ? "provider" : null,
        decidedAt: decidedRemotely ? (a.approvedAt ?? a.rejectedAt ?? now) : null,
        decisionSentAt: decidedRemotely ? now : null,
        createdAt: now,
      },
      answer: a.answerXml.length <= MAX_STORED_ANSWER_CHARS ? { assignmentId, raw: a.answerXml } : null,
      judgments,
      payment: decidedRemotely && approved ? { eventId: hit.eventId, hitId: hit.id, assignmentId, workerId, rewardCents: hit.rewardCents, maxAssignments: hit.maxAssignments } : null,
      audit: decidedRemotely
        ? {
            eventId: hit.eventId,
            entityType: "assignment",
            entityId: assignmentId,
            action: approved ? "approved-by-provider" : "rejected-by-provider",
            reason: "The provider had already decided this assignment when Accord first saw it (for example MTurk's auto-approval).",
          }
        : null,
    };
  });
}

/** Accord's worker ids of these provider workers; a new worker is created once (a unique key guards two processes). */
async function workerIdsFor(db: Db, provider: CrowdProvider, externalIds: string[]): Promise<Map<string, string>> {
  const ids = new Map(
    (await db.worker.findMany({ where: { provider: provider.kind, externalId: { in: externalIds } }, select: { id: true, externalId: true } })).map((w) => [w.externalId, w.id]),
  );
  for (const externalId of externalIds) {
    if (ids.has(externalId)) continue;
    const userId = findCrowd(provider.kind)?.workersAreUsers ? ((await db.user.findUnique({ where: { id: externalId }, select: { id: true } }))?.id ?? null) : null;
    const w = await db.worker.upsert({ where: { provider_externalId: { provider: provider.kind, externalId } }, create: { provider: provider.kind, externalId, userId }, update: {}, select: { id: true } });
    ids.set(externalId, w.id);
  }
  await db.worker.updateMany({ where: { id: { in: [...ids.values()] } }, data: { lastSeenAt: new Date() } });
  return ids;
}

/**
 * Stores newly seen assignments with their workers and one judgment per answered tweet, in one transaction
 * (idempotent: an assignment another process stored first is skipped by its unique provider id).
 */
export async function ingestAssignments({
  db,
  hits,
  remote,
  labels,
  provider,
}: {
  db: Db;
  hits: HitRow[];
  remote: ReadonlyMap<string, CrowdAssignment[]>;
  labels: Parameters<typeof parseHitAnswers>[0]["labels"];
  provider: CrowdProvider;
}): Promise<StepReport> {
  const report = emptyReport();
  const known = await db.assignment.findMany({ where: { hitId: { in: hits.map((h) => h.id) } }, select: { id: true, providerAssignmentId: true, providerStatus: true } });
  const { fresh, moved } = diffAssignments(hits, remote, known);
  for (const m of moved) await db.assignment.update({ where: { id: m.id }, data: { providerStatus: m.providerStatus } });
  if (fresh.length === 0) return report;

  const workerIds = await workerIdsFor(db, provider, [...new Set(fresh.map((f) => f.a.workerId))]);
  const rows = ingestRows(fresh, { workerIds, labels, now: new Date() });
  const mine = await db.$transaction(
    async (tx) => {
      await insertMany(tx, "Assignment", rows.map((r) => r.assignment), { onConflict: "ignore" });
      // The rows this transaction stored (not those another process stored first).
      const stored = new Set((await tx.assignment.findMany({ where: { id: { in: rows.map((r) => r.assignment.id) } }, select: { id: true } })).map((r) => r.id));
      const mine = rows.filter((r) => stored.has(r.assignment.id));
      await insertMany(tx, "AssignmentAnswer", mine.flatMap((r) => (r.answer ? [r.answer] : [])));
      await insertMany(tx, "Judgment", mine.flatMap((r) => r.judgments));
      await recordPayments(tx, mine.flatMap((r) => (r.payment ? [r.payment] : [])), feesOf(provider));
      await insertAudits(tx, mine.flatMap((r) => (r.audit ? [r.audit] : [])));
      return mine;
    },
    { timeout: 60_000 },
  );
  for (const r of mine) report.deltas.push({ hitId: r.hitId, newAssignments: 1 });
  return report;
}
