import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { eventIdsBySlugs } from "@/lib/events/event-lookup";
import { attachmentHeaders } from "@/lib/export/csv";
import { buildHumaidExport, humaidZip } from "@/lib/export/humaid";
import { stamp } from "@/lib/export/route-helpers";

/**
 * Several events in the HumAID format (?events=slug,slug; all unarchived events by default): each event's
 * splits, the event-type sets and the all-combined set (cross-split near-duplicates removed), README.
 */
export async function GET(request: Request) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const db = getDb();
  const url = new URL(request.url);
  const slugs = (url.searchParams.get("events") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const eventIds = await eventIdsBySlugs(db, slugs);
  if (eventIds.length === 0) return Response.json({ error: "No events to export." }, { status: 404 });
  const exp = await buildHumaidExport(db, { eventIds, seed: url.searchParams.get("seed")?.slice(0, 40) || undefined });
  return new Response(humaidZip(exp) as unknown as BodyInit, { headers: attachmentHeaders(`humaid_${eventIds.length}_events_${stamp()}.zip`, "application/zip") });
}
