"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { setGoldRetired, setTweetGold } from "@/lib/events/event-admin";
import { requireEventById } from "@/lib/events/event-lookup";
import { goldTweetSchema } from "@/lib/events/events.validation";
import { requestGoldChange } from "@/lib/gold/gold-requests";
import { bulkGoldSchema, makeGoldSchema, markGoldSchema, unmarkGoldSchema } from "@/lib/gold/gold.validation";
import { formAction } from "./define-action";

// Retiring a suspicious gold tweet keeps it (past grades keep their meaning) but leaves it out of new HITs and tests.
// Marking and unmarking gold changes what gold health, the qualification builder and HIT packing see: every page
// of the event is revalidated.

const revalidateEvent = (slug: string) => revalidatePath(`/events/${slug}`, "layout");

export const retireGoldAction = formAction({ access: "edit", input: goldTweetSchema }, async ({ user, input }) => {
  const tweet = await setGoldRetired(getDb(), { ...input, retire: true, actorId: user.id });
  revalidateEvent(tweet.eventSlug);
  return { ok: true, message: `Gold tweet ${tweet.externalId} retired.` };
});

export const restoreGoldAction = formAction({ access: "edit", input: goldTweetSchema }, async ({ user, input }) => {
  const tweet = await setGoldRetired(getDb(), { ...input, retire: false, actorId: user.id });
  revalidateEvent(tweet.eventSlug);
  return { ok: true, message: `Gold tweet ${tweet.externalId} is in use again.` };
});

/** Marks one stored tweet gold with its expert label. */
export const markGoldAction = formAction({ access: "edit", input: markGoldSchema }, async ({ user, input }) => {
  const done = await setTweetGold(getDb(), { tweetId: input.tweetId, label: input.label, actorId: user.id });
  revalidateEvent(done.eventSlug);
  return { ok: true, message: done.message };
});

/** Unmarks one gold tweet (retired when already used, else an unknown tweet again). */
export const unmarkGoldAction = formAction({ access: "edit", input: unmarkGoldSchema }, async ({ user, input }) => {
  const done = await setTweetGold(getDb(), { tweetId: input.tweetId, label: null, actorId: user.id });
  revalidateEvent(done.eventSlug);
  return { ok: true, message: done.message };
});

/** Marks or unmarks every tweet matching the Data tab's filters (a job when many). */
export const bulkGoldAction = formAction({ access: "edit", input: bulkGoldSchema }, async ({ user, input }) => {
  const db = getDb();
  const event = await requireEventById(db, input.eventId);
  const { eventId, mode, goldLabel, ...filter } = input;
  const done = await requestGoldChange(db, { eventId, actorId: user.id, request: { kind: "filter", mode, goldLabel, filter } });
  revalidateEvent(event.slug);
  return { ok: true, message: done.message };
});

/** "Make gold from labelled tweets": N per class of an upload's labels, seeded; the rest stay unknown. */
export const makeGoldAction = formAction({ access: "edit", input: makeGoldSchema }, async ({ user, input }) => {
  const db = getDb();
  const event = await requireEventById(db, input.eventId);
  const { eventId, ...request } = input;
  const done = await requestGoldChange(db, { eventId, actorId: user.id, request: { kind: "fromImport", ...request } });
  revalidateEvent(event.slug);
  return { ok: true, message: done.message };
});
