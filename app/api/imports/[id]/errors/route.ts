import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { attachmentHeaders } from "@/lib/export/csv";
import { UserError } from "@/lib/errors";
import { importErrorsCsv } from "@/lib/ingest/import-queries";

/** An import's per-row error report (line, column, reason, raw) as CSV. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const { id } = await params;
  const db = getDb();
  try {
    const csv = await importErrorsCsv(db, { importId: id });
    const batch = await db.importBatch.findUnique({ where: { id }, select: { fileName: true } });
    return new Response(csv, { headers: attachmentHeaders(`${batch?.fileName ?? id}-errors.csv`, "text/csv; charset=utf-8") });
  } catch (err) {
    if (err instanceof UserError) return Response.json({ error: err.message }, { status: 404 });
    throw err;
  }
}
