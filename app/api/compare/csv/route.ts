import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { compareEvents } from "@/lib/events/compare";
import { parseScopeParam } from "@/lib/events/table3-scopes";
import { compareCsv } from "@/lib/export/compare";
import { attachmentHeaders } from "@/lib/export/csv";
import { stamp } from "@/lib/export/route-helpers";

/** Compare events as CSV: Table 3 (in the scope of `?scope=`, agreed tweets by default) and Table 2 of every event. */
export async function GET(request: Request) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const scope = parseScopeParam(new URL(request.url).searchParams.get("scope"));
  const data = await compareEvents(getDb(), { scope });
  return new Response(compareCsv(data), { headers: attachmentHeaders(`accord_compare_events_${stamp()}.csv`, "text/csv; charset=utf-8") });
}
