import "server-only";
import type { Db } from "@/lib/db/client";
import { syntheticTweets } from "@/lib/classify/synthetic.fixture";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * An event whose tweets carry accepted labels (the outcome of a finished campaign), with generated
 * texts (lib/classify's synthetic tweets: no third-party text), plus a few gold tweets that training
 * must ignore. For the Models tests.
 */
export async function seedLabelledEvent(
  db: Db,
  { slug, tweets, seed, idBase = 1_000_000_000, labels }: { slug: string; tweets: number; seed: number; idBase?: number; labels?: string[] },
): Promise<{ eventId: string; schemeId: string; texts: string[]; labels: string[]; ids: string[] }> {
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({
    data: { slug, name: `Event ${slug}`, type: "hurricane", schemeId, settings: {}, filters: {}, locations: [] },
    select: { id: true },
  });
  const data = syntheticTweets(tweets, seed, labels);
  const ids = data.texts.map((_, i) => String(idBase + i));
  await db.tweet.createMany({
    data: data.texts.map((text, i) => ({ eventId: event.id, externalId: ids[i], text: `${text} ${slug} ${i}`, lang: "en", status: TWEET_STATUS.accepted })),
  });
  // Gold tweets (with a "wrong" accepted label) must never reach training or evaluation.
  await db.tweet.createMany({
    data: [0, 1, 2].map((k) => ({ eventId: event.id, externalId: `9${idBase + k}`, text: `gold tweet ${k} about the game`, role: TWEET_ROLE.gold, goldLabel: "sympathy_and_support", status: TWEET_STATUS.accepted })),
  });
  const stored = await db.tweet.findMany({ where: { eventId: event.id }, select: { id: true, externalId: true, role: true } });
  const labelOf = new Map(ids.map((id, i) => [id, data.labels[i]]));
  await db.acceptedLabel.createMany({
    data: stored.map((s) => {
      const label = s.role === TWEET_ROLE.gold ? "sympathy_and_support" : (labelOf.get(s.externalId) as string);
      return { tweetId: s.id, eventId: event.id, label, topVotes: 3, totalVotes: 3, votes: { [label]: 3 } };
    }),
  });
  return { eventId: event.id, schemeId, texts: data.texts, labels: data.labels, ids };
}
