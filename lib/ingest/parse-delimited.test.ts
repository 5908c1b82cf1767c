import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { DelimitedFormat } from "./format";
import { DEFAULT_LIMITS } from "./limits";
import { parseDelimited } from "./parse-delimited";
import type { LineBatch } from "./text-lines";

const FORMAT: DelimitedFormat = { kind: "delimited", format: "csv", delimiter: ",", quote: true, headerless: false, header: ["id", "text"] };

async function* batches(text: string, perBatch: number): AsyncGenerator<LineBatch> {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i += perBatch) {
    yield { lines: lines.slice(i, i + perBatch).map((t, k) => ({ line: i + k + 1, text: t })), bytesRead: 0 };
  }
}

async function read(text: string, perBatch: number) {
  const rows: Array<[number, string, string]> = [];
  const errors: Array<[number, string]> = [];
  for await (const b of parseDelimited(batches(text, perBatch), FORMAT, DEFAULT_LIMITS)) {
    for (const r of b.rows) rows.push([r.line, r.externalId, r.text]);
    for (const e of b.errors) errors.push([e.line, e.reason]);
  }
  return { rows, errors };
}

/** csv-parse on the whole text with the import's options: the records parseDelimited must give. */
function reference(text: string) {
  const records = parse(text, { relax_quotes: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true, info: true }) as unknown as Array<{
    record: string[];
    info: { lines: number };
  }>;
  return records.slice(1).map(({ record, info }) => {
    const newlines = record.join("").split("\n").length - 1;
    return [info.lines - newlines, record[0], record[1]] as [number, string, string];
  });
}

describe("parseDelimited", () => {
  it("reads quoted CSV as csv-parse does, across batches, and hands odd quoting to csv-parse with the right lines", async () => {
    const plain = 'id,text\n1,"a, ""b"""\n2,"multi\nline"\n\n3,stray"quote\n4,plain\n';
    const odd = plain + '5,"closed"then more\n6,"x"\n7,after\n';
    for (const text of [plain, odd]) {
      for (const perBatch of [1, 2, 3, 100]) {
        const { rows } = await read(text, perBatch);
        expect(rows, `${JSON.stringify(text)} in batches of ${perBatch}`).toEqual(reference(text));
      }
    }
    expect((await read(odd, 2)).rows.map((r) => r[1])).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
  });

  it("reports an unclosed quote at the end as csv-parse does, on its line", async () => {
    const { rows, errors } = await read('id,text\n1,ok\n2,"never closed\n3,x\n', 2);
    expect(rows).toEqual([[2, "1", "ok"]]);
    expect(errors).toHaveLength(1);
    expect(errors[0][1]).toMatch(/never closed/);
  });
});
