import type { Db, Prisma } from "@/lib/db/client";
import { csvLine, csvRows } from "./csv";

/**
 * Raw judgments for researchers who compute their own statistics: one row per worker × tweet, with what
 * the procedure made of it (gold or not, correct, counted among the approved judgments, the assignment's
 * status). Streams in pages of the primary key.
 */
export const JUDGMENTS_HEADER = [
  "tweet_id",
  "worker_id",
  "label",
  "event",
  "is_gold",
  "gold_label",
  "correct",
  "counted",
  "assignment_id",
  "assignment_status",
  "hit",
  "submitted_at",
] as const;

const PAGE = 5_000;

export async function* judgmentsCsv(db: Db, { eventId, header = true }: { eventId: string; header?: boolean }): AsyncGenerator<string> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { slug: true } });
  if (header) yield csvLine([...JUDGMENTS_HEADER]);
  const where: Prisma.JudgmentWhereInput = { tweet: { eventId } };
  let after: string | null = null;
  for (;;) {
    const cursor: Prisma.JudgmentWhereInput = after ? { AND: [where, { id: { gt: after } }] } : where;
    const page = await db.judgment.findMany({
      where: cursor,
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        label: true,
        isGold: true,
        correct: true,
        counted: true,
        tweet: { select: { externalId: true, goldLabel: true } },
        worker: { select: { externalId: true } },
        assignment: { select: { providerAssignmentId: true, status: true, submitTime: true, hit: { select: { seq: true } } } },
      },
    });
    if (page.length === 0) return;
    after = page[page.length - 1].id;
    yield csvRows(
      page.map((j) => [
        j.tweet.externalId,
        j.worker.externalId,
        j.label,
        event.slug,
        j.isGold,
        j.isGold ? j.tweet.goldLabel : "",
        j.correct,
        j.counted,
        j.assignment.providerAssignmentId,
        j.assignment.status,
        j.assignment.hit.seq,
        j.assignment.submitTime ? j.assignment.submitTime.toISOString() : "",
      ]),
    );
    if (page.length < PAGE) return;
  }
}
