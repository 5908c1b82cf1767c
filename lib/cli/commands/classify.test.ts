import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { writeTweetEvalStance } from "@/lib/classify/stance.fixture";
import { syntheticTweets } from "@/lib/classify/synthetic.fixture";
import { deserializeClassifier } from "@/lib/classify/serialize";
import { classificationReport } from "@/lib/metrics/classification";
import { CliError } from "../errors";
import { main } from "../main";
import { run } from "./classify";
import { captureOutput } from "@/lib/ingest/testing/test-io";

let dir: string;
const at = (name: string) => path.join(dir, name);

function csvOf(data: { texts: string[]; labels: string[] }, offset = 0): string {
  return stringify([["tweet_id", "tweet_text", "class_label"], ...data.texts.map((t, i) => [String(offset + i), t, data.labels[i]])]);
}

const train = syntheticTweets(300, 31);
const dev = syntheticTweets(60, 32);
const test = syntheticTweets(100, 33);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "accord-classify-cli-"));
  writeFileSync(at("train.csv"), csvOf(train));
  writeFileSync(at("dev.tsv"), csvOf(dev, 1000).replace(/,/g, "\t"));
  writeFileSync(at("test.csv"), csvOf(test, 5000));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe("accord classify", () => {
  it("train writes a model file and reports what it did", async () => {
    const io = captureOutput();
    expect(await run(["train", "--train", at("train.csv"), "--dev", at("dev.tsv"), "--metric", "macro-f1", "--out", at("m.model")])).toBe(0);
    const lines = io.out().trim().split("\n");
    expect(lines[0]).toMatch(/^trained on 300 tweets, 4 labels: infrastructure_and_utility_damage 75, not_humanitarian 75, /);
    expect(lines[1]).toMatch(/^features \d+, loss svm, C [\d.]+, class weight (none|balanced)$/);
    expect(lines[2]).toMatch(/^dev 60 tweets: macro-f1 \d\.\d{4}$/);
    expect(lines[3]).toMatch(/^training time \d+\.\d s$/);
    expect(lines[4]).toMatch(/^model written to .*m\.model \(\d+\.\d\d MB\)$/);
    expect(deserializeClassifier(readFileSync(at("m.model"))).labels).toHaveLength(4);
  });

  it("predict prints CSV tweet_id,label for every tweet", async () => {
    const io = captureOutput();
    expect(await run(["predict", "--model", at("m.model"), at("test.csv")])).toBe(0);
    const lines = io.out().trimEnd().split("\n");
    expect(lines[0]).toBe("tweet_id,label");
    expect(lines).toHaveLength(101);
    expect(lines[1]).toMatch(/^5000,[a-z_]+$/);
    writeFileSync(at("pred.csv"), io.out());
    const model = deserializeClassifier(readFileSync(at("m.model")));
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(model.predict(test.texts));
  });

  it("eval prints the scores, in text or as JSON, matching the metrics library", async () => {
    const pred = readFileSync(at("pred.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[1]);
    const report = classificationReport({ gold: test.labels, pred });

    let io = captureOutput();
    expect(await run(["eval", "--gold", at("test.csv"), "--pred", at("pred.csv"), "--json"])).toBe(0);
    const json = JSON.parse(io.out());
    expect(Object.keys(json)).toEqual(["metric", "score", "n", "accuracy", "macro", "weighted", "perClass", "confusion"]);
    expect(json.metric).toBe("weighted-f1");
    expect(json.score).toBeCloseTo(report.weighted.f1, 12);
    expect(json.n).toBe(100);
    expect(json.confusion).toEqual(report.confusion);
    vi.restoreAllMocks();

    io = captureOutput();
    const label = "sympathy_and_support";
    expect(await run(["eval", "--gold", at("test.csv"), "--pred", at("pred.csv"), "--metric", `f1:${label}`])).toBe(0);
    const text = io.out();
    const f1 = report.perClass.find((c) => c.label === label)?.f1 as number;
    expect(text).toContain(`metric   f1:${label}\nscore    ${f1.toFixed(4)}\ntweets   100\n`);
    expect(text).toMatch(/\nweighted avg +\d\.\d{4} +\d\.\d{4} +\d\.\d{4} +100\n/);
    expect(text).toContain("confusion matrix (rows gold, columns predicted):");
  });

  it("eval refuses incomplete predictions and notes extra ones", async () => {
    writeFileSync(at("short.csv"), "tweet_id,label\n5000,not_humanitarian\n");
    await expect(run(["eval", "--gold", at("test.csv"), "--pred", at("short.csv")])).rejects.toThrow(/no prediction for 99 of 100 gold tweets \(ids 5001, 5002/);
    writeFileSync(at("extra.csv"), readFileSync(at("pred.csv"), "utf8") + "99999,not_humanitarian\n");
    const io = captureOutput();
    expect(await run(["eval", "--gold", at("test.csv"), "--pred", at("extra.csv")])).toBe(0);
    expect(io.err()).toContain("note: 1 prediction for ids not in");
  });

  it("turns bad usage and bad files into CLI errors with exit codes", async () => {
    await expect(run(["train", "--train", at("train.csv")])).rejects.toMatchObject({ exitCode: 2, message: /missing --out MODEL/ });
    await expect(run(["eval", "--gold", at("test.csv"), "--pred", at("pred.csv"), "--metric", "f2"])).rejects.toMatchObject({
      exitCode: 2,
    });
    await expect(run(["predict", "--model", at("train.csv"), at("test.csv")])).rejects.toThrow(/not a valid Accord classifier model/);
    await expect(run(["predict", "--model", at("m.model"), at("nope.csv")])).rejects.toThrow(CliError);
    await expect(run(["frobnicate"])).rejects.toMatchObject({ exitCode: 2 });
    const io = captureOutput();
    expect(await main(["classify", "eval", "--gold", at("test.csv"), "--pred", at("pred.csv"), "--metric", "stance"])).toBe(1);
    expect(io.err()).toMatch(/^accord classify: the stance metric needs a "favor" and an "against" label/);
    expect(existsSync(at("never.model"))).toBe(false);
  });
});

describe("accord classify on TweetEval's stance layout (generated tweets)", () => {
  it("trains, predicts and scores a stance task end to end", async () => {
    const data = writeTweetEvalStance(at("tweeteval"));
    let io = captureOutput();
    const model = at("stance.model");
    expect(
      await run(["train", "--train", `${data}/train_text.txt`, "--dev", `${data}/val_labels.txt`, "--metric", "stance", "--out", model]),
    ).toBe(0);
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await run(["predict", "--model", model, `${data}/test_text.txt`])).toBe(0);
    writeFileSync(at("stance-pred.csv"), io.out());
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await run(["eval", "--gold", `${data}/test_labels.txt`, "--pred", at("stance-pred.csv"), "--metric", "stance", "--json"])).toBe(0);
    const result = JSON.parse(io.out());
    expect(result.n).toBe(280);
    expect(result.perClass.map((c: { label: string }) => c.label)).toEqual(["against", "favor", "none"]);
    // Cues overlap between classes and some tweets have none: learnable, not perfect.
    expect(result.score).toBeGreaterThan(0.5);
    expect(result.score).toBeLessThan(1);
  });
});
