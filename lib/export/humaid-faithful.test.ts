import { describe, expect, it } from "vitest";
import { type HumaidExport, humaidZipFiles } from "./humaid";
import { csvLine } from "./csv";

const hostile = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1 flood warning", "-5 degrees tonight", "@agency help needed", "ordinary tweet"];

describe("HumAID TSV export", () => {
  const exp: HumaidExport = {
    events: [{ name: "flood", rows: { train: hostile.map((text, i) => ({ id: String(100 + i), text, label: "caution_and_advice" })), dev: [], test: [] }, dropped: {}, removed: { train: 0, dev: 0, test: 0 } }],
    eventTypes: [],
    combined: null,
    seed: "accord",
    threshold: 0.75,
  };
  const files = humaidZipFiles(exp, { generatedAt: new Date("2026-12-01T00:00:00Z") });

  it("keeps tweet text byte-faithful, formula-leading text included", () => {
    const lines = files["events/flood/flood_train.tsv"].trimEnd().split("\n").slice(1);
    expect(lines.map((l) => l.split("\t")[1])).toEqual(hostile);
  });

  it("says in the README that the files are data for code, not for spreadsheets", () => {
    expect(files["README.md"]).toContain("These files are data for code (pandas, the HumAID loaders), not for spreadsheets");
  });

  it("while every CSV cell that could start a formula is neutralised", () => {
    expect(csvLine(hostile)).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")",'+1 flood warning,'-5 degrees tonight,'@agency help needed,ordinary tweet\n`);
  });
});
