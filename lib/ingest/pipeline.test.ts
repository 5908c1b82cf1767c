import { describe, expect, it } from "vitest";
import { renderFunnelTable } from "./funnel";
import { buildFunnel, errorKind, runIngestPipeline } from "./pipeline";
import type { IngestRow } from "./rows";
import { parseIngestSettings } from "./settings";

let line = 1;
const row = (text: string, extra: Partial<IngestRow> = {}): IngestRow => ({ line: ++line, externalId: `x${line}`, text, lang: "en", ...extra });

describe("ingest pipeline", () => {
  it("runs the steps in the paper's order and reports each", async () => {
    const rows = [
      row("Evacuation ordered for the coastal towns tonight", { tweetedAt: new Date("2017-08-26T10:00:00Z"), userLocation: "Rockport, Texas" }),
      row("Evacuation ordered for the coastal towns tonight!!", { userLocation: "Texas" }), // near-duplicate
      row("Old news from last year about some other storm", { tweetedAt: new Date("2016-01-01T00:00:00Z") }), // date
      row("Shelters across Houston are open for everyone", { userLocation: "Berlin" }), // location
      row("Se ordenó la evacuación de las ciudades costeras", { lang: "es" }), // language
      row("so sad", {}), // word count
      row("Food and water needed at the Beaumont shelter now", { label: "requests_or_urgent_needs" }),
    ];
    const settings = parseIngestSettings({ sampling: { enabled: true, perClass: 1 } });
    const seen: string[] = [];
    const result = await runIngestPipeline(rows, {
      kind: "tweets",
      settings,
      event: { startDate: new Date("2017-08-25"), endDate: new Date("2017-09-01"), locations: [{ name: "Texas", aliases: ["TX"] }] },
      stored: [],
      beforeStep: (s) => {
        seen.push(s);
      },
    });
    expect(seen).toEqual(["date", "location", "language", "classifier", "wordCount", "duplicates", "sampling"]);
    expect(result.steps.map((s) => [s.step, s.in, s.kept])).toEqual([
      ["date", 7, 6],
      ["location", 6, 5],
      ["language", 5, 4],
      ["classifier", 4, 4],
      ["wordCount", 4, 3],
      ["duplicates", 3, 2],
      ["sampling", 2, 2],
    ]);
    expect(result.rows.map((r) => r.text)).toEqual([rows[0].text, rows[6].text]);
    const funnel = buildFunnel({ records: 9, errors: [{ line: 3, column: "tweet_id", reason: "duplicate id 5 (first on line 2)", raw: null }, { line: 8, column: null, reason: "expected 3 fields, found 2", raw: null }], steps: result.steps, stored: 2 });
    expect(funnel.map((s) => s.step)).toEqual(["read", "valid", "labelMap", "date", "location", "language", "classifier", "wordCount", "duplicates", "sampling", "stored"]);
    expect(funnel[1]).toMatchObject({ in: 9, kept: 7, removed: 2, reasons: { "duplicate id (the same id on an earlier line)": 1, "wrong number of fields (the header has 3)": 1 } });
    expect(funnel[9]).toMatchObject({ in: 2, kept: 2, removed: 0 });
    const table = renderFunnelTable(funnel);
    expect(table.split("\n")[0]).toMatch(/^step\s+in\s+kept\s+removed\s+reasons$/);
    expect(table).toContain("near-duplicates");
    expect(table).toMatch(/classifier \(off\)/);
  });

  it("applies only the near-duplicate step to gold", async () => {
    const rows = [row("Gold tweet one about flooding downtown", { label: "a" }), row("gold tweet one about flooding downtown", { label: "a" }), row("x", { label: "b" })];
    const r = await runIngestPipeline(rows, { kind: "gold", settings: parseIngestSettings({}), event: { locations: [] }, stored: [] });
    expect(r.steps.filter((s) => s.enabled).map((s) => s.step)).toEqual(["duplicates"]);
    expect(r.rows.map((x) => x.text)).toEqual([rows[0].text, "x"]);
  });

  it("groups error reasons into kinds, keeping a label outside the scheme by its value", () => {
    expect(errorKind('label "off-topic" is not in the event\'s scheme (humaid)')).toBe('label "off-topic" is not in the event\'s scheme (humaid)');
    expect(errorKind("duplicate id 901646074527535105 (first on line 12)")).toBe("duplicate id (the same id on an earlier line)");
    // The header's count in words, as the error CSV's "expected 5 fields, found 6" says it; no "N" template.
    expect(errorKind("expected 5 fields, found 6")).toBe("wrong number of fields (the header has 5)");
    expect(errorKind("expected 5 fields, found 4")).toBe("wrong number of fields (the header has 5)");
    expect(errorKind("id 12 is already imported (an earlier upload)")).toBe("id already imported for this event");
    expect(errorKind('id "9.01646E+17" is in scientific notation')).toBe('id "…" is in scientific notation');
  });
});
