import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { renderImportErrorsCsv } from "./error-report";

describe("error report CSV", () => {
  it("has line,column,reason,raw and defuses formulas", () => {
    const csv = renderImportErrorsCsv([
      { line: 3, column: "tweet_text", reason: "empty text", raw: '1,"",x' },
      { line: 7, column: null, reason: "expected 3 fields, found 4", raw: "=HYPERLINK(\"http://evil\")" },
    ]);
    expect(parse(csv)).toEqual([
      ["line", "column", "reason", "raw"],
      ["3", "tweet_text", "empty text", '1,"",x'],
      ["7", "", "expected 3 fields, found 4", "'=HYPERLINK(\"http://evil\")"],
    ]);
  });
});
