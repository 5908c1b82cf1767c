import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { uploadAndPreview } from "@/lib/ingest/judgments/judgment-upload";
import { sameOriginOnly } from "@/lib/server/origin-check";

/**
 * Step one of a judgment import: POST /api/judgment-imports/preview?eventId=…&name=<file name>, the file as the raw
 * body. Saves the upload and returns its preview (format, mapping, labels, personal columns); stores no judgment.
 */
export const POST = sameOriginOnly(async (request: Request) => {
  const user = await requireRouteUser("edit");
  if (user instanceof Response) return user;
  const reply = await uploadAndPreview(getDb(), request);
  return Response.json(reply.body, { status: reply.status });
});
