import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { createRng, randomInt } from "@/lib/util/random";
import { type CsvTable, parseCsvTable } from "./csv-records";

/** What the agreement command read before the fast path: csv-parse with these options. */
const reference = (text: string) =>
  lines(
    parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as Array<{
      record: string[];
      info: { lines: number };
    }>,
  );
const lines = (records: Array<{ record: string[]; info: { lines: number } }>) => records.map((r) => ({ record: r.record, line: r.info.lines }));
const table = (t: CsvTable) => Array.from({ length: t.count }, (_, r) => ({ record: t.record(r), line: t.lines[r] }));

describe("parseCsvTable", () => {
  it("gives csv-parse's records and line numbers on texts made of awkward pieces", () => {
    const pieces = ["a", "b c", " ", "  ", "\t", ",", ",", ",", "\n", "\n", "\n", "x y ", "\u00a0", "é", "\uFEFF", "1"];
    const rng = createRng(7);
    for (let t = 0; t < 3_000; t++) {
      let text = t % 5 === 0 ? "\uFEFF" : "";
      const n = randomInt(rng, 30);
      for (let k = 0; k < n; k++) text += pieces[randomInt(rng, pieces.length)];
      expect(table(parseCsvTable(text)), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it("hands quoted, CRLF and form-feed texts to csv-parse, errors included", () => {
    for (const text of ['a,"b, c"\n1,2\n', "a,b\r\n1,2\r\n", "a,\fb\n"]) expect(table(parseCsvTable(text))).toEqual(reference(text));
    expect(() => parseCsvTable('a,"b\n')).toThrow(/Quote Not Closed/);
  });
});
