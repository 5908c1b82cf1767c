import { requireRouteSession } from "@/lib/auth/current-user";
import { sessionKeyOf } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { eventIdBySlug } from "@/lib/events/event-lookup";
import { liveSessionCheck } from "@/lib/events/live-session-check";
import { liveSessionGuard } from "@/lib/events/live-sessions";
import { createLiveStream, SSE_HEADERS } from "@/lib/events/live-stream";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: the event's live decisions, HIT changes and metrics, for the dashboard pages. The session is
 * re-checked every few seconds while the stream is open, and a session keeps at most a few streams (the oldest closes).
 * `?probe=1` answers 204 without opening a stream: the page asks it after a failed reconnect to tell a signed-out
 * session (401) from a dropped connection.
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const found = await requireRouteSession("view");
  if (found instanceof Response) return found;
  const { slug } = await params;
  const db = getDb();
  const eventId = await eventIdBySlug(db, slug);
  if (!eventId) return Response.json({ error: "No such event." }, { status: 404 });
  if (new URL(request.url).searchParams.has("probe")) return new Response(null, { status: 204 });
  const check = liveSessionCheck(db, found.token, found.user.role);
  const key = sessionKeyOf(found.token);
  const stream = createLiveStream({ eventId, signal: request.signal, register: (end) => liveSessionGuard().attach(key, check, end) });
  return new Response(stream, { headers: SSE_HEADERS });
}
