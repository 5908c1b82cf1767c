import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { listClassifierModels, loadClassifierModel, saveClassifierModel, setClassifierScores } from "./store";
import { syntheticTweets } from "./synthetic.fixture";
import { trainClassifier } from "./train";

const data = syntheticTweets(200, 21);
const model = trainClassifier({ ...data });
const texts = syntheticTweets(40, 22).texts;

describe.each(testFlavors())("classifier models in the database (%s)", (flavor) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(flavor);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("saves versions under a name and loads a model that predicts like the original", async () => {
    const v1 = await saveClassifierModel(t.db, { name: "humanitarian", model, trainedOn: { events: ["harvey", "irma"] } });
    const v2 = await saveClassifierModel(t.db, { name: "humanitarian", model, scores: { weightedF1: 0.8 } });
    expect([v1.version, v2.version]).toEqual([1, 2]);
    expect(v1.kind).toBe("tfidf-linear");
    expect(v1.trainedOn).toMatchObject({ events: ["harvey", "irma"], rows: 200, labels: model.info.labelCounts });
    expect(v1.scores).toBeNull();

    const latest = await loadClassifierModel(t.db, { name: "humanitarian" });
    expect(latest.version).toBe(2);
    expect(latest.scores).toEqual({ weightedF1: 0.8 });
    expect(latest.model.predict(texts)).toEqual(model.predict(texts));
    const first = await loadClassifierModel(t.db, { name: "humanitarian", version: 1 });
    expect(first.id).toBe(v1.id);
    expect((await loadClassifierModel(t.db, { id: v2.id })).version).toBe(2);
  });

  it("records scores later and lists models without their bytes", async () => {
    const saved = await saveClassifierModel(t.db, { name: "other", model });
    await setClassifierScores(t.db, { id: saved.id, scores: { test: { weightedF1: 0.7 } } });
    const list = await listClassifierModels(t.db, { name: "other" });
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty("model");
    expect(list[0].scores).toEqual({ test: { weightedF1: 0.7 } });
    expect((await listClassifierModels(t.db)).length).toBeGreaterThanOrEqual(3);
  });

  it("gives versions in order under concurrent saves of one name", async () => {
    const saved = await Promise.all([1, 2, 3].map(() => saveClassifierModel(t.db, { name: "race", model })));
    expect(saved.map((s) => s.version).sort()).toEqual([1, 2, 3]);
  });

  it("reports a missing model or name as a user error", async () => {
    await expect(loadClassifierModel(t.db, { name: "nope" })).rejects.toThrow(UserError);
    await expect(loadClassifierModel(t.db, { name: "humanitarian", version: 9 })).rejects.toThrow(/version 9/);
    await expect(saveClassifierModel(t.db, { name: "  ", model })).rejects.toThrow(/needs a name/);
  });
});
