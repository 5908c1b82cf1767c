import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { Db } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, COST_KIND } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { crowdCurrency } from "@/lib/events/event-currency";
import { bonusFeeOf, recordBonus } from "./ledger";
import { getProvider } from "./providers";

async function workerAndProvider(db: Db, workerId: string, injected?: CrowdProvider) {
  const worker = await db.worker.findUnique({ where: { id: workerId }, select: { id: true, provider: true, externalId: true, blocked: true } });
  if (!worker) throw new UserError("This worker does not exist.", "not_found");
  return { worker, provider: injected ?? (await getProvider(db, worker.provider)) };
}

export async function blockWorker({ db, workerId, reason, actorId, provider: injected }: { db: Db; workerId: string; reason: string; actorId: string; provider?: CrowdProvider }) {
  const { worker, provider } = await workerAndProvider(db, workerId, injected);
  await provider.blockWorker({ workerId: worker.externalId, reason });
  await db.worker.update({ where: { id: workerId }, data: { blocked: true, blockedReason: reason } });
  await writeAudit(db, { actorType: "user", actorId, entityType: "worker", entityId: workerId, action: "block", reason });
}

export async function unblockWorker({ db, workerId, reason, actorId, provider: injected }: { db: Db; workerId: string; reason?: string; actorId: string; provider?: CrowdProvider }) {
  const { worker, provider } = await workerAndProvider(db, workerId, injected);
  await provider.unblockWorker({ workerId: worker.externalId, reason });
  await db.worker.update({ where: { id: workerId }, data: { blocked: false, blockedReason: null } });
  await writeAudit(db, { actorType: "user", actorId, entityType: "worker", entityId: workerId, action: "unblock", reason: reason ?? null });
}

export async function notifyWorker({ db, workerId, subject, message, actorId, provider: injected }: { db: Db; workerId: string; subject: string; message: string; actorId: string; provider?: CrowdProvider }) {
  const { worker, provider } = await workerAndProvider(db, workerId, injected);
  const res = await provider.notifyWorkers({ workerIds: [worker.externalId], subject, message });
  const failure = res.failures.find((f) => f.workerId === worker.externalId);
  await writeAudit(db, { actorType: "user", actorId, entityType: "worker", entityId: workerId, action: "notify", reason: subject, details: { delivered: !failure } });
  if (failure) throw new UserError(`The message was not delivered: ${failure.message}`);
}

/** Pays a bonus for one of the worker's assignments; the bonus and its 20% fee go to the ledger. */
export async function bonusWorker({
  db,
  workerId,
  assignmentId,
  amountCents,
  reason,
  actorId,
  provider: injected,
}: {
  db: Db;
  workerId: string;
  assignmentId?: string;
  amountCents: number;
  reason: string;
  actorId: string;
  provider?: CrowdProvider;
}) {
  const { worker, provider } = await workerAndProvider(db, workerId, injected);
  const assignment = await db.assignment.findFirst({
    where: { workerId, ...(assignmentId ? { id: assignmentId } : {}), status: ASSIGNMENT_STATUS.approved },
    orderBy: { submitTime: "desc" },
    select: { id: true, providerAssignmentId: true, hitId: true, hit: { select: { eventId: true, batch: { select: { currency: true } } } } },
  });
  if (!assignment) throw new UserError("A bonus is paid for an approved assignment, and this worker has none.");
  // The ledger counts a bonus in its assignment's batch currency: refused when the crowd now pays in another one.
  const paidIn = assignment.hit.batch?.currency;
  const currency = await crowdCurrency(db, provider.kind);
  if (paidIn && paidIn !== currency) {
    throw new UserError(`This assignment's batch paid in ${paidIn}, but the crowd now pays in ${currency}: a bonus on it would be counted in the wrong currency.`, "currency_changed");
  }
  const bonus = await db.costEntry.count({ where: { assignmentId: assignment.id, kind: COST_KIND.bonus } });
  const token = `${assignment.id}-bonus-${bonus + 1}`;
  const sent = await provider.sendBonus({ workerId: worker.externalId, assignmentId: assignment.providerAssignmentId, amountCents, reason, uniqueToken: token });
  const { feeCents: fee } = await db.$transaction(async (tx) => {
    const recorded = await recordBonus(tx, { eventId: assignment.hit.eventId, hitId: assignment.hitId, assignmentId: assignment.id, workerId, amountCents, token, feeCents: bonusFeeOf(provider, amountCents, sent.feeCents) });
    await tx.worker.update({ where: { id: workerId }, data: { earningsCents: { increment: amountCents } } });
    return recorded;
  });
  await writeAudit(db, { actorType: "user", actorId, eventId: assignment.hit.eventId, entityType: "worker", entityId: workerId, action: "bonus", reason, details: { amountCents, feeCents: fee, assignmentId: assignment.id } });
}
