import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { attachmentHeaders } from "@/lib/export/csv";
import { buildHumaidExport, humaidZip } from "@/lib/export/humaid";
import { eventForExport, stamp } from "@/lib/export/route-helpers";

/** One event's agreed labels in the HumAID format: {event}_{train,dev,test}.tsv + README (Table 6), zipped. */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const db = getDb();
  const event = await eventForExport(db, (await params).slug);
  if (event instanceof Response) return event;
  const seed = new URL(request.url).searchParams.get("seed")?.slice(0, 40) || undefined;
  const exp = await buildHumaidExport(db, { eventIds: [event.id], seed, merged: false });
  const zip = humaidZip(exp);
  return new Response(zip as unknown as BodyInit, { headers: attachmentHeaders(`${event.slug}_humaid_${stamp()}.zip`, "application/zip") });
}
