import "server-only";
import type { Db, Prisma } from "@/lib/db/client";
import { csvLine, csvRows, type CsvCell } from "./csv";
import { TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";

/**
 * The agreed-labels CSV: `tweet_id,tweet_text,class_label,event,agreement,judgments,votes`, one row per
 * unknown tweet with an accepted label (gold tweets are never exported as crowd labels). `agreement` is the
 * accepted label's share of the approved judgments (4 decimals), `votes` lists every label as
 * `label:count` joined by `;`, most votes first. With `includeUnresolved`, tweets that ended without an
 * agreed label follow too, with an empty class_label and their approved votes. Streams in pages of the
 * (eventId, externalId) index, so 100,000 rows do not sit in memory at once. Text cells are formula-protected
 * (a leading apostrophe, lib/export/csv.ts); with `raw` the tweet text is written exactly as stored.
 */
export const AGREED_LABELS_HEADER = ["tweet_id", "tweet_text", "class_label", "event", "agreement", "judgments", "votes"] as const;

const PAGE = 2_000;
const TEXT_COLUMN = AGREED_LABELS_HEADER.indexOf("tweet_text");

export function votesText(votes: Record<string, number>): string {
  return Object.entries(votes)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([label, n]) => `${label}:${n}`)
    .join(";");
}

export function agreementText(top: number, total: number): string {
  return total > 0 ? (top / total).toFixed(4) : "";
}

function asVotes(json: Prisma.JsonValue): Record<string, number> {
  const out: Record<string, number> = {};
  if (json && typeof json === "object" && !Array.isArray(json)) {
    for (const [k, v] of Object.entries(json)) if (typeof v === "number") out[k] = v;
  }
  return out;
}

export async function* agreedLabelsCsv(
  db: Db,
  { eventId, includeUnresolved = false, header = true, raw = false }: { eventId: string; includeUnresolved?: boolean; header?: boolean; raw?: boolean },
): AsyncGenerator<string> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { slug: true } });
  if (header) yield csvLine([...AGREED_LABELS_HEADER]);
  const where: Prisma.TweetWhereInput = {
    eventId,
    role: TWEET_ROLE.unknown,
    status: { not: TWEET_STATUS.retired },
    OR: [{ acceptedLabel: { isNot: null } }, ...(includeUnresolved ? [{ status: TWEET_STATUS.unresolved }] : [])],
  };
  let after: string | null = null;
  for (;;) {
    const page: Array<{ id: string; externalId: string; text: string; status: string; acceptedLabel: { label: string; topVotes: number; totalVotes: number; votes: Prisma.JsonValue } | null }> =
      await db.tweet.findMany({
        where: after ? { AND: [where, { externalId: { gt: after } }] } : where,
        orderBy: { externalId: "asc" },
        take: PAGE,
        select: { id: true, externalId: true, text: true, status: true, acceptedLabel: { select: { label: true, topVotes: true, totalVotes: true, votes: true } } },
      });
    if (page.length === 0) return;
    after = page[page.length - 1].externalId;
    const unresolvedIds = page.filter((t) => !t.acceptedLabel).map((t) => t.id);
    const unresolvedVotes = new Map<string, Record<string, number>>();
    if (unresolvedIds.length) {
      const groups = await db.judgment.groupBy({ by: ["tweetId", "label"], where: { tweetId: { in: unresolvedIds }, counted: true, isGold: false }, _count: { _all: true } });
      for (const g of groups) {
        const v = unresolvedVotes.get(g.tweetId) ?? {};
        v[g.label] = g._count._all;
        unresolvedVotes.set(g.tweetId, v);
      }
    }
    const rows: CsvCell[][] = page.map((t) => {
      if (t.acceptedLabel) {
        const a = t.acceptedLabel;
        return [t.externalId, t.text, a.label, event.slug, agreementText(a.topVotes, a.totalVotes), a.totalVotes, votesText(asVotes(a.votes))];
      }
      const votes = unresolvedVotes.get(t.id) ?? {};
      const total = Object.values(votes).reduce((s, n) => s + n, 0);
      const top = Math.max(0, ...Object.values(votes));
      return [t.externalId, t.text, "", event.slug, agreementText(top, total), total, votesText(votes)];
    });
    // raw: the tweet text only (data for code); ids, labels, the event and the votes stay formula-protected
    yield csvRows(rows, { rawColumns: raw ? [TEXT_COLUMN] : [] });
    if (page.length < PAGE) return;
  }
}
