import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempFiles } from "./testing/test-io";
import { tweetEvalTsv, writeTweetEvalTsv } from "./tweeteval";

const files = tempFiles("accord-tweeteval-");
afterAll(() => files.cleanup());

describe("TweetEval task splits", () => {
  it("pairs texts with labels through mapping.txt, ids by task, split and line", () => {
    const tsv = tweetEvalTsv({ texts: "so happy today\r\nthis\tis awful\r\n", labels: "1\n0\n", mapping: "0\tnegative\n1\tpositive\n" }, { task: "sentiment", split: "train" });
    expect(tsv).toBe("tweet_id\ttweet_text\tclass_label\ntweeteval:sentiment:train:1\tso happy today\tpositive\ntweeteval:sentiment:train:2\tthis is awful\tnegative\n");
  });

  it("refuses files that do not pair, or a label outside the mapping", () => {
    expect(() => tweetEvalTsv({ texts: "a\nb\n", labels: "0\n", mapping: "0\tx\n" }, { task: "t", split: "test" })).toThrow(/2 lines but test_labels.txt has 1/);
    expect(() => tweetEvalTsv({ texts: "a\n", labels: "7\n", mapping: "0\tx\n" }, { task: "t", split: "test" })).toThrow(/line 1: label "7" is not in mapping.txt/);
  });

  it("finds the labels and mapping beside the text file", () => {
    const dir = path.join(files.dir, "emotion");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "val_text.txt"), "storm coming\n");
    fs.writeFileSync(path.join(dir, "val_labels.txt"), "0\n");
    fs.writeFileSync(path.join(dir, "mapping.txt"), "0\tfear\n");
    const out = writeTweetEvalTsv(path.join(dir, "val_text.txt"), files.dir);
    expect(out.fileName).toBe("emotion/val_text.txt+val_labels.txt");
    expect(fs.readFileSync(out.filePath, "utf8")).toContain("tweeteval:emotion:val:1\tstorm coming\tfear");
    expect(() => writeTweetEvalTsv(path.join(dir, "test_text.txt"), files.dir)).toThrow(/cannot read/);
  });
});
