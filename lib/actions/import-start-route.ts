import "server-only";
import { revalidatePath } from "next/cache";
import { requireRouteUser } from "@/lib/auth/current-user";
import { type Db, getDb } from "@/lib/db/client";
import { sameOriginOnly } from "@/lib/server/origin-check";

/** What an import's starter answers: the HTTP status, the JSON body and the event whose Data tab changed. */
export type ImportStartReply = { status: number; body: unknown; eventSlug?: string };
type Starter = (db: Db, input: unknown, who: { userId: string; actor: { id: string; email: string } }) => Promise<ImportStartReply>;

/**
 * A same-origin POST route that starts an import from a kept upload: an editor signed in, the JSON body handed to
 * the starter (which validates it), the event's Data tab revalidated. `invalid`: the answer to a body that is not JSON.
 */
export function importStartRoute(start: Starter, invalid: string) {
  return sameOriginOnly(async (request: Request) => {
    const user = await requireRouteUser("edit");
    if (user instanceof Response) return user;
    let input: unknown;
    try {
      input = await request.json();
    } catch {
      return Response.json({ error: invalid }, { status: 400 });
    }
    const reply = await start(getDb(), input, { userId: user.id, actor: { id: user.id, email: user.email } });
    if (reply.eventSlug) revalidatePath(`/events/${reply.eventSlug}/data`);
    return Response.json(reply.body, { status: reply.status });
  });
}
