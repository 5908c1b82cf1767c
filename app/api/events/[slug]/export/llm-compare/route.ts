import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { attachmentHeaders } from "@/lib/export/csv";
import { eventForExport, stamp } from "@/lib/export/route-helpers";
import { llmCompareReport } from "@/lib/llm-compare/report";

/** The LLM against the crowd on one event: the same JSON as `accord llm compare --event SLUG --json` (README). */
export async function GET(_request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const db = getDb();
  const event = await eventForExport(db, (await params).slug);
  if (event instanceof Response) return event;
  const report = await llmCompareReport(db, event.slug);
  return new Response(JSON.stringify(report, null, 2) + "\n", { headers: attachmentHeaders(`${event.slug}_llm_compare_${stamp()}.json`, "application/json; charset=utf-8") });
}
