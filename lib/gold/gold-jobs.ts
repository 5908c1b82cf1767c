import "server-only";
import type { Db } from "@/lib/db/client";
import { JOBS } from "@/lib/jobs/job-types";
import { goldJobSchema } from "./gold.validation";
import { describeGoldRequest } from "./gold-requests";
import { type ImportProgress, JOB_SELECT, progressOf } from "./imports";

/** The Data tab's recent "gold" jobs (bulk mark/unmark, make gold N per class): each with its progress and result. */
export type GoldJobRow = {
  id: string;
  what: string;
  createdAt: Date;
  finishedAt: Date | null;
  progress: ImportProgress;
  /** The finished job's summary ("1,200 marked as gold; skipped: …"), or null while it runs. */
  result: string | null;
};

export async function listGoldJobs(db: Db, eventId: string, take = 5): Promise<GoldJobRow[]> {
  const jobs = await db.job.findMany({
    where: { eventId, type: JOBS.gold.type },
    orderBy: { createdAt: "desc" },
    take,
    select: { ...JOB_SELECT, payload: true, result: true, createdAt: true, finishedAt: true },
  });
  return jobs.map((j) => {
    const payload = goldJobSchema.safeParse(j.payload);
    const result = j.result && typeof j.result === "object" && "message" in j.result ? String((j.result as { message: unknown }).message) : null;
    return {
      id: j.id,
      what: payload.success ? describeGoldRequest(payload.data.request) : "gold change",
      createdAt: j.createdAt,
      finishedAt: j.finishedAt,
      progress: progressOf(j),
      result,
    };
  });
}
