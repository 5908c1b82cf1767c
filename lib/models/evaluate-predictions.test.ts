import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb, testFlavors } from "@/lib/db/test-db";
import { UserError } from "@/lib/errors";
import { evaluatePredictions, modelTestSplit, parsePredictionsCsv } from "./evaluate-predictions";
import { seedLabelledEvent } from "./test-fixture";
import { trainModelOnEvents } from "./train-job";

/** Smaller feature space for speed (the train job test uses the defaults). */
const FAST = { hashBits: 16 };

/** Weighted F1 computed independently: per label, counts from the pairs; weights = gold support. */
function weightedF1ByHand(gold: string[], pred: string[]): number {
  let total = 0;
  for (const label of new Set(gold)) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      if (g === label && pred[i] === label) tp++;
      else if (pred[i] === label) fp++;
      else if (g === label) fn++;
    });
    const f1 = tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
    total += f1 * (tp + fn);
  }
  return total / gold.length;
}

describe("parsePredictionsCsv", () => {
  it("reads tweet_id,label rows and reports every bad row with its line", () => {
    const csv = ["tweet_id,label", "1,a", '"2","b"', ",a", "3,", "1,b", "4 4,a", "5,zzz", "", "6,b"].join("\n");
    const out = parsePredictionsCsv(csv, { labels: ["a", "b"] });
    expect([...out.predictions]).toEqual([
      ["1", "a"],
      ["2", "b"],
      ["6", "b"],
    ]);
    expect(out.errors).toEqual([
      { line: 4, message: "the tweet id is empty" },
      { line: 5, message: "the label is empty" },
      { line: 6, message: "tweet 1 was already predicted on line 2" },
      { line: 7, message: "the tweet id contains spaces" },
      { line: 8, message: '"zzz" is not a label of this scheme' },
    ]);
    expect(out.rows).toBe(8);
  });

  it("accepts other column orders and names, and tabs; refuses a file without the columns", () => {
    expect([...parsePredictionsCsv("class_label\ttweet_id\nb\t7\n").predictions]).toEqual([["7", "b"]]);
    expect(() => parsePredictionsCsv("id_of_tweet,label\n1,a\n")).toThrow(/header with a "tweet_id" and a "label" column/);
    expect(() => parsePredictionsCsv("")).toThrow(UserError);
  });
});

describe.each(testFlavors())("scoring uploaded predictions (%s)", (flavor) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(flavor);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("scores a model's test split per event and overall (Table 7), lists unmatched ids and notices changed data", async () => {
    const a = await seedLabelledEvent(t.db, { slug: "ev-a", tweets: 160, seed: 11 });
    const b = await seedLabelledEvent(t.db, { slug: "ev-b", tweets: 120, seed: 12, idBase: 4_000_000_000 });
    const { model } = await trainModelOnEvents(t.db, { request: { name: "m", eventIds: [a.eventId, b.eventId] }, options: FAST });
    const split = await modelTestSplit(t.db, model.id);
    expect(split.rows).toHaveLength(56); // 20% of 40 per label, 4 labels, 2 events
    // Predictions: every third one wrong, the first four missing, two ids outside the split, one bad row.
    const rows = split.rows.slice(4);
    const pred = rows.map((r, i) => (i % 3 === 0 ? (r.label === "not_humanitarian" ? "sympathy_and_support" : "not_humanitarian") : r.label));
    const csv = ["tweet_id,label", ...rows.map((r, i) => `${r.id},${pred[i]}`), "123,not_humanitarian", "456,not_humanitarian", "789,"].join("\n");

    const result = await evaluatePredictions(t.db, { scope: { kind: "model", modelId: model.id }, csv });
    expect(result).toMatchObject({ goldTotal: 56, matched: 52, missing: 4, rows: 55, errorCount: 1, splitChanged: false });
    expect(result.unmatched).toEqual({ count: 2, ids: ["123", "456"] });
    expect(result.errors).toEqual([{ line: 56, message: "the label is empty" }]);
    expect(result.scores.overall.weighted.f1).toBeCloseTo(weightedF1ByHand(rows.map((r) => r.label), pred), 12);
    expect(result.scores.perEvent.map((e) => [e.slug, e.n, e.classes])).toEqual([
      ["ev-a", rows.filter((r) => r.event.slug === "ev-a").length, 4],
      ["ev-b", rows.filter((r) => r.event.slug === "ev-b").length, 4],
    ]);
    const inA = rows.map((r, i) => [r, pred[i]] as const).filter(([r]) => r.event.slug === "ev-a");
    expect(result.scores.perEvent[0].weighted.f1).toBeCloseTo(weightedF1ByHand(inA.map(([r]) => r.label), inA.map(([, p]) => p)), 12);

    // All accepted labels of one event (gold tweets excluded).
    const all = await evaluatePredictions(t.db, { scope: { kind: "events", eventIds: [a.eventId], split: "all" }, csv });
    expect(all.goldTotal).toBe(160);
    expect(all.matched).toBe(rows.filter((r) => r.event.slug === "ev-a").length);

    // New accepted labels after training change the split: the result says so.
    const extra = await t.db.tweet.create({ data: { eventId: a.eventId, externalId: "77", text: "new tweet", status: "accepted" } });
    await t.db.acceptedLabel.create({ data: { tweetId: extra.id, eventId: a.eventId, label: "not_humanitarian", topVotes: 2, totalVotes: 3, votes: {} } });
    expect((await evaluatePredictions(t.db, { scope: { kind: "model", modelId: model.id }, csv })).splitChanged).toBe(true);

    await expect(evaluatePredictions(t.db, { scope: { kind: "model", modelId: model.id }, csv: "tweet_id,label\n1,not_humanitarian\n" })).rejects.toThrow(
      /Nothing to score: none of its 1 tweet ids is in the test split of m v1/,
    );
  });
});
