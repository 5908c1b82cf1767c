"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { setGoldRetired } from "@/lib/events/event-admin";
import { goldTweetSchema } from "@/lib/events/events.validation";
import { formAction } from "./define-action";

// Retiring a suspicious gold tweet keeps it (past grades keep their meaning) but leaves it out of new HITs and tests.

export const retireGoldAction = formAction({ access: "edit", input: goldTweetSchema }, async ({ user, input }) => {
  const tweet = await setGoldRetired(getDb(), { ...input, retire: true, actorId: user.id });
  revalidatePath(`/events/${tweet.eventSlug}/data`);
  return { ok: true, message: `Gold tweet ${tweet.externalId} retired.` };
});

export const restoreGoldAction = formAction({ access: "edit", input: goldTweetSchema }, async ({ user, input }) => {
  const tweet = await setGoldRetired(getDb(), { ...input, retire: false, actorId: user.id });
  revalidatePath(`/events/${tweet.eventSlug}/data`);
  return { ok: true, message: `Gold tweet ${tweet.externalId} is in use again.` };
});
