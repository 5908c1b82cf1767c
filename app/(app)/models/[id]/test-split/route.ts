import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { attachmentHeaders, csvRows } from "@/lib/export/csv";
import { UserError } from "@/lib/errors";
import { modelTestSplit } from "@/lib/models/evaluate-predictions";

/** A model's test split (as exported) as CSV tweet_id,tweet_text,class_label, for predicting elsewhere. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const { id } = await params;
  try {
    const split = await modelTestSplit(getDb(), id);
    const csv = csvRows([["tweet_id", "tweet_text", "class_label", "event"], ...split.rows.map((r) => [r.id, r.text, r.label, r.event.slug])]);
    return new Response(csv, { headers: attachmentHeaders(`${split.fileStem}-test.csv`, "text/csv; charset=utf-8") });
  } catch (err) {
    if (err instanceof UserError) return Response.json({ error: err.message }, { status: 404 });
    throw err;
  }
}
