import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadClassifierModel } from "@/lib/classify/store";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { buildHumaidExport } from "@/lib/export/humaid";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { classificationReport } from "@/lib/metrics/classification";
import { listModels, listTrainingJobs } from "./queries";
import { seedLabelledEvent } from "./test-fixture";
import { requestModelTraining, TRAIN_MODEL_JOB } from "./train-job";

const registry = accordJobs();

describe.each(testFlavors())("training a model as a job (%s)", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("splits as exported, trains, scores the test split like Table 7 (overall and per event) and versions the model", async () => {
    const a = await seedLabelledEvent(t.db, { slug: "alpha", tweets: 320, seed: 1 });
    const b = await seedLabelledEvent(t.db, { slug: "bravo", tweets: 240, seed: 2, idBase: 2_000_000_000 });

    const { jobId } = await requestModelTraining(t.db, { request: { name: "humanitarian", eventIds: [a.eventId] } });
    expect(await drainJobs(t.db, { registry, types: [TRAIN_MODEL_JOB] })).toEqual(["succeeded"]);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ state: "succeeded", progressDone: 5, progressTotal: 5 });
    expect(job.message).toMatch(/saved humanitarian v1: weighted F1 0\.\d{3} on test/);

    const [model] = await listModels(t.db);
    expect(model).toMatchObject({ name: "humanitarian", version: 1, schemeId: a.schemeId, schemeName: "HumAID humanitarian categories" });
    expect((job.result as { modelId: string }).modelId).toBe(model.id);
    // The split is the export's (gold tweets excluded): 320 tweets, 80 per label → 56/8/16 per label.
    const exported = await buildHumaidExport(t.db, { eventIds: [a.eventId], merged: false });
    const test = exported.events[0].rows.test;
    expect(model.trainedOn.split).toMatchObject({ seed: "accord", train: 224, dev: 32, test: 64 });
    expect(model.trainedOn.events).toEqual([{ id: a.eventId, slug: "alpha", name: "Event alpha" }]);
    expect(model.trainedOn.rows).toBe(224);
    expect(test.every((r) => !r.text.startsWith("gold tweet"))).toBe(true);

    // The stored scores agree with scoring the stored model on the exported test split again.
    const scores = model.scores!;
    const loaded = await loadClassifierModel(t.db, { id: model.id });
    const again = classificationReport({ gold: test.map((r) => r.label), pred: loaded.model.predict(test.map((r) => r.text)) });
    expect(scores.overall.n).toBe(64);
    expect(scores.overall.weighted.f1).toBeCloseTo(again.weighted.f1, 12);
    expect(scores.overall.accuracy).toBeCloseTo(again.accuracy, 12);
    expect(scores.overall.weighted.f1).toBeGreaterThan(0.8);
    expect(scores.overall.perClass.map((c) => c.label)).toEqual(Object.keys(a.labels.reduce((m, l) => ({ ...m, [l]: 1 }), {} as Record<string, number>)).sort());
    expect(scores.overall.confusion.matrix.flat().reduce((x, y) => x + y, 0)).toBe(64);
    expect(scores.perEvent).toEqual([expect.objectContaining({ slug: "alpha", n: 64 })]);

    // Same name, two events: version 2, scores per event.
    await requestModelTraining(t.db, { request: { name: "humanitarian", eventIds: [b.eventId, a.eventId] } });
    expect(await drainJobs(t.db, { registry, types: [TRAIN_MODEL_JOB] })).toEqual(["succeeded"]);
    const [v2] = await listModels(t.db);
    expect(v2.version).toBe(2);
    expect(v2.trainedOn.events.map((e) => e.slug)).toEqual(["alpha", "bravo"]);
    expect(v2.scores!.perEvent.map((e) => e.slug)).toEqual(["alpha", "bravo"]);
    expect(v2.scores!.perEvent.reduce((s, e) => s + e.n, 0)).toBe(v2.scores!.overall.n);
    const jobs = await listTrainingJobs(t.db);
    expect(jobs.map((j) => [j.state, j.name, j.eventCount, j.modelId])).toEqual([
      ["succeeded", "humanitarian", 2, v2.id],
      ["succeeded", "humanitarian", 1, model.id],
    ]);
  });

  it("refuses clearly when there are too few accepted labels, before and during the job", async () => {
    const few = await seedLabelledEvent(t.db, { slug: "few", tweets: 40, seed: 3 });
    const err = await requestModelTraining(t.db, { request: { name: "tiny", eventIds: [few.eventId] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toMatch(/^Too few accepted labels to train a model: 40 accepted labels in Event few, and no label has at least 15 tweets/);
    expect(await t.db.job.count()).toBe(0);

    const ok = await seedLabelledEvent(t.db, { slug: "enough", tweets: 120, seed: 4, idBase: 3_000_000_000 });
    const { jobId } = await requestModelTraining(t.db, { request: { name: "late", eventIds: [ok.eventId] } });
    // The labels go away before the job runs: it fails with the reason, without retries.
    await t.db.acceptedLabel.deleteMany({ where: { eventId: ok.eventId, label: { not: "not_humanitarian" } } });
    expect(await drainJobs(t.db, { registry, types: [TRAIN_MODEL_JOB] })).toEqual(["failed"]);
    const job = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job.error).toMatch(/only one label has at least 15 tweets/);
    expect(await t.db.classifierModel.count()).toBe(0);
  });

  it("validates the request", async () => {
    await expect(requestModelTraining(t.db, { request: { name: " ", eventIds: ["x"] } })).rejects.toThrow();
    await expect(requestModelTraining(t.db, { request: { name: "ok", eventIds: ["missing-event"] } })).rejects.toThrow(/does not exist/);
  });
});
