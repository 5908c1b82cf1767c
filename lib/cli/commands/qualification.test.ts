import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseAnswerKey } from "@/lib/crowd/mturk/answer-key";
import { parseQuestionForm } from "@/lib/crowd/mturk/question-form";
import { CliError } from "../errors";
import { parseGoldCsv, run } from "./qualification";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "accord-qual-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const labels = ["caution_and_advice", "sympathy_and_support", "not_humanitarian", "requests_or_urgent_needs", "injured_or_dead_people"];
const GOLD =
  "tweet_id,text,label\n" +
  Array.from({ length: 10 }, (_, i) => `10${i},"Tweet ${i} <script>alert(1)</script> & ""quoted"" 😀",${labels[i % labels.length]}`).join("\n") +
  "\n";

describe("accord qualification", () => {
  it("writes question-form.xml and answer-key.xml from a gold CSV", async () => {
    const gold = path.join(dir, "gold.csv");
    writeFileSync(gold, GOLD);
    const out = path.join(dir, "out");
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    expect(await run(["--gold", gold, "--out", out])).toBe(0);
    const printed = stdout.mock.calls.map((c) => String(c[0])).join("");
    expect(printed).toMatch(/^wrote .*question-form\.xml \(10 questions, \d+ bytes\)\nwrote .*answer-key\.xml \(\d+ bytes\)\npass mark: score >= 60 \(6 of 10 correct\)\n$/);
    const form = readFileSync(path.join(out, "question-form.xml"), "utf8");
    const key = readFileSync(path.join(out, "answer-key.xml"), "utf8");
    expect(form).toContain('<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">');
    expect(form).not.toContain("<script>");
    const questions = parseQuestionForm(form);
    expect(questions).toHaveLength(10);
    expect(questions[0].text).toBe('Tweet 0 <script>alert(1)</script> & "quoted" 😀');
    expect(questions[0].selections).toHaveLength(11);
    const parsedKey = parseAnswerKey(key);
    expect(parsedKey.questions.map((q) => q.options[0].selectionIds[0])).toEqual(Array.from({ length: 10 }, (_, i) => labels[i % labels.length]));
    expect(parsedKey.mapping).toEqual({ kind: "percentage", maximumSummedScore: 10 });
  });

  it("rejects labels outside HumAID, missing columns and missing options", async () => {
    expect(() => parseGoldCsv("tweet_id,text,label\n1,hello,flooding\n")).toThrow(/line 2: label "flooding" is not a HumAID label/);
    expect(() => parseGoldCsv("id,text,label\n1,hello,not_humanitarian\n")).toThrow(/missing "tweet_id"/);
    expect(() => parseGoldCsv("tweet_id,text,label\n")).toThrow(/no rows/);
    await expect(run(["--gold", path.join(dir, "nope.csv"), "--out", dir])).rejects.toThrow(/cannot read/);
    await expect(run(["--out", dir])).rejects.toBeInstanceOf(CliError);
    await expect(run(["--gold", "x", "--out", dir, "--pass", "101"])).rejects.toThrow(/--pass/);
  });
});
