import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { compareEvents } from "@/lib/analysis/compare";
import { parseScopeParam } from "@/lib/analysis/table3-scopes";
import { compareCsv } from "@/lib/export/compare";
import { csvDownload, unarchivedEventIds } from "@/lib/export/csv-bundle";
import { stamp } from "@/lib/export/route-helpers";

/** Compare events as CSV: Table 3 (in the scope of `?scope=`, agreed tweets by default) and Table 2 of every event (?bundle=zip: with the manifest). */
export async function GET(request: Request) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const db = getDb();
  const url = new URL(request.url);
  const scope = parseScopeParam(url.searchParams.get("scope"));
  const data = await compareEvents(db, { scope });
  const eventIds = url.searchParams.get("bundle") === "zip" ? await unarchivedEventIds(db) : [];
  return csvDownload(db, { url, fileName: `accord_compare_events_${stamp()}.csv`, chunks: once(compareCsv(data)), eventIds });
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}
