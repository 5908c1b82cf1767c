import "server-only";
import { isCrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { type BulkUpdate, updateManyById } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, DECISION, PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";
import { feesOf, type Payment, recordPayments } from "../ledger";
import { insertAudits } from "./audit-rows";
import { forEachLimit, inChunks } from "./chunks";
import { type AuditRow, emptyReport, type HitRow, type StepReport, type SyncAssignment } from "./types";

type Final = "Approved" | "Rejected";
export type Sent = { a: SyncAssignment; finalStatus: Final };

/** Decided (approve or reject) but not yet confirmed by the provider (pure). */
export function dueDeliveries(assignments: readonly SyncAssignment[]): SyncAssignment[] {
  return assignments.filter((a) => (a.decision === DECISION.approve || a.decision === DECISION.reject) && !a.decisionSentAt);
}

/** The rows a confirmed delivery writes: the assignment's final state, counted judgments, payments, audits (pure). */
export function deliveryWrites(sent: readonly Sent[], hitById: ReadonlyMap<string, HitRow>, now: Date) {
  const hitOf = (s: Sent) => hitById.get(s.a.hitId) as HitRow;
  return sent.map((s) => {
    const hit = hitOf(s);
    const approved = s.finalStatus === PROVIDER_ASSIGNMENT_STATUS.Approved;
    const intended: Final = s.a.decision === DECISION.approve ? PROVIDER_ASSIGNMENT_STATUS.Approved : PROVIDER_ASSIGNMENT_STATUS.Rejected;
    return {
      s,
      // Excluded work is paid but its judgments never count (agreement, labels, exports).
      counted: approved && !s.a.excludedReason,
      update: { id: s.a.id, decisionSentAt: now, providerStatus: s.finalStatus, status: approved ? ASSIGNMENT_STATUS.approved : ASSIGNMENT_STATUS.rejected } satisfies BulkUpdate<"Assignment">,
      payment: approved ? ({ eventId: hit.eventId, hitId: hit.id, assignmentId: s.a.id, workerId: s.a.workerId, rewardCents: hit.rewardCents, maxAssignments: hit.maxAssignments } satisfies Payment) : null,
      audit:
        s.finalStatus !== intended
          ? ({
              eventId: hit.eventId,
              entityType: "assignment",
              entityId: s.a.id,
              action: approved ? "approved-by-provider" : "rejected-by-provider",
              reason: `Accord decided to ${s.a.decision} but the provider had already ${s.finalStatus.toLowerCase()} it.`,
            } satisfies AuditRow)
          : null,
    };
  });
}

async function remoteAssignmentStatus(provider: CrowdProvider, providerHitId: string, assignmentId: string): Promise<Final> {
  for await (const a of provider.listSubmittedAssignments({ providerHitId })) {
    if (a.assignmentId === assignmentId && a.status !== PROVIDER_ASSIGNMENT_STATUS.Submitted) return a.status;
  }
  throw new Error(`assignment ${assignmentId} is in an unexpected state on the provider`);
}

/** What the crowd's policy recorded with a decision: the rejection category, whether the worker is to be blocked. */
type PolicyNote = { category: string | null; block: boolean; externalId: string };

/** The policy notes of the due rejections and exclusions (one read; none for plain approvals). */
async function policyNotes(db: Db, due: readonly SyncAssignment[]): Promise<Map<string, PolicyNote>> {
  const ids = due.filter((a) => a.decision === DECISION.reject || a.excludedReason).map((a) => a.id);
  if (ids.length === 0) return new Map();
  const rows = (await inChunks(ids, (chunk) => db.assignment.findMany({ where: { id: { in: chunk } }, select: { id: true, decisionReason: true, worker: { select: { externalId: true } } } }))).flat();
  return new Map(
    rows.map((r) => {
      const policy = (r.decisionReason as { policy?: { category?: string | null; block?: boolean } } | null)?.policy;
      return [r.id, { category: policy?.category ?? null, block: policy?.block === true, externalId: r.worker.externalId }];
    }),
  );
}

/** Sends each decision to the provider; returns what the provider now holds for each, and the calls that failed. */
async function sendDecisions(provider: CrowdProvider, due: readonly SyncAssignment[], hitById: ReadonlyMap<string, HitRow>, concurrency: number, notes: ReadonlyMap<string, PolicyNote>) {
  const sent: Sent[] = [];
  const failures: StepReport["failures"] = [];
  await forEachLimit(due, concurrency, async (a) => {
    const approve = a.decision === DECISION.approve;
    let finalStatus: Final = approve ? PROVIDER_ASSIGNMENT_STATUS.Approved : PROVIDER_ASSIGNMENT_STATUS.Rejected;
    try {
      if (a.providerStatus === PROVIDER_ASSIGNMENT_STATUS.Submitted) {
        try {
          if (approve) await provider.approveAssignment({ assignmentId: a.providerAssignmentId, feedback: a.feedback ?? undefined });
          else await provider.rejectAssignment({ assignmentId: a.providerAssignmentId, feedback: a.feedback ?? "Rejected: too few gold tweets correct.", ...(notes.get(a.id)?.category ? { category: notes.get(a.id)?.category as string } : {}) });
        } catch (err) {
          if (!isCrowdError(err, "invalid_assignment_state")) throw err;
          // The call went through earlier (its answer was lost) or the provider decided on its own: read the truth.
          finalStatus = await remoteAssignmentStatus(provider, (hitById.get(a.hitId) as HitRow).providerHitId as string, a.providerAssignmentId);
        }
      } else {
        finalStatus = a.providerStatus === PROVIDER_ASSIGNMENT_STATUS.Approved ? PROVIDER_ASSIGNMENT_STATUS.Approved : PROVIDER_ASSIGNMENT_STATUS.Rejected;
      }
      // Excluded by the crowd's policy with a block: the worker joins the crowd's block list (idempotent, so a retry is safe).
      const note = notes.get(a.id);
      if (a.excludedReason && note?.block) await provider.blockWorker({ workerId: note.externalId, reason: a.excludedReason });
      sent.push({ a, finalStatus });
    } catch (err) {
      failures.push({ hitId: a.hitId, error: err });
    }
  });
  return { sent, failures };
}

/**
 * Sends decided-but-undelivered decisions to the provider, then marks them delivered, counts the approved
 * judgments and pays, all in one transaction (a crash between them would otherwise leave an assignment marked
 * delivered whose judgments never count and whose payment never reaches the ledger).
 */
export async function deliverDecisions({
  db,
  provider,
  assignments,
  hitById,
  concurrency,
}: {
  db: Db;
  provider: CrowdProvider;
  assignments: SyncAssignment[];
  hitById: Map<string, HitRow>;
  concurrency: number;
}): Promise<StepReport> {
  const report = emptyReport();
  const due = dueDeliveries(assignments);
  if (due.length === 0) return report;
  const notes = await policyNotes(db, due);
  const { sent, failures } = await sendDecisions(provider, due, hitById, concurrency, notes);
  report.failures.push(...failures);
  if (sent.length === 0) return report;
  const writes = deliveryWrites(sent, hitById, new Date());
  const won = await db.$transaction(
    async (tx) => {
      const marked = new Set(await updateManyById(tx, "Assignment", writes.map((w) => w.update), { where: { decisionSentAt: null } }));
      const mine = writes.filter((w) => marked.has(w.s.a.id));
      const approved = mine.filter((w) => w.counted).map((w) => w.s.a.id);
      await inChunks(approved, (ids) => tx.judgment.updateMany({ where: { assignmentId: { in: ids }, isGold: false }, data: { counted: true } }));
      await recordPayments(tx, mine.flatMap((w) => (w.payment ? [w.payment] : [])), feesOf(provider));
      await insertAudits(tx, mine.flatMap((w) => (w.audit ? [w.audit] : [])));
      // The blocked workers, as Accord's Workers page shows them.
      const blocked = mine.filter((w) => w.s.a.excludedReason && notes.get(w.s.a.id)?.block);
      for (const w of blocked) await tx.worker.update({ where: { id: w.s.a.workerId }, data: { blocked: true, blockedReason: w.s.a.excludedReason } });
      return mine;
    },
    { timeout: 60_000 },
  );
  for (const w of won) report.deltas.push({ hitId: w.s.a.hitId, delivered: 1 });
  return report;
}
