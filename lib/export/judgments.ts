import "server-only";
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

export async function* judgmentsCsv(
  db: Db,
  { eventId, header = true, pageSize = PAGE }: { eventId: string; header?: boolean; /** rows per query (tests use small pages) */ pageSize?: number },
): AsyncGenerator<string> {
  const event = await db.event.findUniqueOrThrow({ where: { id: eventId }, select: { slug: true } });
  if (header) yield csvLine([...JUDGMENTS_HEADER]);
  // Work a crowd's policy excluded (approved and paid, but below the gold rule) leaves the exports.
  const where: Prisma.JudgmentWhereInput = { tweet: { eventId }, assignment: { excludedReason: null } };
  // Pages in key order (assignment, tweet): an assignment's judgments stay together.
  let after: Prisma.JudgmentAssignmentIdTweetIdCompoundUniqueInput | null = null;
  for (;;) {
    const page = await db.judgment.findMany({
      where,
      orderBy: [{ assignmentId: "asc" }, { tweetId: "asc" }],
      take: pageSize,
      ...(after ? { cursor: { assignmentId_tweetId: after }, skip: 1 } : {}),
      select: {
        assignmentId: true,
        tweetId: true,
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
    const last: { assignmentId: string; tweetId: string } = page[page.length - 1];
    after = { assignmentId: last.assignmentId, tweetId: last.tweetId };
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
    if (page.length < pageSize) return;
  }
}
