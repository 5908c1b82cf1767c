import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { CF_LABEL_MAP, crowdflowerReport, mturkBatch } from "@/lib/ingest/judgments/testing/fixtures";
import fs from "node:fs";
import path from "node:path";
import { captureOutput, tempFiles } from "@/lib/ingest/testing/test-io";
import { tempDataDirForTests } from "@/lib/ingest/testing/upload-dir";
import { runImport } from "./import";

const files = tempFiles("accord-import-judgments-cli-");
afterAll(() => files.cleanup());
tempDataDirForTests("accord-import-judgments-data-");

describe("accord import --judgments", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb("sqlite");
    const schemeId = await ensureHumaidScheme(t.db);
    await t.db.event.create({ data: { slug: "sandy", name: "Sandy", type: "hurricane", schemeId, settings: {}, filters: {}, locations: [] } });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  it("imports a CrowdFlower report with a label map and a repeat policy, saying what it left out", async () => {
    const report = files.write("sandy.csv", crowdflowerReport());
    const map = files.write("map.csv", Object.entries(CF_LABEL_MAP).map(([from, to]) => `${from},${to ?? ""}`).join("\n"));
    const io = captureOutput();
    expect(await runImport(["--judgments", report, "--event", "sandy", "--label-map", map], { db: t.db })).toBe(1);
    expect(io.out()).toMatch(/failed\n.*1 repeat judgment .*--repeats first/);
    expect(io.err()).toMatch(/CrowdFlower .*, 37 rows\. Personal columns are never stored: _country, _region, _city, _ip/);
    expect(await runImport(["--judgments", report, "--event", "sandy", "--repeats", "first", "--json"], { db: t.db })).toBe(0);
    const out = JSON.parse(io.out().trim().split("\n").pop()!);
    expect(out).toMatchObject({ status: "completed", kind: "judgments", format: "crowdflower", rowsStored: 36, personalColumns: ["_country", "_region", "_city", "_ip"] });
    expect(await t.db.judgment.count()).toBe(36);
  });

  it("refuses a file it does not recognise and a bad policy", async () => {
    const other = files.write("other.csv", "a,b\n1,2\n");
    await expect(runImport(["--judgments", other, "--event", "sandy"], { db: t.db })).rejects.toThrow(/not a judgment export/);
    await expect(runImport(["--judgments", other, "--event", "sandy", "--repeats", "newest"], { db: t.db })).rejects.toThrow(/--repeats/);
  });

  it("--label-column and --text-column are refused for a file with several tweets per row, naming its columns", async () => {
    const batch = files.write("batch.csv", mturkBatch());
    await expect(runImport(["--judgments", batch, "--event", "sandy", "--label-column", "Answer.label_1"], { db: t.db })).rejects.toThrow(
      /batch\.csv: --label-column names one column, but this file has 3 tweets per row \(Answer\.label_1, Answer\.label_2, Answer\.label_3\); leave it out/,
    );
    await expect(runImport(["--judgments", batch, "--event", "sandy", "--label-column", "Answer.label_1", "--text-column", "Input.tweet_text_1"], { db: t.db })).rejects.toThrow(
      /--label-column and --text-column name one column/,
    );
    expect(await t.db.importBatch.count()).toBe(0);
  });

  it("accord import --tweeteval imports a TweetEval split as one file", async () => {
    const dir = path.join(files.dir, "sentiment");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "train_text.txt"), "roads flooded near the bridge\nstay safe everyone\n");
    fs.writeFileSync(path.join(dir, "train_labels.txt"), "0\n1\n");
    fs.writeFileSync(path.join(dir, "mapping.txt"), "0\tinfrastructure_and_utility_damage\n1\tsympathy_and_support\n");
    const io = captureOutput();
    expect(await runImport(["--event", "sandy", "--tweeteval", path.join(dir, "train_text.txt"), "--json"], { db: t.db })).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ status: "completed", fileName: "sentiment/train_text.txt+train_labels.txt", rowsStored: 2 });
    const tweets = await t.db.tweet.findMany({ orderBy: { externalId: "asc" }, select: { externalId: true, sourceLabel: true } });
    expect(tweets).toEqual([
      { externalId: "tweeteval:sentiment:train:1", sourceLabel: "infrastructure_and_utility_damage" },
      { externalId: "tweeteval:sentiment:train:2", sourceLabel: "sympathy_and_support" },
    ]);
  });
});
