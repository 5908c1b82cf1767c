import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { auditCsv } from "@/lib/export/audit";
import { attachmentHeaders, textStream } from "@/lib/export/csv";
import { stamp } from "@/lib/export/route-helpers";

/** The whole audit log (all events, accounts and settings) as CSV: admins only. */
export async function GET() {
  const user = await requireRouteUser("admin");
  if (user instanceof Response) return user;
  return new Response(textStream(auditCsv(getDb(), {})), { headers: attachmentHeaders(`accord_audit_${stamp()}.csv`, "text/csv; charset=utf-8") });
}
