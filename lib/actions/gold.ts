"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { writeAudit } from "@/lib/audit/write-audit";
import { requireActionUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { type ActionState, errorState, parseForm } from "./action-state";

const goldActionSchema = z.object({
  tweetId: z.string().min(1).max(60),
  reason: z.string().trim().max(500).optional(),
});

/**
 * Retires a suspicious gold tweet: it stays in the database (past grades keep their meaning) but is no
 * longer used in new HITs or qualification tests. Restoring brings it back.
 */
async function setGoldRetired(formData: FormData, retire: boolean): Promise<ActionState> {
  try {
    const user = await requireActionUser("edit");
    const parsed = parseForm(goldActionSchema, formData);
    if (!parsed.ok) return parsed.state;
    const db = getDb();
    const tweet = await db.tweet.findUnique({ where: { id: parsed.data.tweetId }, select: { id: true, role: true, eventId: true, externalId: true, event: { select: { slug: true } } } });
    if (!tweet || tweet.role !== "gold") throw new UserError("That is not a gold tweet.");
    await db.tweet.update({ where: { id: tweet.id }, data: retire ? { status: "retired", retiredAt: new Date() } : { status: "pending", retiredAt: null } });
    await writeAudit(db, {
      actorType: "user",
      actorId: user.id,
      eventId: tweet.eventId,
      entityType: "tweet",
      entityId: tweet.id,
      action: retire ? "retire-gold" : "restore-gold",
      reason: parsed.data.reason || null,
      details: { externalId: tweet.externalId },
    });
    revalidatePath(`/events/${tweet.event.slug}/data`);
    return { ok: true, message: retire ? `Gold tweet ${tweet.externalId} retired.` : `Gold tweet ${tweet.externalId} is in use again.` };
  } catch (err) {
    return errorState(err, formData);
  }
}

export async function retireGoldAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return setGoldRetired(formData, true);
}

export async function restoreGoldAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return setGoldRetired(formData, false);
}
