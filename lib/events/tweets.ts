import "server-only";
import { z } from "zod";
import { type Db, flavorOf, type Prisma } from "@/lib/db/client";
import { escapeLike, hasLikeWildcards, LITERAL_SEARCH_CAP } from "@/lib/db/literal-like";

/**
 * The Data tab's tweets table: search, filter by role, status and label, and keyset paging on the
 * (eventId, externalId) unique index, so that any page of a 100,000-tweet event costs the same.
 */
export const TWEET_STATUSES = ["pending", "in_hit", "judged", "accepted", "unresolved", "retired"] as const;
export const TWEETS_PAGE_SIZE = 50;

export const tweetQuerySchema = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  role: z.enum(["unknown", "gold"]).optional().catch(undefined),
  status: z.enum(TWEET_STATUSES).optional().catch(undefined),
  label: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_:-]+$/)
    .optional()
    .catch(undefined),
  after: z.string().trim().max(40).optional().catch(undefined),
  before: z.string().trim().max(40).optional().catch(undefined),
});
export type TweetQuery = z.infer<typeof tweetQuerySchema>;

export type TweetRow = {
  id: string;
  externalId: string;
  text: string;
  role: string;
  status: string;
  goldLabel: string | null;
  /** The label that came with the tweet's file (the default expert label when marking it gold). */
  sourceLabel: string | null;
  lang: string | null;
  tweetedAt: Date | null;
  userLocation: string | null;
  acceptedLabel: { label: string; topVotes: number; totalVotes: number } | null;
  duplicateOf: string | null;
};

async function textMatches(db: Db, eventId: string, q: string): Promise<Prisma.TweetWhereInput> {
  // The SQLite client types know no `mode`; the PostgreSQL one does (the models are the same).
  if (flavorOf(db) === "postgres") return { text: { contains: escapeLike(q), mode: "insensitive" } as Prisma.StringFilter<"Tweet"> };
  if (!hasLikeWildcards(q)) return { text: { contains: q } };
  // SQLite's LIKE cannot take % or _ literally here: the same ASCII-case-insensitive match through instr().
  const rows = await db.$queryRaw<Array<{ id: string }>>`SELECT "id" FROM "Tweet" WHERE "eventId" = ${eventId} AND instr(lower("text"), lower(${q})) > 0 LIMIT ${LITERAL_SEARCH_CAP}`;
  return { id: { in: rows.map((r) => r.id) } };
}

export async function tweetWhere(db: Db, eventId: string, query: Omit<TweetQuery, "after" | "before">): Promise<Prisma.TweetWhereInput> {
  const and: Prisma.TweetWhereInput[] = [{ eventId }];
  if (query.role) and.push({ role: query.role });
  if (query.status) and.push({ status: query.status });
  if (query.label) and.push({ OR: [{ acceptedLabel: { is: { label: query.label } } }, { goldLabel: query.label }] });
  if (query.q) {
    and.push({ OR: [await textMatches(db, eventId, query.q), { externalId: query.q }] });
  }
  return and.length === 1 ? and[0] : { AND: and };
}

export async function listTweets(
  db: Db,
  eventId: string,
  query: TweetQuery,
): Promise<{ rows: TweetRow[]; total: number; nextAfter: string | null; prevBefore: string | null }> {
  const where = await tweetWhere(db, eventId, query);
  const backwards = Boolean(query.before) && !query.after;
  const cursor: Prisma.TweetWhereInput | null = query.after
    ? { externalId: { gt: query.after } }
    : query.before
      ? { externalId: { lt: query.before } }
      : null;
  const [total, found] = await Promise.all([
    db.tweet.count({ where }),
    db.tweet.findMany({
      where: cursor ? { AND: [where, cursor] } : where,
      orderBy: { externalId: backwards ? "desc" : "asc" },
      take: TWEETS_PAGE_SIZE + 1,
      select: {
        id: true,
        externalId: true,
        text: true,
        role: true,
        status: true,
        goldLabel: true,
        sourceLabel: true,
        lang: true,
        tweetedAt: true,
        userLocation: true,
        acceptedLabel: { select: { label: true, topVotes: true, totalVotes: true } },
        duplicateOf: { select: { externalId: true } },
      },
    }),
  ]);
  const more = found.length > TWEETS_PAGE_SIZE;
  const page = found.slice(0, TWEETS_PAGE_SIZE);
  if (backwards) page.reverse();
  const rows: TweetRow[] = page.map((t) => ({ ...t, duplicateOf: t.duplicateOf?.externalId ?? null }));
  const first = rows[0]?.externalId ?? null;
  const last = rows[rows.length - 1]?.externalId ?? null;
  // Forward: a next page exists when we got one row more; a previous one when we started after a cursor.
  const hasNext = backwards ? Boolean(query.before) : more;
  const hasPrev = backwards ? more : Boolean(query.after);
  return { rows, total, nextAfter: hasNext ? last : null, prevBefore: hasPrev ? first : null };
}
