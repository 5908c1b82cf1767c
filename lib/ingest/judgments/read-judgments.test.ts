import { describe, expect, it } from "vitest";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { detectMapping } from "./mapping";
import { parse } from "csv-parse/sync";
import { headRecords, personalColumnsNote, previewJudgments } from "./preview";
import { CsvError, readCsvRecords, readJudgments, RepeatJudgmentsError } from "./read-judgments";
import { CF_LABEL_MAP, crowdflowerReport, mturkBatch, plainJudgments } from "./testing/fixtures";

const scheme = HUMAID_LABELS.map((l) => l.value);
const noMap = { scheme, map: {} };

describe("judgment files", () => {
  it("previews a CrowdFlower report: format, label column with its gold twin, personal columns left out", () => {
    const p = previewJudgments(crowdflowerReport(), noMap);
    expect(p.format).toBe("crowdflower");
    expect(p.mapping?.slots).toEqual([{ item: "_unit_id", text: "tweet", label: "choose_one", goldLabel: "choose_one_gold" }]);
    expect(p.personalColumns).toEqual(["_country", "_region", "_city", "_ip"]);
    expect(Object.keys(p.sample[0])).not.toContain("_ip");
    expect(p.unmappedLabels.sort()).toEqual(["Infrastructure damage", "Not related", "Rescue / volunteering"]);
    expect(personalColumnsNote(p.personalColumns)).toBe("Personal columns are never stored: _country, _region, _city, _ip are left out of the import.");
    expect(p.rows).toBe(37);
  });

  it("reads a CrowdFlower report with BOM, CRLF and multi-line text; gold units; repeats by policy", () => {
    const text = crowdflowerReport();
    const mapping = detectMapping(readCsvRecords(text).header)!;
    const labels = { scheme, map: CF_LABEL_MAP };
    expect(() => readJudgments(text, mapping, labels)).toThrow(RepeatJudgmentsError);
    expect(() => readJudgments(text, mapping, labels)).toThrow(/1 repeat judgment .*item "5002" by annotator "cfw2" on lines \d+, \d+; choose --repeats first/);
    const first = readJudgments(text, { ...mapping, repeats: "first" }, labels);
    expect(first.errors).toEqual([]);
    expect(first.repeatsSetAside).toBe(1);
    expect(first.judgments).toHaveLength(36);
    const repeat = first.judgments.filter((j) => j.item === "5002" && j.annotator === "cfw2");
    expect(repeat).toHaveLength(1);
    expect(repeat[0].label).toBe("not_humanitarian");
    const last = readJudgments(text, { ...mapping, repeats: "last" }, labels);
    expect(last.judgments.find((j) => j.item === "5002" && j.annotator === "cfw2")?.label).toBe("infrastructure_and_utility_damage");
    expect(first.judgments[0]).toMatchObject({ item: "5000", gold: true, goldLabels: ["infrastructure_and_utility_damage", "not_humanitarian"], text: 'Sandy unit 0: "flooding" on\nline two, stay safe' });
    expect(first.judgments.filter((j) => j.gold)).toHaveLength(6);
    expect(first.assignmentsPerWorkerDay).toBe(true);
    expect(first.judgments[0].assignmentKey).toBe("cfw0|2012-10-30");
    // nothing personal survives into what is stored
    expect(JSON.stringify(first.judgments)).not.toMatch(/192\.0\.2|Brooklyn/);
  });

  it("names a malformed row's value and line", () => {
    const text = crowdflowerReport({ repeats: 0, malformed: true });
    const r = readJudgments(text, detectMapping(readCsvRecords(text).header)!, { scheme, map: CF_LABEL_MAP });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ column: "_created_at", reason: expect.stringContaining('time "yesterday at noon"') });
    expect(r.errors[0].line).toBeGreaterThan(37);
  });

  it("labels outside the scheme without a map are counted, not stored", () => {
    const text = crowdflowerReport({ repeats: 0 });
    const r = readJudgments(text, detectMapping(readCsvRecords(text).header)!, noMap);
    expect(r.judgments).toEqual([]);
    expect(r.unmapped["Not related"]).toBeGreaterThan(0);
  });

  it("reads MTurk batch results with three answer columns per HIT", () => {
    const text = mturkBatch();
    const mapping = detectMapping(readCsvRecords(text).header)!;
    expect(mapping.format).toBe("mturk");
    expect(mapping.slots).toEqual([1, 2, 3].map((k) => ({ label: `Answer.label_${k}`, item: `Input.tweet_id_${k}`, text: `Input.tweet_text_${k}` })));
    const r = readJudgments(text, mapping, { scheme, map: { Other: "other_relevant_information" } });
    expect(r.errors).toEqual([]);
    expect(r.judgments).toHaveLength(36);
    expect(r.judgments[0]).toMatchObject({ item: "9101", hitKey: "3HIT0", assignmentKey: "3ASG0_0", at: Date.UTC(2012, 9, 28, 17, 10, 13), text: 'HIT 0 tweet 1\r\nprayers "for" all' });
    expect(r.judgments.filter((j) => j.rejected)).toHaveLength(3);
    expect(r.assignmentsPerWorkerDay).toBe(false);
  });

  it("reads a plain item,annotator,label,submitted_at,text file", () => {
    const text = plainJudgments();
    const mapping = detectMapping(readCsvRecords(text).header)!;
    expect(mapping).toMatchObject({ format: "plain", annotator: "annotator", time: "submitted_at" });
    const r = readJudgments(text, { ...mapping, repeats: "last" }, noMap);
    expect(r.judgments).toHaveLength(12);
    expect(r.judgments.find((j) => j.item === "770" && j.annotator === "p0")?.label).toBe("not_humanitarian");
  });

  it("refuses a mapping that reads a personal column or a missing one", () => {
    const text = crowdflowerReport({ repeats: 0 });
    const mapping = detectMapping(readCsvRecords(text).header)!;
    expect(readJudgments(text, { ...mapping, slots: [{ ...mapping.slots[0], text: "_city" }] }, noMap).errors[0].reason).toMatch(/"_city" holds personal data/);
    expect(readJudgments(text, { ...mapping, annotator: "worker" }, noMap).errors[0].reason).toMatch(/no column "worker"/);
  });
});

describe("judgment CSV records (the shared scanner)", () => {
  /** What the reader did before it moved to the shared scanner: csv-parse over the whole text, untrimmed. */
  function csvParseReference(text: string) {
    const rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    let prevEnd = rows[0].info.lines;
    const records = rows.slice(1).map((r) => {
      const line = prevEnd + 1;
      prevEnd = r.info.lines;
      return { line, fields: r.record };
    });
    return { header: rows[0].record.map((h) => h.trim()), records };
  }

  it.each([
    ["CrowdFlower (BOM, CRLF, quoted multi-line)", crowdflowerReport()],
    ["MTurk (CRLF inside quotes)", mturkBatch()],
    ["plain (LF)", plainJudgments()],
    ["blank lines, padded fields, a short row", ' item , annotator,label\n\n771,  p1 ,"a ""b"""\n\n772,p2\n'],
    ["odd quoting csv-parse reads", 'item,annotator,label\n771,p1,"x"\n'],
  ])("reads %s exactly as csv-parse did", (_name, text) => {
    expect(readCsvRecords(text)).toEqual(csvParseReference(text));
  });

  it("invalid CSV throws csv-parse's own error, as before", () => {
    const text = 'item,annotator,label\n771,p1,"a"\r\n772,p2,b\n';
    const error = (read: () => unknown) => {
      try {
        read();
      } catch (err) {
        return err;
      }
      return null;
    };
    const before = error(() => csvParseReference(text));
    expect(before).toBeInstanceOf(CsvError);
    expect(error(() => readCsvRecords(text))).toEqual(before);
  });

  it("a file's start: whole records only, and the count said to be of the first rows", () => {
    const text = crowdflowerReport();
    const whole = previewJudgments(text, noMap);
    const cut = Buffer.from(text).subarray(0, Math.floor(Buffer.byteLength(text) / 2));
    const head = previewJudgments(cut, noMap, { complete: false });
    expect(head.complete).toBe(false);
    expect(head.rows).toBeGreaterThan(5);
    expect(head.rows).toBeLessThan(whole.rows);
    expect(head.rowsNote).toBe(`the first ${head.rows} rows (of the file's first 256 KB; the import reads them all)`);
    expect(head.sample).toEqual(whole.sample);
    expect(head.header).toEqual(whole.header);
    expect(head.mapping).toEqual(whole.mapping);
    // the cut lands inside a record: it is left out, never read half
    expect(headRecords(cut, false).slice(1)).toEqual(readCsvRecords(text).records.slice(0, head.rows).map((r) => r.fields));
    expect(whole.rowsNote).toBe("37 rows");
    // invalid CSV in the part read is still reported
    expect(() => previewJudgments('a,b\n1,"2\n', noMap)).toThrow(CsvError);
  });
});
