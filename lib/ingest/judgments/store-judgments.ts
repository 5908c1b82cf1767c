import "server-only";
import { randomUUID } from "node:crypto";
import type { Db, Prisma } from "@/lib/db/client";
import { ASSIGNMENT_STATUS, DECISION, HIT_STATUS, IMPORT_STATUS, PROVIDER_ASSIGNMENT_STATUS, TWEET_ROLE, TWEET_STATUS } from "@/lib/db/enums";
import { readEventSettings } from "@/lib/events/event-settings";
import { decideTweet } from "@/lib/procedure/decisions";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import type { JudgmentFormat } from "./mapping";
import type { ReadJudgmentsResult, SourceJudgment } from "./read-judgments";

/** Imported workers live under their platform's own provider name: never mixed with the workers of Accord's crowds. */
export const importedProvider = (format: JudgmentFormat) => `import:${format}`;
export const IMPORTED_HIT_PROVIDER = "import";

type Tx = Prisma.TransactionClient;

export type StoreOutcome = { judgments: number; tweetsCreated: number; hits: number; assignments: number; workers: number; accepted: number; workerIds: string[] };

/**
 * Stores an import's judgments in ONE transaction: tweets missing from the event (from the text column; the
 * platform's gold units as gold), the workers, one HIT per page of the source (or per worker and day), its
 * assignments and judgments, each touched tweet re-decided by the procedure over all its counted judgments, and the import's counts.
 */
export async function storeJudgments(
  db: Db,
  { importId, eventId, format, read, message }: { importId: string; eventId: string; format: JudgmentFormat; read: ReadJudgmentsResult; message: string },
): Promise<StoreOutcome> {
  return db.$transaction(
    async (tx) => {
      const event = await tx.event.findUniqueOrThrow({ where: { id: eventId }, select: { name: true, settings: true } });
      const settings = readEventSettings(event);
      const js = read.judgments;
      const items = [...new Set(js.map((j) => j.item))];
      const existing = new Map<string, { id: string; role: string }>();
      for (let i = 0; i < items.length; i += 500) {
        const found = await tx.tweet.findMany({ where: { eventId, externalId: { in: items.slice(i, i + 500) } }, select: { id: true, externalId: true, role: true } });
        for (const t of found) existing.set(t.externalId, t);
      }
      // tweets: created from the first judgment of each item that has text
      const firstOf = new Map<string, SourceJudgment>();
      const goldOf = new Map<string, SourceJudgment>();
      for (const j of js) {
        if (!firstOf.has(j.item) || (!firstOf.get(j.item)?.text && j.text)) firstOf.set(j.item, j);
        if (j.gold && !goldOf.has(j.item)) goldOf.set(j.item, j);
      }
      const newTweets: Prisma.TweetCreateManyInput[] = [];
      const newGoldLabel = new Map<string, string | null>();
      for (const item of items) {
        if (existing.has(item)) continue;
        const j = firstOf.get(item) as SourceJudgment;
        const gold = goldOf.get(item);
        const id = randomUUID();
        newTweets.push({
          id,
          eventId,
          externalId: item,
          text: j.text ?? "",
          role: gold ? TWEET_ROLE.gold : TWEET_ROLE.unknown,
          goldLabel: gold ? gold.goldLabels[0] : null,
          status: gold ? TWEET_STATUS.pending : TWEET_STATUS.judged,
          importId,
          importLine: j.line,
        });
        existing.set(item, { id, role: gold ? TWEET_ROLE.gold : TWEET_ROLE.unknown });
        newGoldLabel.set(item, gold ? gold.goldLabels[0] : null);
      }
      if (newTweets.length) await tx.tweet.createMany({ data: newTweets });
      const isGold = (item: string) => existing.get(item)?.role === TWEET_ROLE.gold;

      // workers of this platform
      const provider = importedProvider(format);
      const names = [...new Set(js.map((j) => j.annotator))];
      const workerId = new Map<string, string>();
      for (let i = 0; i < names.length; i += 500) {
        const found = await tx.worker.findMany({ where: { provider, externalId: { in: names.slice(i, i + 500) } }, select: { id: true, externalId: true } });
        for (const w of found) workerId.set(w.externalId, w.id);
      }
      const newWorkers = names.filter((n) => !workerId.has(n)).map((externalId) => ({ id: randomUUID(), provider, externalId, qualified: true }));
      for (const w of newWorkers) workerId.set(w.externalId, w.id);
      if (newWorkers.length) await tx.worker.createMany({ data: newWorkers });

      // HITs and assignments in the order the source's work was submitted
      const byHit = new Map<string, Map<string, SourceJudgment[]>>();
      for (const j of js) {
        const hit = byHit.get(j.hitKey) ?? new Map<string, SourceJudgment[]>();
        byHit.set(j.hitKey, hit);
        const a = hit.get(j.assignmentKey) ?? [];
        hit.set(j.assignmentKey, a);
        a.push(j);
      }
      const last = await tx.hit.findFirst({ where: { eventId }, orderBy: { seq: "desc" }, select: { seq: true } });
      let seq = last?.seq ?? 0;
      const now = new Date();
      const hits: Prisma.HitCreateManyInput[] = [];
      const hitItems: Prisma.HitItemCreateManyInput[] = [];
      const assignments: Prisma.AssignmentCreateManyInput[] = [];
      const judgments: Prisma.JudgmentCreateManyInput[] = [];
      for (const [hitKey, byAssignment] of byHit) {
        const hitId = randomUUID();
        const itemId = new Map<string, string>();
        for (const a of byAssignment.values()) {
          for (const j of a) {
            if (itemId.has(j.item)) continue;
            const id = randomUUID();
            itemId.set(j.item, id);
            hitItems.push({ id, hitId, tweetId: existing.get(j.item)!.id, position: itemId.size - 1, isGold: isGold(j.item) });
          }
        }
        let approved = 0;
        let rejected = 0;
        for (const [assignmentKey, a] of byAssignment) {
          const id = randomUUID();
          const times = a.map((j) => j.at).filter((t): t is number => t !== null);
          const submitTime = times.length ? new Date(Math.max(...times)) : now;
          const gold = a.filter((j) => isGold(j.item));
          const correct = gold.filter((j) => j.goldLabels.includes(j.label) || goldLabelOf(j.item) === j.label).length;
          const isRejected = a[0].rejected;
          if (isRejected) rejected++;
          else approved++;
          assignments.push({
            id,
            hitId,
            workerId: workerId.get(a[0].annotator)!,
            providerAssignmentId: `import:${importId}:${assignmentKey}`,
            providerStatus: isRejected ? PROVIDER_ASSIGNMENT_STATUS.Rejected : PROVIDER_ASSIGNMENT_STATUS.Approved,
            status: isRejected ? ASSIGNMENT_STATUS.rejected : ASSIGNMENT_STATUS.approved,
            submitTime,
            goldCorrect: gold.length ? correct : null,
            goldTotal: gold.length ? gold.length : null,
            decision: isRejected ? DECISION.reject : DECISION.approve,
            decidedBy: "system",
            decidedAt: submitTime,
            decisionReason: { rule: "imported", text: `decided on the source platform (${isRejected ? "rejected" : "approved"})` },
          });
          for (const j of a) {
            const goldItem = isGold(j.item);
            judgments.push({
              assignmentId: id,
              hitItemId: itemId.get(j.item)!,
              tweetId: existing.get(j.item)!.id,
              workerId: workerId.get(j.annotator)!,
              label: j.label,
              isGold: goldItem,
              correct: goldItem ? j.goldLabels.includes(j.label) || goldLabelOf(j.item) === j.label : null,
              counted: !goldItem && !isRejected,
              createdAt: j.at === null ? submitTime : new Date(j.at),
            });
          }
        }
        seq++;
        hits.push({
          id: hitId,
          eventId,
          seq,
          provider: IMPORTED_HIT_PROVIDER,
          uniqueRequestToken: `import:${importId}:${hitKey}`,
          status: HIT_STATUS.approved,
          maxAssignments: byAssignment.size,
          rewardCents: 0,
          seed: 0,
          approvedCount: approved,
          rejectedCount: rejected,
          decidedAt: now,
          importId,
        });
      }
      function goldLabelOf(item: string): string | null {
        return newGoldLabel.get(item) ?? null;
      }
      const chunk = async <T,>(rows: T[], write: (part: T[]) => Promise<unknown>) => {
        for (let i = 0; i < rows.length; i += 500) await write(rows.slice(i, i + 500));
      };
      await chunk(hits, (data) => tx.hit.createMany({ data }));
      await chunk(hitItems, (data) => tx.hitItem.createMany({ data }));
      await chunk(assignments, (data) => tx.assignment.createMany({ data }));
      await chunk(judgments, (data) => tx.judgment.createMany({ data }));

      const touched = [...new Set(judgments.filter((j) => !j.isGold).map((j) => j.tweetId))];
      const accepted = await redecideTweets(tx, eventId, touched, settings);
      await tx.importBatch.update({
        where: { id: importId },
        data: {
          status: IMPORT_STATUS.completed,
          rowsRead: read.rowsRead,
          rowsStored: judgments.length,
          errorCount: 0,
          activeKey: null,
          finishedAt: now,
          message,
        },
      });
      // the analysis reads its version from the latest assignment audit row: imported decisions make it stale
      await tx.auditLog.create({
        data: { actorType: "system", eventId, entityType: "assignment", entityId: importId, action: "import", details: { importId, judgments: judgments.length, hits: hits.length } },
      });
      return { judgments: judgments.length, tweetsCreated: newTweets.length, hits: hits.length, assignments: assignments.length, workers: names.length, accepted, workerIds: [...workerId.values()] };
    },
    { timeout: 300_000, maxWait: 60_000 },
  );
}

/**
 * Re-decides every tweet this import touched with the procedure's own rule (decideTweet, the one the sync loop
 * uses through decideHitFromJudgments) over ALL its counted judgments: earlier imports' and crowds' as well as
 * this one's, with the event's minimum number of judgments. Accepted → the label replaces any earlier one;
 * otherwise any earlier label is withdrawn. A tweet in a live HIT (in_hit) keeps its status: its HIT decides it.
 */
async function redecideTweets(tx: Tx, eventId: string, tweetIds: readonly string[], settings: ProcedureSettings): Promise<number> {
  const labelsByTweet = new Map<string, string[]>(tweetIds.map((id) => [id, []]));
  const status = new Map<string, string>();
  for (let i = 0; i < tweetIds.length; i += 500) {
    const ids = tweetIds.slice(i, i + 500);
    const rows = await tx.judgment.findMany({ where: { tweetId: { in: ids }, counted: true }, select: { tweetId: true, label: true }, orderBy: { createdAt: "asc" } });
    for (const j of rows) labelsByTweet.get(j.tweetId)?.push(j.label);
    for (const t of await tx.tweet.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } })) status.set(t.id, t.status);
  }
  const w = importedTweetWrites(labelsByTweet, settings, status);
  for (let i = 0; i < tweetIds.length; i += 500) await tx.acceptedLabel.deleteMany({ where: { tweetId: { in: tweetIds.slice(i, i + 500) } } });
  for (let i = 0; i < w.labels.length; i += 500) await tx.acceptedLabel.createMany({ data: w.labels.slice(i, i + 500).map((l) => ({ id: randomUUID(), eventId, ...l })) });
  for (const [to, ids] of Object.entries(w.status)) {
    for (let i = 0; i < ids.length; i += 500) await tx.tweet.updateMany({ where: { id: { in: ids.slice(i, i + 500) } }, data: { status: to } });
  }
  return w.labels.length;
}

/**
 * The writes of re-deciding imported tweets (pure): each tweet's decision by decideTweet; its accepted label, and
 * its status (accepted, unresolved, or judged while it could still be accepted with more judgments), except for
 * tweets in a live HIT.
 */
export function importedTweetWrites(labelsByTweet: ReadonlyMap<string, readonly string[]>, settings: ProcedureSettings, status: ReadonlyMap<string, string> = new Map()) {
  const labels: Array<{ tweetId: string; label: string; topVotes: number; totalVotes: number; votes: Record<string, number>; method: string }> = [];
  const byStatus: Record<string, string[]> = {};
  for (const [tweetId, ls] of labelsByTweet) {
    if (ls.length === 0) continue;
    const d = decideTweet({ labels: ls, settings });
    if (d.state === TWEET_STATUS.accepted && d.label) labels.push({ tweetId, label: d.label, topVotes: d.top, totalVotes: d.total, votes: d.votes, method: "majority" });
    if (status.get(tweetId) === TWEET_STATUS.in_hit) continue;
    const to = d.state === "needs_more" ? TWEET_STATUS.judged : d.state;
    (byStatus[to] ??= []).push(tweetId);
  }
  return { labels, status: byStatus };
}
