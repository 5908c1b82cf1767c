import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { isTweetEvalFile, readTweetFile } from "./io";

let dir: string;
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "accord-classify-io-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readTweetFile", () => {
  it("reads CSV with quoted commas, quotes and line breaks, a BOM and CRLF", () => {
    const csv = '\uFEFFtweet_id,text,label\r\n1,"Bridge out, road closed",infrastructure\r\n2,"She said ""stay home""\nnow",caution\r\n';
    const { format, rows } = readTweetFile(file("a.csv", csv), { requireText: true, requireLabel: true });
    expect(format).toBe("csv");
    expect(rows).toEqual([
      { id: "1", text: "Bridge out, road closed", label: "infrastructure" },
      { id: "2", text: 'She said "stay home"\nnow', label: "caution" },
    ]);
  });

  it("reads HumAID's TSV, where a tweet may start with a quote mark", () => {
    const tsv = 'tweet_id\ttweet_text\tclass_label\n101\t"Help" is on the way\trescue_volunteering_or_donation_effort\n102\tno quotes here\tnot_humanitarian\n';
    const { format, rows } = readTweetFile(file("humaid.tsv", tsv), { requireText: true, requireLabel: true });
    expect(format).toBe("tsv");
    expect(rows[0]).toEqual({ id: "101", text: '"Help" is on the way', label: "rescue_volunteering_or_donation_effort" });
    expect(rows).toHaveLength(2);
  });

  it("finds columns case-insensitively, with spaces, and a named label column (CrisisLex style)", () => {
    const csv = 'Tweet ID, Tweet Text, Information Source, Information Type\n"\'3001\'","Water is rising",Eyewitness,Caution and advice\n';
    const { rows, labelColumn } = readTweetFile(file("crisislex.csv", csv), { labelColumn: "information type", requireLabel: true });
    expect(rows).toEqual([{ id: "3001", text: "Water is rising", label: "Caution and advice" }]);
    expect(labelColumn).toBe("Information Type");
  });

  it("reads unlabelled files for prediction and prediction files without text", () => {
    expect(readTweetFile(file("u.csv", "id,text\n7,hello\n")).rows).toEqual([{ id: "7", text: "hello" }]);
    expect(readTweetFile(file("p.csv", "tweet_id,label\n7,x\n"), { requireLabel: true }).rows).toEqual([{ id: "7", label: "x" }]);
  });

  it("reads TweetEval pairs with label names from mapping.txt (beside or one folder up)", () => {
    file("te/emotion/mapping.txt", "0\tanger\n1\tjoy\n");
    file("te/emotion/train_text.txt", "so angry today \nwhat a lovely day\n");
    file("te/emotion/train_labels.txt", "0\n1\n");
    const viaText = readTweetFile(path.join(dir, "te/emotion/train_text.txt"), { requireText: true, requireLabel: true });
    expect(viaText.format).toBe("tweeteval");
    expect(viaText.rows).toEqual([
      { id: "1", text: "so angry today ", label: "anger" },
      { id: "2", text: "what a lovely day", label: "joy" },
    ]);
    expect(readTweetFile(path.join(dir, "te/emotion/train_labels.txt")).rows).toEqual(viaText.rows);
    expect(readTweetFile(path.join(dir, "te/emotion/train_labels.txt"), { rawTweetEvalLabels: true }).rows[1].label).toBe("1");

    file("te/stance/mapping.txt", "0\tnone\n1\tagainst\n2\tfavor\n");
    file("te/stance/climate/test_text.txt", "a\nb\nc\n");
    file("te/stance/climate/test_labels.txt", "2\n1\n0\n");
    const stance = readTweetFile(path.join(dir, "te/stance/climate/test_labels.txt"), { requireLabel: true });
    expect(stance.rows.map((r) => r.label)).toEqual(["favor", "against", "none"]);

    // a test split without labels can still be predicted
    file("te/emotion/test_text.txt", "x\ny\n");
    expect(readTweetFile(path.join(dir, "te/emotion/test_text.txt"), { requireText: true }).rows).toEqual([
      { id: "1", text: "x" },
      { id: "2", text: "y" },
    ]);
    expect(() => readTweetFile(path.join(dir, "te/emotion/test_text.txt"), { requireLabel: true })).toThrow(/labels file/);
    expect(isTweetEvalFile("val_labels.txt")).toBe(true);
    expect(isTweetEvalFile("labels.txt")).toBe(false);
  });

  it("explains what is wrong with a file", () => {
    const err = (name: string, text: string, o = {}) => {
      try {
        readTweetFile(file(name, text), o);
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        return (e as Error).message;
      }
      throw new Error("expected an error");
    };
    expect(err("n1.csv", "name,text\na,b\n")).toMatch(/no id column .*name, text/);
    expect(err("n2.csv", "id,text\n1,b\n", { requireLabel: true })).toMatch(/no label column \(label or class_label\)/);
    expect(err("n3.csv", "id,label\n1,a\n", { requireText: true })).toMatch(/no text column/);
    expect(err("n4.csv", "id,text,label\n1,b\n")).toMatch(/row 2: 2 fields, the header has 3/);
    expect(err("n5.csv", "id,text,label\n1,b,\n", { requireLabel: true })).toMatch(/row 2: empty label/);
    expect(err("n6.csv", "")).toMatch(/empty/);
    file("te3/x_labels.txt", "1\n");
    expect(err("te3/x_text.txt", "a\nb\n")).toMatch(/2 tweets but 1 labels/);
    expect(() => readTweetFile(path.join(dir, "missing.csv"))).toThrow(/file not found/);
  });
});
