import { revalidatePath } from "next/cache";
import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { uploadTweetEvalSet } from "@/lib/ingest/tweeteval-upload";
import { sameOriginOnly } from "@/lib/server/origin-check";

/** A TweetEval split as one set: POST /api/imports/tweeteval?eventId=…&kind=…&task=…, the three files as form data (lib/ingest/tweeteval-upload.ts). */
export const POST = sameOriginOnly(async (request: Request) => {
  const user = await requireRouteUser("edit");
  if (user instanceof Response) return user;
  const reply = await uploadTweetEvalSet(getDb(), request, { userId: user.id });
  if (reply.eventSlug) revalidatePath(`/events/${reply.eventSlug}/data`);
  return Response.json(reply.body, { status: reply.status });
});
