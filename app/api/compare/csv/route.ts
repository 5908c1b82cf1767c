import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { compareEvents } from "@/lib/events/compare";
import { compareCsv } from "@/lib/export/compare";
import { attachmentHeaders } from "@/lib/export/csv";
import { stamp } from "@/lib/export/route-helpers";

/** Compare events as CSV: Table 3 and Table 2 of every event. */
export async function GET() {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const data = await compareEvents(getDb());
  return new Response(compareCsv(data), { headers: attachmentHeaders(`accord_compare_events_${stamp()}.csv`, "text/csv; charset=utf-8") });
}
