import { revalidatePath } from "next/cache";
import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { saveUploadAndImport } from "@/lib/ingest/save-upload";
import { sameOriginOnly } from "@/lib/server/origin-check";

/**
 * Upload of a tweet file: POST /api/imports?eventId=…&kind=tweets|gold&name=<file name>, the file as the raw body
 * (lib/ingest/save-upload.ts). Only from Accord's own pages: another site's request with the researcher's cookie is
 * refused (403) before anything else.
 */
export const POST = sameOriginOnly(async (request: Request) => {
  const user = await requireRouteUser("edit");
  if (user instanceof Response) return user;
  const reply = await saveUploadAndImport(getDb(), request, { userId: user.id });
  if (reply.eventSlug) revalidatePath(`/events/${reply.eventSlug}/data`);
  return Response.json(reply.body, { status: reply.status });
});
