import { revalidatePath } from "next/cache";
import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { startFromUpload } from "@/lib/ingest/judgments/judgment-upload";
import { sameOriginOnly } from "@/lib/server/origin-check";

/** Step two: POST /api/judgment-imports with { eventId, upload, fileName, mapping, labelMap } starts the import job. */
export const POST = sameOriginOnly(async (request: Request) => {
  const user = await requireRouteUser("edit");
  if (user instanceof Response) return user;
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return Response.json({ error: "Invalid import." }, { status: 400 });
  }
  const reply = await startFromUpload(getDb(), input, { userId: user.id, actor: { id: user.id, email: user.email } });
  if (reply.eventSlug) revalidatePath(`/events/${reply.eventSlug}/data`);
  return Response.json(reply.body, { status: reply.status });
});
