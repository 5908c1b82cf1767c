import { describe, expect, it } from "vitest";
import { JsonValueSplitter } from "./parse-json";

function split(text: string, max = 1_000_000) {
  const s = new JsonValueSplitter(max);
  const out: Array<{ line: number; text: string; encodingError?: string; oversize: boolean }> = [];
  text.split("\n").forEach((t, i) => s.feed({ line: i + 1, text: t }, out));
  return { values: out.map((v) => [v.line, v.text.trim(), v.oversize]), problem: s.finish(out) };
}

describe("JSON document splitter", () => {
  it("splits a top-level array into its elements, whatever the layout", () => {
    expect(split('[{"a":1},{"b":"x]}"},\n  {"c":\n [1,2]}, 7, "s"]')).toEqual({
      values: [
        [1, '{"a":1}', false],
        [1, '{"b":"x]}"}', false],
        [2, '{"c":\n [1,2]}', false],
        [3, "7", false],
        [3, '"s"', false],
      ],
      problem: null,
    });
  });

  it("splits concatenated top-level objects (one response page after another)", () => {
    expect(split('{"data":[1]}\n{\n "data": [2]\n}').values).toEqual([
      [1, '{"data":[1]}', false],
      [2, '{\n "data": [2]\n}', false],
    ]);
  });

  it("handles escaped quotes and backslashes inside strings", () => {
    expect(split('[{"t":"a \\" ] b \\\\"}]').values).toEqual([[1, '{"t":"a \\" ] b \\\\"}', false]]);
  });

  it("says what is wrong with a truncated or over-long document", () => {
    expect(split('[{"a":1},{"b":').problem).toMatch(/ends inside a value that starts on line 1/);
    expect(split('[{"a":1}').problem).toMatch(/never closed/);
    expect(split('[{"a":1}] trailing').problem).toMatch(/after the end/);
    const big = split(`[{"a":"${"x".repeat(100)}"},{"b":1}]`, 50);
    expect(big.values).toEqual([
      [1, "", true],
      [1, '{"b":1}', false],
    ]);
  });
});
