import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import { isCrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, DECISION, HIT_STATUS, PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { publishLive } from "@/lib/live/bus";
import { feesOf, recordPayments } from "./ledger";
import { getProvider } from "./providers";

async function hitAndProvider(db: Db, hitId: string, injected?: CrowdProvider) {
  const hit = await db.hit.findUnique({ where: { id: hitId }, select: { id: true, eventId: true, status: true, providerHitId: true, provider: true, expiresAt: true } });
  if (!hit) throw new UserError("This HIT does not exist.", "not_found");
  if (!hit.providerHitId) throw new UserError("This HIT has not been published yet.");
  return { hit, provider: injected ?? (await getProvider(db, hit.provider)) };
}

/** Expire now: no new worker can take it; submitted work stays and is still decided. */
export async function expireHit({ db, hitId, actorId, provider: injected }: { db: Db; hitId: string; actorId: string; provider?: CrowdProvider }) {
  const { hit, provider } = await hitAndProvider(db, hitId, injected);
  await provider.expireHit({ providerHitId: hit.providerHitId as string });
  await db.hit.update({ where: { id: hitId }, data: { expiresAt: new Date() } });
  await writeAudit(db, { actorType: "user", actorId, eventId: hit.eventId, entityType: "hit", entityId: hitId, action: "expire" });
  publishLive({ eventId: hit.eventId, kind: "hit", data: { hitId, state: HIT_STATUS.expired } });
}

/** Moves the expiration `hours` into the future. */
export async function extendHitLifetime({ db, hitId, hours, actorId, provider: injected }: { db: Db; hitId: string; hours: number; actorId: string; provider?: CrowdProvider }) {
  const { hit, provider } = await hitAndProvider(db, hitId, injected);
  const expiresAt = new Date(Math.max(Date.now(), hit.expiresAt?.getTime() ?? 0) + hours * 3600_000);
  await provider.extendHit({ providerHitId: hit.providerHitId as string, expiresAt });
  await db.hit.update({ where: { id: hitId }, data: { expiresAt } });
  await writeAudit(db, { actorType: "user", actorId, eventId: hit.eventId, entityType: "hit", entityId: hitId, action: "extend-lifetime", details: { hours } });
}

/** Deletes (disposes of) a HIT on the provider: only once it is reviewable and every assignment is decided. */
export async function deleteHit({ db, hitId, actorId, provider: injected }: { db: Db; hitId: string; actorId: string; provider?: CrowdProvider }) {
  const { hit, provider } = await hitAndProvider(db, hitId, injected);
  const undecided = await db.assignment.count({ where: { hitId, decisionSentAt: null } });
  if (undecided > 0) throw new UserError(`${undecided} assignment${undecided === 1 ? " is" : "s are"} not decided yet: decide them (or wait for the sync loop) before deleting the HIT.`);
  try {
    await provider.deleteHit({ providerHitId: hit.providerHitId as string });
  } catch (err) {
    if (isCrowdError(err, "invalid_hit_state")) throw new UserError(`${err.message} Expire the HIT first and wait until its pending assignments are submitted or returned.`);
    throw err;
  }
  await db.hit.update({ where: { id: hitId }, data: { status: HIT_STATUS.deleted } });
  await writeAudit(db, { actorType: "user", actorId, eventId: hit.eventId, entityType: "hit", entityId: hitId, action: "delete" });
}

/**
 * A researcher's decision on an assignment, with a reason: a held or not-yet-delivered one can be approved or
 * rejected (before the provider's auto-approval time); a rejected one can be approved (MTurk's
 * OverrideRejection, within 30 days). An approved assignment cannot be rejected (MTurk does not allow it).
 */
export async function redecideAssignment({
  db,
  assignmentId,
  decision,
  reason,
  actorId,
  provider: injected,
}: {
  db: Db;
  assignmentId: string;
  decision: typeof DECISION.approve | typeof DECISION.reject;
  reason: string;
  actorId: string;
  provider?: CrowdProvider;
}) {
  const a = await db.assignment.findUnique({
    where: { id: assignmentId },
    select: { id: true, status: true, decision: true, providerAssignmentId: true, autoApprovalTime: true, hit: { select: { id: true, eventId: true, provider: true, status: true, rewardCents: true, maxAssignments: true } } },
  });
  if (!a) throw new UserError("This assignment does not exist.", "not_found");
  const provider = injected ?? (await getProvider(db, a.hit.provider));
  if (a.status === ASSIGNMENT_STATUS.approved) throw new UserError("This assignment is already approved, and an approval cannot be taken back (MTurk does not allow it).");
  if (a.status === decision + "d" || (a.status === ASSIGNMENT_STATUS.rejected && decision === DECISION.reject)) throw new UserError(`This assignment is already ${a.status}.`);
  if ((a.status === ASSIGNMENT_STATUS.submitted || a.status === ASSIGNMENT_STATUS.held) && a.autoApprovalTime && a.autoApprovalTime.getTime() <= Date.now()) {
    throw new UserError("Too late: the provider's auto-approval time of this assignment has passed.");
  }
  const feedback = reason.trim().slice(0, 1000);
  if (decision === DECISION.approve) {
    await provider.approveAssignment({ assignmentId: a.providerAssignmentId, feedback, overrideRejection: a.status === ASSIGNMENT_STATUS.rejected });
  } else {
    await provider.rejectAssignment({ assignmentId: a.providerAssignmentId, feedback });
  }
  // The decision, the judgments it counts, the ledger and the HIT's reopening commit together.
  const approve = decision === DECISION.approve;
  await db.$transaction(async (tx) => {
    const { workerId } = await tx.assignment.update({
      where: { id: a.id },
      data: {
        decision,
        status: approve ? ASSIGNMENT_STATUS.approved : ASSIGNMENT_STATUS.rejected,
        providerStatus: approve ? PROVIDER_ASSIGNMENT_STATUS.Approved : PROVIDER_ASSIGNMENT_STATUS.Rejected,
        decidedBy: actorId,
        decidedAt: new Date(),
        decisionSentAt: new Date(),
        feedback,
      },
      select: { workerId: true },
    });
    await tx.judgment.updateMany({ where: { assignmentId: a.id, isGold: false }, data: { counted: approve } });
    if (approve) await recordPayments(tx, [{ eventId: a.hit.eventId, hitId: a.hit.id, assignmentId: a.id, workerId, rewardCents: a.hit.rewardCents, maxAssignments: a.hit.maxAssignments }], feesOf(provider));
    // A decided HIT is looked at again by the sync loop with the new judgments.
    if (a.hit.status === HIT_STATUS.approved || a.hit.status === HIT_STATUS.unresolved) await tx.hit.update({ where: { id: a.hit.id }, data: { status: HIT_STATUS.published } });
  });
  await writeAudit(db, { actorType: "user", actorId, eventId: a.hit.eventId, entityType: "assignment", entityId: a.id, action: `redecide-${decision}`, reason: feedback, details: { previous: a.status } });
  publishLive({ eventId: a.hit.eventId, kind: "decision", data: { assignmentId: a.id, decision, reason: feedback, manual: true } });
}
