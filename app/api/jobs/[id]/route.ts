import { requireRouteUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { jobProgress } from "@/lib/events/imports";

export const dynamic = "force-dynamic";

/** A job's progress (rows done, total, rate, ETA), polled by progress bars. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await requireRouteUser("view");
  if (user instanceof Response) return user;
  const { id } = await params;
  const progress = await jobProgress(getDb(), id);
  if (!progress) return Response.json({ error: "No such job." }, { status: 404 });
  return Response.json(progress, { headers: { "Cache-Control": "no-store" } });
}
