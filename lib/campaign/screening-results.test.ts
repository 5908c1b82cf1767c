import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { listWorkers, workerQuerySchema } from "@/lib/events/workers";
import { loadQualificationPanel } from "./panels";
import { setupProlificCampaign, takeScreening, type ProlificCampaign } from "./prolific-fixture";
import { createQualificationTest } from "./qualification";
import { recordScreeningResult } from "./screening-results";

const PASS = "6000000000000000000000b1";
const PASS2 = "6000000000000000000000b2";
const FAIL = "6000000000000000000000b3";

describe.each(testFlavors())("Prolific screening results in Accord's tables (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("the screening page records each participant's result and qualified flag; the Workers page and the qualification panel show them", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    expect((await takeScreening(f, PASS, 10)).passed).toBe(true);
    expect((await takeScreening(f, PASS2, 7)).passed).toBe(true);
    expect((await takeScreening(f, FAIL, 3)).passed).toBe(false);

    const results = await f.db.qualificationResult.findMany({ where: { testId: test.id }, select: { score: true, passed: true, answers: true, worker: { select: { provider: true, externalId: true, qualified: true } } } });
    const byId = new Map(results.map((r) => [r.worker.externalId, r]));
    expect(results).toHaveLength(3);
    expect(byId.get(PASS)).toMatchObject({ score: 100, passed: true, worker: { provider: "prolific", qualified: true } });
    expect(byId.get(PASS2)).toMatchObject({ score: 70, passed: true, worker: { provider: "prolific", qualified: true } });
    expect(byId.get(FAIL)).toMatchObject({ score: 30, passed: false, worker: { provider: "prolific", qualified: false } });
    expect(Object.keys(byId.get(PASS)!.answers as Record<string, string>)).toHaveLength(10);
    // What Accord recorded agrees with Prolific's allow-list group.
    expect(Object.keys(f.prolific.state.groups[test.providerQualTypeId as string]!.members).sort()).toEqual([PASS, PASS2].sort());

    const page = await listWorkers(f.db, workerQuerySchema.parse({ provider: "prolific" }));
    expect(page.rows.map((r) => [r.externalId, r.provider, r.qualified]).sort()).toEqual(
      [
        [FAIL, "prolific", false],
        [PASS, "prolific", true],
        [PASS2, "prolific", true],
      ].sort(),
    );
    expect((await listWorkers(f.db, workerQuerySchema.parse({ provider: "mturk" }))).rows).toEqual([]);
    const panel = await loadQualificationPanel(f.db, f.eventId);
    expect(panel.results).toEqual({ taken: 3, passed: 2 });
  });

  it("a regraded result replaces the earlier one; a worker stays qualified while any of their results passed", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 20 });
    const test = await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const other = await f.db.qualificationTest.create({
      data: { name: "Other event's screening", provider: "prolific", schemeId: test.schemeId, goldTweetIds: [], questionFormXml: "", answerKeyXml: "", status: "active" },
    });
    const first = await recordScreeningResult(f.db, { crowd: PROVIDER_KIND.prolific, testId: test.id, participantId: PASS, score: 40, passed: false });
    expect(first.qualified).toBe(false);
    expect((await recordScreeningResult(f.db, { crowd: PROVIDER_KIND.prolific, testId: test.id, participantId: PASS, score: 80, passed: true })).qualified).toBe(true);
    expect(await f.db.qualificationResult.findMany({ where: { testId: test.id }, select: { score: true, passed: true } })).toEqual([{ score: 80, passed: true }]);
    // Failing another event's screening keeps the pass of this one.
    expect((await recordScreeningResult(f.db, { crowd: PROVIDER_KIND.prolific, testId: other.id, participantId: PASS, score: 10, passed: false })).qualified).toBe(true);
    expect(await f.db.worker.count({ where: { externalId: PASS } })).toBe(1);
    expect((await f.db.worker.findFirstOrThrow({ where: { externalId: PASS } })).qualified).toBe(true);
  });
});
