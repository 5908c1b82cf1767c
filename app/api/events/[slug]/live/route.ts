import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { eventIdBySlug } from "@/lib/events/event-lookup";
import { createLiveStream, SSE_HEADERS } from "@/lib/events/live-stream";

export const dynamic = "force-dynamic";

/** Server-Sent Events: the event's live decisions, HIT changes and metrics, for the dashboard pages. */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const { slug } = await params;
  const eventId = await eventIdBySlug(getDb(), slug);
  if (!eventId) return Response.json({ error: "No such event." }, { status: 404 });
  return new Response(createLiveStream({ eventId, signal: request.signal }), { headers: SSE_HEADERS });
}
