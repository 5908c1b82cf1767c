import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { policyFor } from "@/lib/crowd/policies";
import { encodeJudgments, type Judgment } from "@/lib/metrics/judgments";
import { table3Figures } from "@/lib/metrics/table3";
import { ratioText } from "@/lib/procedure/ratio";
import { replayGrid, replayHit, type RecordedHit, type ReplayedHit, type ReplayThresholds } from "@/lib/procedure/replay";
import type { ProcedureSettings } from "@/lib/procedure/settings";
import { HIT_STATUS } from "@/lib/db/enums";
import { feeRulesOf } from "@/lib/crowd/registry";
import { bySubmission, type GoldRecord, priorRecords } from "@/lib/procedure/whole-record";

/** An event's decided HITs as recorded: assignments in submission order with their gold grades and unknown answers. */
export type RecordedEvent = { hits: Array<RecordedHit & { provider: string; rewardCents: number; workers: string[] }> };

/** Decided HITs read per query: one query with every HIT's assignments passes the database's parameter limit. */
export const RECORDED_HITS_PER_QUERY = 200;

const DECIDED = [HIT_STATUS.approved, HIT_STATUS.unresolved];

export async function loadRecordedEvent(
  db: Db,
  eventId: string,
  { onHits = async () => undefined, perQuery = RECORDED_HITS_PER_QUERY }: { onHits?: (read: number, total: number) => Promise<void>; perQuery?: number } = {},
): Promise<RecordedEvent> {
  const total = await db.hit.count({ where: { eventId, status: { in: DECIDED } } });
  const priors = await loadPriorRecordsOfEvent(db, eventId);
  const out: RecordedEvent["hits"] = [];
  // Page through the HITs by their number within the event (the (eventId, seq) unique index).
  for (let after = 0; ; ) {
    const hits = await db.hit.findMany({
      where: { eventId, status: { in: DECIDED }, seq: { gt: after } },
      orderBy: { seq: "asc" },
      take: perQuery,
      select: {
        id: true,
        seq: true,
        provider: true,
        rewardCents: true,
        items: { where: { isGold: false }, orderBy: { position: "asc" }, select: { tweetId: true } },
        assignments: {
          where: { submitTime: { not: null } },
          orderBy: [{ submitTime: "asc" }, { id: "asc" }],
          select: { id: true, workerId: true, goldCorrect: true, goldTotal: true, judgments: { where: { isGold: false }, select: { tweetId: true, label: true } } },
        },
      },
    });
    for (const h of hits) {
      out.push({
        id: h.id,
        provider: h.provider,
        rewardCents: h.rewardCents,
        unknownTweetIds: h.items.map((i) => i.tweetId),
        workers: h.assignments.map((a) => a.workerId),
        assignments: h.assignments.map((a) => ({
          goldCorrect: a.goldCorrect ?? 0,
          goldTotal: a.goldTotal ?? 0,
          labels: new Map(a.judgments.map((j) => [j.tweetId, j.label])),
          priorRecord: priors.get(a.id),
        })),
      });
    }
    await onHits(out.length, total);
    if (hits.length < perQuery) return { hits: out };
    after = hits[hits.length - 1].seq;
  }
}

const wholeRecordReason = z.object({ rule: z.literal("whole_record"), record: z.object({ correct: z.number().int().min(0), total: z.number().int().min(0) }) });

/**
 * Each graded assignment's worker record in the event before it, for the whole-record rule: the record its own
 * whole-record grade saw (stored in its reason: the sync knows only the assignments ingested when it grades), else
 * the worker's graded assignments submitted before it (submit time, then id).
 */
export async function loadPriorRecordsOfEvent(db: Db, eventId: string): Promise<Map<string, GoldRecord>> {
  const rows = await db.assignment.findMany({
    where: { hit: { eventId }, goldTotal: { not: null } },
    select: { id: true, workerId: true, submitTime: true, goldCorrect: true, goldTotal: true, decisionReason: true },
  });
  rows.sort(bySubmission);
  const items = rows.map((r) => ({ workerId: r.workerId, correct: r.goldCorrect ?? 0, total: r.goldTotal ?? 0 }));
  const computed = priorRecords(items);
  return new Map(
    rows.map((r, i) => {
      const stored = wholeRecordReason.safeParse(r.decisionReason);
      const prior = stored.success ? { correct: stored.data.record.correct - items[i].correct, total: stored.data.record.total - items[i].total } : computed[i];
      return [r.id, prior];
    }),
  );
}

export type ReplayOutcome = {
  assignmentApproval: string;
  tweetAcceptance: string;
  hitApproval: string;
  /** True for the event's own thresholds. */
  actual: boolean;
  assignmentsApproved: number;
  labelsAccepted: number;
  hitsApproved: number;
  hitsUnresolved: number;
  /** HITs whose replay wanted more assignments than were recorded (counted as unresolved too). */
  hitsOutOfData: number;
  costCents: number;
  /** κ and α over the accepted tweets' approved judgments (the agreed scope). */
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
};

/** The fee of one approved assignment by the HIT's crowd's fee rule (no provider is called: Prolific's documented rule). */
function placeFeeCents(provider: string, rewardCents: number, maxAssignments: number): number {
  return feeRulesOf({ kind: provider }).assignmentFeeCents({ rewardCents, maxAssignments });
}

/** One replay of every recorded HIT under `settings`, with the HITs' own outcomes for checking. */
export function replayEvent(recorded: RecordedEvent, settings: ProcedureSettings): { outcome: Omit<ReplayOutcome, "actual">; hits: ReplayedHit[] } {
  let assignmentsApproved = 0;
  let hitsApproved = 0;
  let hitsOutOfData = 0;
  let costCents = 0;
  const judgments: Judgment[] = [];
  const hits = recorded.hits.map((h) => {
    const r = replayHit(h, settings);
    assignmentsApproved += r.approved.length;
    if (r.state === HIT_STATUS.approved) hitsApproved++;
    if (r.state === "out_of_data") hitsOutOfData++;
    // Paid: the approved ones, and on a crowd that pays work below the gold rule (Prolific), every one used.
    const paid = policyFor(h.provider).paysBelowGold ? r.assignmentsUsed : r.approved.length;
    costCents += paid * (h.rewardCents + placeFeeCents(h.provider, h.rewardCents, r.assignmentsUsed));
    const accepted = new Set(r.accepted.map((a) => a.tweetId));
    r.approved.forEach((i, order) => {
      for (const [item, label] of h.assignments[i].labels) if (accepted.has(item)) judgments.push({ item, annotator: h.workers[i], label, order });
    });
    return r;
  });
  const figures = judgments.length > 0 ? table3Figures(encodeJudgments(judgments, { duplicates: "first" })) : null;
  const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);
  return {
    hits,
    outcome: {
      assignmentApproval: ratioText(settings.assignmentApproval),
      tweetAcceptance: ratioText(settings.tweetAcceptance),
      hitApproval: ratioText(settings.hitApproval),
      assignmentsApproved,
      labelsAccepted: hits.reduce((n, r) => n + r.accepted.length, 0),
      hitsApproved,
      hitsUnresolved: hits.length - hitsApproved,
      hitsOutOfData,
      costCents,
      fleissKappa: finite(figures?.fleissKappa),
      krippendorffAlpha: finite(figures?.krippendorffAlpha),
    },
  };
}

const same = (a: { num: number; den: number }, b: { num: number; den: number }) => a.num * b.den === b.num * a.den;

/** The thresholds the replay tries: the event's own first, then the grid around them without a repeat of its own. */
export function replayThresholds(settings: ProcedureSettings): ReplayThresholds[] {
  return [
    { assignmentApproval: settings.assignmentApproval, tweetAcceptance: settings.tweetAcceptance, hitApproval: settings.hitApproval },
    ...replayGrid(settings).filter((g) => !(same(g.assignmentApproval, settings.assignmentApproval) && same(g.tweetAcceptance, settings.tweetAcceptance) && same(g.hitApproval, settings.hitApproval))),
  ];
}

/** One row of the grid: the recorded work under `settings` with `thresholds` in place of its own. */
export function replayOutcome(recorded: RecordedEvent, settings: ProcedureSettings, thresholds: ReplayThresholds, actual: boolean): ReplayOutcome {
  return { ...replayEvent(recorded, { ...settings, ...thresholds }).outcome, actual };
}

/** The grid of thresholds (and the event's own, first) replayed over the event's recorded work. */
export function replayOutcomes(recorded: RecordedEvent, settings: ProcedureSettings): ReplayOutcome[] {
  return replayThresholds(settings).map((g, i) => replayOutcome(recorded, settings, g, i === 0));
}
