import { afterEach, describe, expect, it, vi } from "vitest";
import { setupProlificCampaign, takeScreening, type ProlificCampaign } from "@/lib/campaign/prolific-fixture";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { testAnswers } from "@/lib/campaign/test-fixture";
import { testFlavors } from "@/lib/db/test-db";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { CrowdError } from "@/lib/crowd/errors";
import { JOBS } from "@/lib/jobs/job-types";
import { createJobRegistry, defineJob, drainJobs } from "@/lib/jobs/runner";
import { openProlificScreening, runProlificReturnJob, SCREENING_RETURN_MESSAGE, SCREENING_TAKEN, submitProlificScreening } from "./prolific-screening";

/** What a second attempt meets: the message, or "no refusal" when it was let through. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "no refusal";
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe.each(testFlavors())("the Prolific screening is taken once (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("refuses a second attempt of a participant or a session with the same words whether the first passed or failed; the first result is recorded", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const qualification = test.providerQualTypeId as string;
    const { studyId } = await f.provider.screeningTest(qualification);
    const passer = await takeScreening(f, "6000000000000000000000b1", 10);
    const failer = await takeScreening(f, "6000000000000000000000b2", 0);
    expect([passer.passed, failer.passed]).toEqual([true, false]);
    expect(passer.completionCode).not.toBe(failer.completionCode);

    const { answers: right } = await testAnswers(f, 10);
    const seen: string[] = [];
    for (const [pid, first] of [["6000000000000000000000b1", passer], ["6000000000000000000000b2", failer]] as const) {
      // The same session again, GET and POST alike (Prolific gives a participant one session per study; another
      // session of the same participant is refused by the provider: completion-codes.test.ts).
      const again = { qualification, PROLIFIC_PID: pid, STUDY_ID: studyId, SESSION_ID: first.submissionId };
      seen.push(await refusal(openProlificScreening(f.db, f.provider, again)));
      seen.push(await refusal(submitProlificScreening(f.db, f.provider, again, right)));
    }
    expect(seen).toEqual(Array(4).fill(SCREENING_TAKEN));

    // Accord's record of each participant is their first (and only) result.
    const results = await f.db.qualificationResult.findMany({ where: { testId: test.id }, include: { worker: true }, orderBy: { score: "desc" } });
    expect(results.map((r) => [r.worker.externalId, r.passed, r.score])).toEqual([
      ["6000000000000000000000b1", true, 100],
      ["6000000000000000000000b2", false, 0],
    ]);
    expect((await f.db.worker.findFirstOrThrow({ where: { provider: PROVIDER_KIND.prolific, externalId: "6000000000000000000000b2" } })).qualified).toBe(false);
  });

  it("of two posts of one session at once, one is graded and the other refused", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const qualification = test.providerQualTypeId as string;
    const { studyId } = await f.provider.screeningTest(qualification);
    const pid = "6000000000000000000000c1";
    const sub = f.prolific.service.startSubmission(pid, studyId);
    const params = { qualification, PROLIFIC_PID: pid, STUDY_ID: studyId, SESSION_ID: sub.id };
    const { answers: wrong } = await testAnswers(f, 0);
    const { answers: right } = await testAnswers(f, 10);
    const outcomes = await Promise.allSettled([submitProlificScreening(f.db, f.provider, params, wrong), submitProlificScreening(f.db, f.provider, params, right)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.flatMap((o) => (o.status === "rejected" ? [(o.reason as Error).message] : []))).toEqual([SCREENING_TAKEN]);
    expect(await f.db.qualificationResult.count({ where: { testId: test.id } })).toBe(1);
  });

  it("a failed screening is answered with the return message even when Prolific errs on the return request, which a job asks again", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const { test, answers: wrong } = await testAnswers(f, 0);
    const qualification = test.providerQualTypeId as string;
    const { studyId } = await f.provider.screeningTest(qualification);
    const pid = "6000000000000000000000d1";
    const sub = f.prolific.service.startSubmission(pid, studyId);
    const params = { qualification, PROLIFIC_PID: pid, STUDY_ID: studyId, SESSION_ID: sub.id };
    const down = () => new CrowdError("Prolific is unavailable", "service_unavailable");
    const ask = vi.spyOn(f.provider, "requestReturn").mockRejectedValueOnce(down());
    const outcome = await submitProlificScreening(f.db, f.provider, params, wrong);
    expect(outcome).toEqual({ redirectUrl: null, passed: false, message: SCREENING_RETURN_MESSAGE });
    expect(f.prolific.service.submission(sub.id).return_requested).toBeFalsy();
    const job = await f.db.job.findFirstOrThrow({ where: { type: JOBS.prolificReturn.type } });
    expect(job.payload).toMatchObject({ submissionId: sub.id });

    // the job: Prolific still down once (retried, not failed), then the request goes through
    ask.mockRejectedValueOnce(down());
    const registry = createJobRegistry([defineJob(JOBS.prolificReturn, (ctx, payload) => runProlificReturnJob(ctx, payload, { provider: async () => f.provider }))]);
    await drainJobs(f.db, { registry, types: [JOBS.prolificReturn.type] });
    expect(await f.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: "queued", attempts: 1 });
    await f.db.job.update({ where: { id: job.id }, data: { runAfter: new Date(0) } });
    await drainJobs(f.db, { registry, types: [JOBS.prolificReturn.type] });
    expect(await f.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(f.prolific.service.submission(sub.id).return_requested).toBeTruthy();
    // a retry of the page meets the one refusal (the attempt was recorded)
    expect(await refusal(submitProlificScreening(f.db, f.provider, params, wrong))).toBe(SCREENING_TAKEN);
  });
});
