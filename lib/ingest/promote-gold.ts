import "server-only";
import type { Db } from "@/lib/db/client";
import { markTweetsGold } from "@/lib/gold/gold-marking";
import type { IngestRow } from "./rows";

/**
 * A gold file's rows whose tweets are stored already (as unknown tweets not yet in a HIT) promote those tweets to
 * gold with the row's label, under the marking rules (audited per tweet). Runs inside the import's transaction.
 */
export async function promoteToGold(
  db: Db,
  { eventId, rows, actorId, fileName }: { eventId: string; rows: readonly IngestRow[]; actorId: string | null; fileName: string },
): Promise<{ changed: number; skipped: number }> {
  const labelOf = new Map(rows.map((r) => [r.externalId, r.label ?? null]));
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { schemeId: true } });
  const labels = await db.label.findMany({ where: { schemeId: event.schemeId }, select: { value: true } });
  const ids = [...labelOf.keys()];
  const tweets: Array<{ id: string; externalId: string }> = [];
  for (let i = 0; i < ids.length; i += 500) {
    tweets.push(...(await db.tweet.findMany({ where: { eventId, externalId: { in: ids.slice(i, i + 500) } }, select: { id: true, externalId: true } })));
  }
  const outcome = await markTweetsGold(db, {
    eventId,
    picks: tweets.map((t) => ({ id: t.id, label: labelOf.get(t.externalId) ?? null })),
    schemeLabels: labels.map((l) => l.value),
    actorId,
    reason: `gold upload ${fileName}`,
  });
  return { changed: outcome.changed, skipped: Object.values(outcome.skipped).reduce((s, n) => s + n, 0) };
}
