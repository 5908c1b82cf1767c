import "server-only";
import { requireRouteUser } from "@/lib/auth/current-user";
import { type Db, getDb } from "@/lib/db/client";
import { csvDownload } from "./csv-bundle";
import type { CsvTextMode } from "./csv";

/** Today's date for file names (UTC). */
export function stamp(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The event a download is about (by slug), or a 404 response. */
export async function eventForExport(db: Db, slug: string): Promise<{ id: string; slug: string } | Response> {
  const event = await db.event.findUnique({ where: { slug }, select: { id: true, slug: true } });
  return event ?? Response.json({ error: "No such event." }, { status: 404 });
}

type RouteContext = { params: Promise<{ slug: string }> };

/**
 * A GET handler that streams one event's CSV download: refuses the signed-out (401) first, then finds the
 * event (404), then streams what `build` yields under the file name it gives (zipped with the event's procedure
 * manifest when the URL asks for ?bundle=zip).
 */
export function eventCsvRoute(build: (args: { db: Db; event: { id: string; slug: string }; url: URL }) => { fileName: string; chunks: AsyncIterable<string>; csvText?: CsvTextMode }) {
  return async function GET(request: Request, { params }: RouteContext): Promise<Response> {
    const user = await requireRouteUser("view");
    if (user instanceof Response) return user;
    const db = getDb();
    const event = await eventForExport(db, (await params).slug);
    if (event instanceof Response) return event;
    const url = new URL(request.url);
    const { fileName, chunks, csvText } = build({ db, event, url });
    return csvDownload(db, { url, fileName, chunks, eventIds: [event.id], csvText });
  };
}
