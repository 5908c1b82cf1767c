import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { createRng, randomInt } from "@/lib/util/random";
import { readCodedColumns } from "./csv-coded-columns";

/** The picked columns as csv-parse reads them with the agreement command's options ("" for empty or missing). */
function reference(text: string, columns: number[]) {
  const records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as Array<{
    record: string[];
    info: { lines: number };
  }>;
  return records.slice(1).map(({ record, info }) => ({ values: columns.map((c) => record[c] ?? ""), line: info.lines }));
}

function decoded(text: string, columns: number[]) {
  const t = readCodedColumns(text, () => columns);
  return Array.from({ length: t.count }, (_, r) => ({
    values: t.codes.map((codes, k) => (codes[r] < 0 ? "" : t.values[k][codes[r]])),
    line: t.lines[r],
  }));
}

describe("readCodedColumns", () => {
  it("reads the picked columns as csv-parse does, on texts made of awkward pieces", () => {
    const pieces = ["a", "b c", " ", "  ", "\t", ",", ",", ",", "\n", "\n", "\n", "x y ", "\u00a0", "é", "\uFEFF", "1", "a"];
    const rng = createRng(11);
    for (let t = 0; t < 3_000; t++) {
      let text = t % 5 === 0 ? "\uFEFF" : "";
      const n = randomInt(rng, 30);
      for (let k = 0; k < n; k++) text += pieces[randomInt(rng, pieces.length)];
      const first = randomInt(rng, 4);
      const columns = [first, (first + 1 + randomInt(rng, 3)) % 4];
      expect(decoded(text, columns), JSON.stringify(text)).toEqual(reference(text, columns));
    }
  });

  it("codes each column's distinct values in first-seen order and reads quoted texts", () => {
    for (const text of ["h1,h2\nb,x\na,x\nb,y\n", 'h1,h2\n"b",x\n"a, c",x\nb,y\n']) {
      const t = readCodedColumns(text, (header) => {
        expect(header).toEqual(["h1", "h2"]);
        return [0, 1];
      });
      expect(t.values[0]).toEqual(["b", text.includes('"') ? "a, c" : "a"]);
      expect([...t.codes[0]]).toEqual([0, 1, 0]);
      expect([...t.codes[1]]).toEqual([0, 0, 1]);
      expect([...t.lines]).toEqual([2, 3, 4]);
    }
    for (const text of ["h1,h2\r\nb,x\r\n", "h1,\fh2\nb,x\n"]) expect(decoded(text, [0, 1])).toEqual(reference(text, [0, 1]));
    expect(() => readCodedColumns('a,"b\n', () => [0])).toThrow(/Quote Not Closed/);
    expect(() => readCodedColumns('h\na"b\n', () => [0])).toThrow(/Invalid Opening Quote/);
  });

  it("reads file bytes with quoted, CRLF and non-ASCII fields as csv-parse reads the text", () => {
    const text = '\uFEFFitem,annotator,label,text\r\n1,a,x,"hi, ""there""\r\nbye"\r\n2,b, é ,plain\r\n1,b,x ,\r\n2,a,"é",""\r\n';
    const t = readCodedColumns(Buffer.from(text, "utf8"), () => [0, 2, 3]);
    expect(t.values).toEqual([["1", "2"], ["x", "é"], ['hi, "there"\r\nbye', "plain"]]);
    expect(decoded(text, [0, 2, 3])).toEqual(reference(text, [0, 2, 3]));
    expect(decoded(text, [1, 5])).toEqual(reference(text, [1, 5]));
  });
});
