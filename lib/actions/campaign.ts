"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActionUser } from "@/lib/auth/current-user";
import { estimateBatch } from "@/lib/campaign/estimate";
import { deleteHit, expireHit, extendHitLifetime, redecideAssignment } from "@/lib/campaign/hit-admin";
import { getProvider } from "@/lib/campaign/providers";
import { createHitBatch } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { blockWorker, bonusWorker, notifyWorker, unblockWorker } from "@/lib/campaign/worker-admin";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { type ActionState, errorState, parseForm } from "./action-state";
import { publishFormSchema, qualificationFormSchema } from "./campaign-schemas";

// Every action: signed-in researcher (admin for nothing here), zod-validated, audited by the domain function.

async function eventOf(eventId: string) {
  const event = await getDb().event.findUnique({ where: { id: eventId }, select: { id: true, slug: true, provider: true } });
  if (!event) throw new UserError("This event does not exist.", "not_found");
  return event;
}

export async function createQualificationTestAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(qualificationFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const f = parsed.data;
    const db = getDb();
    const event = await eventOf(f.eventId);
    const test = await createQualificationTest({
      db,
      provider: await getProvider(db, event.provider),
      eventId: event.id,
      goldTweetIds: f.goldTweetIds,
      reuseTestId: f.reuseTestId,
      requirements: { locales: f.locales, minApprovalPercent: f.minApprovalPercent, minApprovedHits: f.minApprovedHits },
      actorId: user.id,
    });
    revalidatePath(`/events/${event.slug}`, "layout");
    return { ok: true, message: `Qualification test ready (${test.providerQualTypeId}). HITs require a score of at least ${test.passPercent}.` };
  } catch (err) {
    return errorState(err, formData);
  }
}

export async function estimatePublishAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    await requireActionUser("edit");
    const parsed = parseForm(publishFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    const event = await eventOf(parsed.data.eventId);
    const estimate = await estimateBatch({ db, provider: await getProvider(db, event.provider), eventId: event.id, hitCount: parsed.data.hitCount, rewardCents: parsed.data.rewardCents });
    return { ok: estimate.ok, message: estimate.ok ? undefined : estimate.problems.join(" "), data: { estimate }, values: Object.fromEntries([...formData.entries()].filter(([k, v]) => typeof v === "string" && !k.startsWith("$ACTION")) as Array<[string, string]>) };
  } catch (err) {
    return errorState(err, formData);
  }
}

export async function publishBatchAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(publishFormSchema, formData);
    if (!parsed.ok) return parsed.state;
    const f = parsed.data;
    const db = getDb();
    const event = await eventOf(f.eventId);
    const { batch, estimate } = await createHitBatch({
      db,
      eventId: event.id,
      actorId: user.id,
      options: {
        hitCount: f.hitCount,
        rewardCents: f.rewardCents,
        lifetimeSeconds: Math.round(f.lifetimeHours * 3600),
        durationSeconds: Math.round(f.durationMinutes * 60),
        autoApprovalSeconds: Math.round(f.autoApprovalHours * 3600),
        title: f.title,
        description: f.description,
        keywords: f.keywords,
        confirmProduction: f.confirmProduction,
      },
    });
    revalidatePath(`/events/${event.slug}`, "layout");
    return { ok: true, message: `Publishing ${batch.hitCount} HITs (worst case ${(estimate.worstCaseCents / 100).toFixed(2)} USD). Progress shows below.`, data: { batchId: batch.id, jobId: batch.jobId } };
  } catch (err) {
    return errorState(err, formData);
  }
}

const hitActionSchema = z.object({ hitId: z.string().min(1), op: z.enum(["expire", "extend", "delete"]), hours: z.coerce.number().min(1).max(24 * 365).optional() });

export async function hitAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(hitActionSchema, formData);
    if (!parsed.ok) return parsed.state;
    const { hitId, op, hours } = parsed.data;
    const db = getDb();
    if (op === "expire") await expireHit({ db, hitId, actorId: user.id });
    else if (op === "extend") await extendHitLifetime({ db, hitId, hours: hours ?? 24, actorId: user.id });
    else await deleteHit({ db, hitId, actorId: user.id });
    revalidatePath("/events", "layout");
    return { ok: true, message: op === "expire" ? "HIT expired." : op === "extend" ? `HIT extended by ${hours ?? 24} hours.` : "HIT deleted." };
  } catch (err) {
    return errorState(err, formData);
  }
}

const redecideSchema = z.object({
  assignmentId: z.string().min(1),
  decision: z.enum(["approve", "reject"], { message: "Choose approve or reject." }),
  reason: z.string().trim().min(5, "Give the worker a reason (at least 5 characters).").max(1000),
});

export async function redecideAssignmentAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(redecideSchema, formData);
    if (!parsed.ok) return parsed.state;
    await redecideAssignment({ db: getDb(), ...parsed.data, actorId: user.id });
    revalidatePath("/events", "layout");
    return { ok: true, message: `Assignment ${parsed.data.decision === "approve" ? "approved" : "rejected"}.` };
  } catch (err) {
    return errorState(err, formData);
  }
}

const workerActionSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("block"), workerId: z.string().min(1), reason: z.string().trim().min(3, "Say why (the worker is told).").max(1000) }),
  z.object({ op: z.literal("unblock"), workerId: z.string().min(1), reason: z.string().trim().max(1000).optional() }),
  z.object({ op: z.literal("notify"), workerId: z.string().min(1), subject: z.string().trim().min(1, "Enter a subject.").max(200), message: z.string().trim().min(1, "Enter a message.").max(4096) }),
  z.object({
    op: z.literal("bonus"),
    workerId: z.string().min(1),
    amountCents: z.coerce.number({ message: "Enter the bonus in cents." }).int().min(1, "At least 1 cent.").max(10_000, "At most $100 per bonus."),
    reason: z.string().trim().min(3, "Say why (the worker sees it).").max(1000),
  }),
]);

export async function workerAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(workerActionSchema, formData);
    if (!parsed.ok) return parsed.state;
    const f = parsed.data;
    const db = getDb();
    if (f.op === "block") await blockWorker({ db, workerId: f.workerId, reason: f.reason, actorId: user.id });
    else if (f.op === "unblock") await unblockWorker({ db, workerId: f.workerId, reason: f.reason, actorId: user.id });
    else if (f.op === "notify") await notifyWorker({ db, workerId: f.workerId, subject: f.subject, message: f.message, actorId: user.id });
    else await bonusWorker({ db, workerId: f.workerId, amountCents: f.amountCents, reason: f.reason, actorId: user.id });
    revalidatePath("/workers");
    return { ok: true, message: { block: "Worker blocked.", unblock: "Worker unblocked.", notify: "Message sent.", bonus: "Bonus paid." }[f.op] };
  } catch (err) {
    return errorState(err, formData);
  }
}
