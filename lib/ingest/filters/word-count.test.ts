import { describe, expect, it } from "vitest";
import { countWords, filterByWordCount } from "./word-count";

describe("word count", () => {
  it("counts words and hashtags, not URLs, mentions or numbers", () => {
    expect(countWords("Help needed at #Rockport shelter")).toBe(5);
    expect(countWords("@FEMA https://t.co/x 2,000 3.5 10:30 50% !!! 🙏🙏")).toBe(0);
    expect(countWords("RT @user: #Harvey #prayers 🙏 http://t.co/abc")).toBe(3);
    expect(countWords("10pm curfew (downtown)")).toBe(3);
    expect(countWords("Terremoto: ¡ayuda!")).toBe(2);
  });

  it("keeps tweets with at least the minimum", () => {
    const rows = ["one two three", "#one two", "only @two words http://x.co"].map((text, i) => ({ line: i + 1, externalId: String(i), text }));
    const r = filterByWordCount(rows, { minWords: 3 });
    expect(r.rows.map((x) => x.externalId)).toEqual(["0"]);
    expect(r.step.reasons).toEqual({ "fewer than 3 words or hashtags": 2 });
  });
});
