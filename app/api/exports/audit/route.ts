import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { auditCsv } from "@/lib/export/audit";
import { csvDownload, unarchivedEventIds } from "@/lib/export/csv-bundle";
import { stamp } from "@/lib/export/route-helpers";

/** The whole audit log (all events, accounts and settings) as CSV (?bundle=zip: with the manifest of every unarchived event): admins only. */
export async function GET(request: Request) {
  const user = await requireRouteUser("admin");
  if (user instanceof Response) return user;
  const db = getDb();
  const url = new URL(request.url);
  const eventIds = url.searchParams.get("bundle") === "zip" ? await unarchivedEventIds(db) : [];
  return csvDownload(db, { url, fileName: `accord_audit_${stamp()}.csv`, chunks: auditCsv(db, {}), eventIds });
}
