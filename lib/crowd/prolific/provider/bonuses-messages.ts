import { CrowdError, isCrowdError } from "../../errors";
import type { Balance, NotifyWorkersResult } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import type { ProlificContext } from "./context";

// Money and messages to participants: the workspace balance, two-step bonuses, one message per participant.

export async function balanceOf(ctx: ProlificContext): Promise<Balance> {
  const b = await ctx.client.getBalance(ctx.workspaceId);
  return { availableCents: Math.round(b.available_balance), onHoldCents: Math.round(b.total_balance - b.available_balance) };
}

/** The study of Accord's that this participant took part in (Prolific messages are about a study). */
async function studyOfParticipant(ctx: ProlificContext, participantId: string): Promise<string | null> {
  for (const study of await ctx.client.listProjectStudies(ctx.projectId)) {
    if ((await ctx.client.listSubmissions(study.id)).some((s) => s.participant_id === participantId)) return study.id;
  }
  return null;
}

/** Prolific messages go one participant at a time, about a study: the one the participant last worked on. */
export async function notifyParticipants(ctx: ProlificContext, { workerIds, subject, message }: { workerIds: string[]; subject: string; message: string }): Promise<NotifyWorkersResult> {
  const failures: NotifyWorkersResult["failures"] = [];
  for (const workerId of workerIds) {
    const studyId = await studyOfParticipant(ctx, workerId);
    if (!studyId) {
      failures.push({ workerId, kind: "hard", message: "This participant has taken part in none of Accord's studies." });
      continue;
    }
    try {
      await ctx.client.sendMessage(workerId, studyId, `${subject}\n\n${message}`);
    } catch (err) {
      failures.push({ workerId, kind: "soft", message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { failures };
}

/**
 * The two-step bonus: set up (Prolific reports amount, fees and VAT), record the set-up id under the token, pay.
 * A retry with the token pays a set-up that was not paid yet, and does nothing after it was.
 */
export async function sendBonus(
  ctx: ProlificContext,
  { workerId, assignmentId, amountCents, uniqueToken }: { workerId: string; assignmentId: string; amountCents: number; uniqueToken: string },
): Promise<{ duplicate: boolean; feeCents?: number }> {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) throw new CrowdError("A bonus must be at least one minor unit.", "invalid_parameter");
  const known = (await ctx.store.get(S.bonus, uniqueToken)) as { bulkId: string; fees: number; paid: boolean } | null;
  if (known?.paid) return { duplicate: true, feeCents: known.fees };
  let record = known;
  if (!record) {
    const sub = await ctx.client.getSubmission(assignmentId);
    if (sub.participant !== workerId) throw new CrowdError(`Submission ${assignmentId} is not participant ${workerId}'s.`, "not_found");
    const studyId = sub.study_id ?? (await studyOfParticipant(ctx, workerId));
    if (!studyId) throw new CrowdError(`Submission ${assignmentId} belongs to no study Accord knows.`, "not_found");
    const setUp = await ctx.client.setUpBonuses(studyId, [{ id: workerId, cents: amountCents }]);
    record = { bulkId: setUp.id, fees: Math.round(setUp.total_amount - setUp.amount), paid: false };
    await ctx.store.put(S.bonus, uniqueToken, record);
  }
  try {
    await ctx.client.payBonuses(record.bulkId);
  } catch (err) {
    // Paid earlier, its answer lost: Prolific refuses to pay the same set-up twice.
    if (!(known && isCrowdError(err, "invalid_parameter") && /already been paid/i.test(err.message))) throw err;
  }
  await ctx.store.put(S.bonus, uniqueToken, { ...record, paid: true });
  return { duplicate: known !== null, feeCents: record.fees };
}
