import { revalidatePath } from "next/cache";
import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { importWithColumns } from "@/lib/ingest/save-upload";
import { sameOriginOnly } from "@/lib/server/origin-check";

/**
 * The column preview's second step: POST /api/imports/columns with { eventId, kind, upload, fileName, columns }
 * (lib/ingest/columns.validation.ts) saves the event's column mapping and starts the import of the kept upload.
 */
export const POST = sameOriginOnly(async (request: Request) => {
  const user = await requireRouteUser("edit");
  if (user instanceof Response) return user;
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return Response.json({ error: "Invalid columns." }, { status: 400 });
  }
  const reply = await importWithColumns(getDb(), input, { userId: user.id, actor: { id: user.id, email: user.email } });
  if (reply.eventSlug) revalidatePath(`/events/${reply.eventSlug}/data`);
  return Response.json(reply.body, { status: reply.status });
});
