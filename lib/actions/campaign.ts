"use server";

import { revalidatePath } from "next/cache";
import { crowdPolicyFormSchema, hitActionSchema, publishFormSchema, qualificationFormSchema, redecideSchema, workerActionSchema } from "@/lib/campaign/campaign.validation";
import { estimateBatch } from "@/lib/campaign/estimate";
import { deleteHit, expireHit, extendHitLifetime, redecideAssignment } from "@/lib/campaign/hit-admin";
import { getProvider } from "@/lib/campaign/providers";
import { createHitBatch } from "@/lib/campaign/publish";
import { saveCrowdPolicy } from "@/lib/campaign/prelaunch-check";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { blockWorker, bonusWorker, notifyWorker, unblockWorker } from "@/lib/campaign/worker-admin";
import { getDb } from "@/lib/db/client";
import { requireEventById } from "@/lib/events/event-lookup";
import { formatMoney } from "@/lib/text/format";
import { formValues } from "./action-state";
import { formAction } from "./define-action";
import { DECISION } from "@/lib/db/enums";

// Campaign actions: researchers (edit); the domain functions write the audit rows.

export const createQualificationTestAction = formAction({ access: "edit", input: qualificationFormSchema }, async ({ user, input: f }) => {
  const db = getDb();
  const event = await requireEventById(db, f.eventId);
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
});

export const estimatePublishAction = formAction({ access: "edit", input: publishFormSchema }, async ({ input, formData }) => {
  const db = getDb();
  const event = await requireEventById(db, input.eventId);
  const estimate = await estimateBatch({ db, provider: await getProvider(db, event.provider), eventId: event.id, hitCount: input.hitCount, rewardCents: input.rewardCents, assignmentDurationSeconds: Math.round(input.durationMinutes * 60) });
  return { ok: estimate.ok, message: estimate.ok ? undefined : estimate.problems.join(" "), data: { estimate }, values: formValues(formData) };
});

export const publishBatchAction = formAction({ access: "edit", input: publishFormSchema }, async ({ user, input: f, formData }) => {
  const db = getDb();
  const event = await requireEventById(db, f.eventId);
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
  // The entered values come back so the form keeps them for the next batch (a reward the floor accepted stays).
  return { ok: true, values: formValues(formData), message: `Publishing ${batch.hitCount} HITs (worst case ${formatMoney(estimate.worstCaseCents, estimate.currency)}). Progress shows below.`, data: { batchId: batch.id, jobId: batch.jobId } };
});

/** The event's crowd-policy settings, refused with the crowd's reason when it forbids them (the pre-launch check). */
export const crowdPolicyAction = formAction({ access: "edit", input: crowdPolicyFormSchema }, async ({ user, input: f, formData }) => {
  const db = getDb();
  const event = await requireEventById(db, f.eventId);
  const raw = { belowGold: f.belowGold, attentionChecks: f.attentionChecks, rejectFailedChecks: f.rejectFailedChecks, rejectTooQuick: f.rejectTooQuick, rejectionCapShare: f.rejectionCapPercent / 100 };
  await saveCrowdPolicy(db, { eventId: event.id, raw, actorId: user.id });
  revalidatePath(`/events/${event.slug}`, "layout");
  return { ok: true, message: "Policy saved: the check above says what it will do.", values: formValues(formData) };
});

export const hitAction = formAction({ access: "edit", input: hitActionSchema }, async ({ user, input: { hitId, op, hours } }) => {
  const db = getDb();
  if (op === "expire") await expireHit({ db, hitId, actorId: user.id });
  else if (op === "extend") await extendHitLifetime({ db, hitId, hours: hours ?? 24, actorId: user.id });
  else await deleteHit({ db, hitId, actorId: user.id });
  revalidatePath("/events", "layout");
  return { ok: true, message: op === "expire" ? "HIT expired." : op === "extend" ? `HIT extended by ${hours ?? 24} hours.` : "HIT deleted." };
});

export const redecideAssignmentAction = formAction({ access: "edit", input: redecideSchema }, async ({ user, input }) => {
  await redecideAssignment({ db: getDb(), ...input, actorId: user.id });
  revalidatePath("/events", "layout");
  return { ok: true, message: `Assignment ${input.decision === DECISION.approve ? "approved" : "rejected"}.` };
});

export const workerAction = formAction({ access: "edit", input: workerActionSchema }, async ({ user, input: f }) => {
  const db = getDb();
  if (f.op === "block") await blockWorker({ db, workerId: f.workerId, reason: f.reason, actorId: user.id });
  else if (f.op === "unblock") await unblockWorker({ db, workerId: f.workerId, reason: f.reason, actorId: user.id });
  else if (f.op === "notify") await notifyWorker({ db, workerId: f.workerId, subject: f.subject, message: f.message, actorId: user.id });
  else await bonusWorker({ db, workerId: f.workerId, amountCents: f.amountCents, reason: f.reason, actorId: user.id });
  revalidatePath("/workers");
  return { ok: true, message: { block: "Worker blocked.", unblock: "Worker unblocked.", notify: "Message sent.", bonus: "Bonus paid." }[f.op] };
});
