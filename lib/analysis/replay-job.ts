import "server-only";
import { setImmediate as yieldToRequests } from "node:timers/promises";
import { z } from "zod";
import { type Db, flavorOf, type Prisma } from "@/lib/db/client";
import { JOB_STATE } from "@/lib/db/enums";
import { UserError } from "@/lib/errors";
import { JOBS, type JobPayload } from "@/lib/jobs/job-types";
import { enqueueJob } from "@/lib/jobs/queue";
import type { JobContext } from "@/lib/jobs/runner";
import { type ProcedureSettings, procedureSettingsSchema } from "@/lib/procedure/settings";
import { leafChanges } from "@/lib/util/leaf-changes";
import { readEventSettings } from "./event-settings";
import { isRatio } from "./setting-changes";
import { type ImportProgress, JOB_SELECT, progressOf } from "./imports";
import { loadRecordedEvent, replayOutcome, type ReplayOutcome, replayThresholds } from "./replay";

/**
 * The Agreement tab's replay (lib/events/replay.ts) as a recorded "replay" job: it reads every decided assignment of
 * the event, too much for a request. The job keeps its result (the grid's rows, the rules it ran under); the page
 * shows the newest one and says when the event's rules changed since. One queued or running replay per event.
 */
export const REPLAY_JOB = JOBS.replay.type;

const ACTIVE = [JOB_STATE.queued, JOB_STATE.running];
const FINISHED = [JOB_STATE.succeeded, JOB_STATE.failed, JOB_STATE.cancelled];

const outcomeSchema = z.object({
  assignmentApproval: z.string(),
  tweetAcceptance: z.string(),
  hitApproval: z.string(),
  actual: z.boolean(),
  assignmentsApproved: z.number(),
  labelsAccepted: z.number(),
  hitsApproved: z.number(),
  hitsUnresolved: z.number(),
  hitsOutOfData: z.number(),
  costCents: z.number(),
  fleissKappa: z.number().nullable(),
  krippendorffAlpha: z.number().nullable(),
}) satisfies z.ZodType<ReplayOutcome>;

/** What a replay job stores: the event's rules it ran under, how many decided HITs it replayed, and the grid. */
export const replayResultSchema = z.object({ settings: z.record(z.string(), z.unknown()), hits: z.number(), outcomes: z.array(outcomeSchema) });
export type ReplayResult = z.infer<typeof replayResultSchema>;

/** Starts a replay of the event; refuses while one is queued or running (the event row is locked on PostgreSQL). */
export async function startReplay(db: Db, { eventId, userId }: { eventId: string; userId: string | null }): Promise<{ jobId: string }> {
  return db.$transaction(async (tx) => {
    if (flavorOf(db) === "postgres") await tx.$queryRaw`SELECT "id" FROM "Event" WHERE "id" = ${eventId} FOR UPDATE`;
    const active = await tx.job.count({ where: { eventId, type: REPLAY_JOB, state: { in: ACTIVE } } });
    if (active > 0) throw new UserError("A replay of this event is already running: its progress is shown on the page.", "replay_running");
    const job = await enqueueJob(tx as unknown as Db, JOBS.replay, { payload: { eventId }, eventId, createdById: userId, maxAttempts: 2 });
    return { jobId: job.id };
  });
}

/**
 * The job handler. Progress counts steps: the decided HITs read (a query per RECORDED_HITS_PER_QUERY), then the rule
 * sets replayed, one at a time. It runs in the web server's process: it yields to requests after each page and each
 * rule set (each blocks the event loop for a few hundred ms at HumAID scale).
 */
export async function runReplayJob(ctx: JobContext, { eventId }: JobPayload<typeof JOBS.replay>): Promise<Prisma.InputJsonValue> {
  const event = await ctx.db.event.findUnique({ where: { id: eventId }, select: { name: true, settings: true } });
  if (!event) throw new UserError("The event no longer exists.");
  const settings = readEventSettings(event);
  const grid = replayThresholds(settings);
  await ctx.progress(0, null, "Reading the recorded work of the decided HITs", true);
  const recorded = await loadRecordedEvent(ctx.db, eventId, {
    onHits: async (read, total) => {
      await ctx.progress(read, total + grid.length, `Reading the recorded work: ${read.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} decided HITs`);
      await ctx.throwIfCancelled();
      // On SQLite a query resolves without giving timers or sockets a turn: yield, or the whole read is one block.
      await yieldToRequests();
    },
  });
  const read = recorded.hits.length;
  const outcomes: ReplayOutcome[] = [];
  for (const [i, thresholds] of grid.entries()) {
    await ctx.throwIfCancelled();
    outcomes.push(replayOutcome(recorded, settings, thresholds, i === 0));
    await ctx.progress(read + i + 1, read + grid.length, `Replaying ${read.toLocaleString("en-US")} decided HITs: rule set ${i + 1} of ${grid.length}`, i + 1 === grid.length);
    await yieldToRequests();
  }
  // Only the newest result is kept (the page shows no history).
  await ctx.db.job.deleteMany({ where: { eventId, type: REPLAY_JOB, state: { in: FINISHED }, id: { not: ctx.job.id } } });
  const result: ReplayResult = { settings: settings as unknown as Record<string, unknown>, hits: recorded.hits.length, outcomes };
  return result as unknown as Prisma.InputJsonValue;
}

export type ReplayStatus = {
  /** The queued or running replay, with its progress. */
  active: ImportProgress | null;
  /** The newest finished replay's result, when it succeeded. */
  last: (ReplayResult & { finishedAt: Date; rules: ProcedureSettings | null; ruleChanges: string[] }) | null;
  /** Why the newest finished replay failed (or that it was cancelled), when it did not succeed. */
  failure: string | null;
};

/** The replay card's state: two reads through the (eventId, createdAt) index. `ruleChanges`: settings changed since. */
export async function replayStatus(db: Db, event: { id: string; settings: ProcedureSettings }): Promise<ReplayStatus> {
  const [active, finished] = await Promise.all([
    db.job.findFirst({ where: { eventId: event.id, type: REPLAY_JOB, state: { in: ACTIVE } }, orderBy: { createdAt: "desc" }, select: JOB_SELECT }),
    db.job.findFirst({ where: { eventId: event.id, type: REPLAY_JOB, state: { in: FINISHED } }, orderBy: { createdAt: "desc" }, select: { ...JOB_SELECT, result: true, finishedAt: true } }),
  ]);
  const parsed = finished?.state === JOB_STATE.succeeded ? replayResultSchema.safeParse(finished.result) : null;
  let last: ReplayStatus["last"] = null;
  if (finished && parsed?.success) {
    // Parsed again: the stored JSON's key order is the database's (PostgreSQL's jsonb sorts keys), the schema's is fixed.
    const ran = procedureSettingsSchema.safeParse(parsed.data.settings);
    const ruleChanges = ran.success ? leafChanges(ran.data, event.settings, { isLeaf: isRatio }).map((c) => c.key) : ["(settings)"];
    last = { ...parsed.data, finishedAt: finished.finishedAt ?? new Date(0), rules: ran.success ? ran.data : null, ruleChanges };
  }
  const failure = finished && !last ? (finished.state === JOB_STATE.cancelled ? "The last replay was cancelled." : (finished.error ?? "The last replay failed.")) : null;
  return { active: active ? progressOf(active) : null, last, failure };
}
