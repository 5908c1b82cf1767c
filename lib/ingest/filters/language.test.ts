import { describe, expect, it } from "vitest";
import type { IngestRow } from "../rows";
import { filterByLanguage, loadLanguageDetector, normalizeLanguageCode, textForDetection } from "./language";

const row = (text: string, lang?: string): IngestRow => ({ line: 1, externalId: text.slice(0, 8), text, ...(lang !== undefined ? { lang } : {}) });

describe("language filter", () => {
  it("uses the row's language when present, counting undetermined separately", () => {
    const rows = [row("a", "en"), row("b", "en-GB"), row("c", "es"), row("d", "und"), row("e", "zxx")];
    const keep = filterByLanguage(rows, { languages: ["en"], undetermined: "keep", detect: null });
    expect(keep.rows.map((r) => r.text)).toEqual(["a", "b", "d", "e"]);
    expect(keep.step.reasons).toEqual({ "other language (es)": 1 });
    // Disjoint counts: 3 known from the file + 2 undetermined = the 5 rows in.
    expect(keep.step.details).toEqual({ "language from the file": 3, undetermined: 2 });
    const drop = filterByLanguage(rows, { languages: ["en"], undetermined: "drop", detect: null });
    expect(drop.rows.map((r) => r.text)).toEqual(["a", "b"]);
    expect(drop.step.reasons).toEqual({ "other language (es)": 1, "undetermined language": 2 });
    expect(normalizeLanguageCode("pt-BR")).toBe("pt");
  });

  it("detects the language with eld when the row has none, and records it", async () => {
    const detect = await loadLanguageDetector();
    const rows = [
      row("Flooding has closed several roads near the river, please stay home tonight"),
      row("Las inundaciones cerraron varias carreteras cerca del río, quédense en casa"),
      row("🙏🙏 http://t.co/x @someone"),
    ];
    const r = filterByLanguage(rows, { languages: ["en"], undetermined: "keep", detect });
    expect(r.rows.map((x) => x.lang)).toEqual(["en", undefined]);
    expect(r.step.reasons).toEqual({ "other language (es)": 1 });
    expect(r.step.details).toEqual({ "language detected": 2, undetermined: 1 });
    expect(textForDetection("RT @a: Help #Houston https://t.co/x &amp; more")).toBe(": Help Houston more");
  });
});
