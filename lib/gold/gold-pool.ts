import "server-only";
import type { Db } from "@/lib/db/client";
import { TWEET_ROLE } from "@/lib/db/enums";
import { checkGoldPool, type GoldPoolCheck } from "@/lib/procedure/gold-pool";
import { readEventSettings } from "./event-settings";

/** The event's active gold (not retired) by expert label, checked against its qualification test and HIT sizes. */
export async function loadGoldPool(db: Db, eventId: string): Promise<GoldPoolCheck> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, settings: true, schemeId: true } });
  const [groups, labels] = await Promise.all([
    db.tweet.groupBy({ by: ["goldLabel"], where: { eventId, role: TWEET_ROLE.gold, retiredAt: null, goldLabel: { not: null } }, _count: { _all: true } }),
    db.label.findMany({ where: { schemeId: event.schemeId }, orderBy: { position: "asc" }, select: { value: true } }),
  ]);
  const counts = new Map(groups.map((g) => [g.goldLabel as string, g._count._all]));
  return checkGoldPool(counts, { labels: labels.map((l) => l.value), settings: readEventSettings(event) });
}
