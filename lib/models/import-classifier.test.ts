import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadClassifierModel } from "@/lib/classify/store";
import { syntheticTweets } from "@/lib/classify/synthetic.fixture";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import type { Funnel } from "@/lib/ingest/funnel";
import { createImport, IMPORT_JOB_TYPE } from "@/lib/ingest/import-job";
import { getImport } from "@/lib/ingest/import-queries";
import { parseIngestSettings } from "@/lib/ingest/settings";
import { tempFiles } from "@/lib/ingest/testing/test-io";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { importModelFor, loadImportClassifier, applyModelToImports } from "./import-classifier";
import { seedLabelledEvent } from "./test-fixture";
import { trainModelOnEvents } from "./train-job";

/** Smaller feature space for speed (the train job test uses the defaults). */
const FAST = { hashBits: 16 };

const files = tempFiles("accord-models-import-");
const registry = accordJobs();
afterAll(() => files.cleanup());

/** A CSV of new tweets for the next event (generated text; ids in the Twitter snowflake range). */
function newTweetsCsv(n: number, seed: number): { csv: string; texts: string[] } {
  const { texts } = syntheticTweets(n, seed);
  const unique = texts.map((x, i) => `${x} batch ${seed} item ${i}`);
  const rows = unique.map((x, i) => `${1_500_000_000_000_000_000n + BigInt(i)},"${x}",en`);
  return { csv: `id,text,lang\n${rows.join("\n")}\n`, texts: unique };
}

async function runImport(db: TestDb["db"], eventId: string, csv: string) {
  const filePath = files.write(`import-${eventId}.csv`, csv);
  const created = await createImport({ db, eventId, kind: "tweets", fileName: path.basename(filePath), filePath });
  expect(await drainJobs(db, { registry, types: [IMPORT_JOB_TYPE] })).toEqual(["succeeded"]);
  const view = await getImport(db, { importId: created.importId });
  return Object.fromEntries((view?.funnel as Funnel).map((s) => [s.step, s]));
}

describe.each(testFlavors())("the import-time classifier (%s)", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("drops tweets predicted as a chosen class with the newest model of the scheme, then samples per predicted class with a chosen model", async () => {
    const source = await seedLabelledEvent(t.db, { slug: "source", tweets: 200, seed: 7 });
    const next = await t.db.event.create({
      data: { slug: "next", name: "Next event", type: "flood", schemeId: source.schemeId, settings: {}, locations: [], filters: { duplicates: { enabled: false } } },
    });
    // No model yet: the loader has nothing to offer.
    expect(await loadImportClassifier({ db: t.db, eventId: next.id, schemeId: source.schemeId })).toBeNull();

    const { model: first } = await trainModelOnEvents(t.db, { request: { name: "humanitarian", eventIds: [source.eventId] }, options: FAST });
    const two = await seedLabelledEvent(t.db, { slug: "two", tweets: 60, seed: 8, idBase: 5_000_000_000, labels: ["sympathy_and_support", "not_humanitarian"] });
    const { model: newest } = await trainModelOnEvents(t.db, { request: { name: "two-class", eventIds: [two.eventId] }, options: FAST });
    expect(await importModelFor(t.db, { eventId: next.id, schemeId: source.schemeId })).toMatchObject({ id: newest.id, chosen: false });

    // The classifier step on (HumAID §3.1 step 4, dropping not_humanitarian): the newest model applies.
    await t.db.event.update({ where: { id: next.id }, data: { filters: { duplicates: { enabled: false }, classifier: { enabled: true } } } });
    const batch1 = newTweetsCsv(40, 31);
    const steps1 = await runImport(t.db, next.id, batch1.csv);
    const newestModel = (await loadClassifierModel(t.db, { id: newest.id })).model;
    const expected1 = newestModel.predict(batch1.texts);
    const dropped1 = expected1.filter((l) => l === "not_humanitarian").length;
    expect(dropped1).toBeGreaterThan(0);
    expect(steps1.classifier).toMatchObject({ in: 40, kept: 40 - dropped1, reasons: { "predicted not_humanitarian": dropped1 } });
    const stored1 = await t.db.tweet.findMany({ where: { eventId: next.id }, select: { text: true, predictedLabel: true } });
    expect(stored1).toHaveLength(40 - dropped1);
    for (const s of stored1) expect(s.predictedLabel).toBe(expected1[batch1.texts.indexOf(s.text)]);

    // A model chosen for the event, with sampling by predicted class: 2 per class, nothing dropped.
    await applyModelToImports(t.db, { eventId: next.id, modelId: first.id, dropLabels: [], perClass: 2 });
    const filters = (await t.db.event.findUniqueOrThrow({ where: { id: next.id } })).filters;
    expect(filters).toMatchObject({ classifier: { enabled: true, dropLabels: [], modelId: first.id }, duplicates: { enabled: false } });
    expect(parseIngestSettings(filters).sampling).toMatchObject({ enabled: true, by: "prediction", perClass: 2 });
    expect(await importModelFor(t.db, { eventId: next.id, schemeId: source.schemeId })).toMatchObject({ id: first.id, chosen: true });
    await t.db.tweet.deleteMany({ where: { eventId: next.id } });
    const batch2 = newTweetsCsv(40, 32);
    const steps2 = await runImport(t.db, next.id, batch2.csv);
    const firstModel = (await loadClassifierModel(t.db, { id: first.id })).model;
    const expected2 = firstModel.predict(batch2.texts);
    const classes = new Set(expected2);
    expect(steps2.classifier).toMatchObject({ in: 40, kept: 40 });
    expect(steps2.sampling).toMatchObject({ in: 40, kept: 2 * classes.size });
    const stored2 = await t.db.tweet.findMany({ where: { eventId: next.id }, select: { text: true, predictedLabel: true } });
    const perClass = new Map<string, number>();
    for (const s of stored2) {
      expect(s.predictedLabel).toBe(expected2[batch2.texts.indexOf(s.text)]);
      perClass.set(s.predictedLabel as string, (perClass.get(s.predictedLabel as string) ?? 0) + 1);
    }
    expect([...perClass.values()].every((n) => n === 2)).toBe(true);

    // A model of another scheme is refused.
    const otherScheme = await t.db.labelScheme.create({ data: { slug: "other", name: "Other" } });
    const foreign = await t.db.event.create({ data: { slug: "foreign", name: "Foreign", type: "other", schemeId: otherScheme.id, settings: {}, locations: [], filters: {} } });
    await expect(applyModelToImports(t.db, { eventId: foreign.id, modelId: first.id })).rejects.toThrow(/another label scheme/);
  });
});
