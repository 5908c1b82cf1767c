import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { detectFormat } from "./format";
import { openTweetFile, readTweetFile } from "./read-file";
import { syntheticCrisisLexT26, writeCrisisLexT26, writeCrisisLexT6 } from "./testing/synthetic-datasets";
import { tempFiles } from "./testing/test-io";

const files = tempFiles("accord-ingest-");
afterAll(() => files.cleanup());
const file = (name: string, content: string | Uint8Array) => files.write(name, content);

async function read(name: string, content: string | Uint8Array, limits?: { maxFileBytes: number; maxLineBytes: number }) {
  const p = file(name, content);
  return readTweetFile(p, { fileName: name, limits });
}

async function readError(name: string, content: string | Uint8Array, limits?: { maxFileBytes: number; maxLineBytes: number }): Promise<UserError> {
  try {
    await read(name, content, limits);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error("expected the file to be refused");
}

describe("delimited files", () => {
  it("reads HumAID TSV, whose tweets contain stray quotes", async () => {
    const r = await read(
      "harvey_train.tsv",
      'tweet_id\ttweet_text\tclass_label\n901646074527535105\t"Stay safe" they said. Roads are flooded in Houston\tcaution_and_advice\n901646074527535106\tHe said "evacuate now\tdisplaced_people_and_evacuations\n',
    );
    expect(r.format.format).toBe("humaid-tsv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { line: 2, externalId: "901646074527535105", text: '"Stay safe" they said. Roads are flooded in Houston', label: "caution_and_advice" },
      { line: 3, externalId: "901646074527535106", text: 'He said "evacuate now', label: "displaced_people_and_evacuations" },
    ]);
  });

  it("maps a generic CSV's columns by name, with a BOM and CRLF line ends", async () => {
    const csv =
      "\uFEFFId,Full Text,Lang,Created At,User Location,Latitude,Longitude,Label\r\n" +
      '"1001","Bridge closed on I-45, use 59 instead",en,Wed Aug 30 14:00:00 +0000 2017,"Houston, TX",29.76,-95.37,caution_and_advice\r\n' +
      '1002,"A tweet with ""quotes"" and a\nline break",EN-GB,2017-08-31T10:00:00Z,,,,\r\n';
    const r = await read("export.csv", csv);
    expect(r.format).toMatchObject({ kind: "delimited", format: "csv", delimiter: "," });
    expect(r.errors).toEqual([]);
    expect(r.rows[0]).toEqual({
      line: 2,
      externalId: "1001",
      text: "Bridge closed on I-45, use 59 instead",
      lang: "en",
      tweetedAt: new Date("2017-08-30T14:00:00Z"),
      userLocation: "Houston, TX",
      latitude: 29.76,
      longitude: -95.37,
      label: "caution_and_advice",
    });
    expect(r.rows[1]).toEqual({
      line: 3,
      externalId: "1002",
      text: 'A tweet with "quotes" and a\nline break',
      lang: "en-gb",
      tweetedAt: new Date("2017-08-31T10:00:00Z"),
    });
  });

  it("reports bad rows with their line and column and keeps the rest", async () => {
    const tsv = [
      "tweet_id\ttweet_text\tclass_label",
      "1\tfirst good tweet here\tsympathy_and_support",
      "2\t\tsympathy_and_support", // empty text
      "\tno id here\tsympathy_and_support", // missing id
      "4\ttoo\tmany\tfields", // wrong number of fields
      "9.01646E+17\tan id mangled by a spreadsheet\tnot_humanitarian",
      "6\tlast good tweet\tnot_humanitarian",
    ].join("\n");
    const r = await read("bad.tsv", tsv);
    expect(r.rows.map((x) => x.externalId)).toEqual(["1", "6"]);
    expect(r.errors.map((e) => [e.line, e.column, e.reason])).toEqual([
      [3, "tweet_text", "empty text"],
      [4, "tweet_id", "missing id"],
      [5, null, "expected 3 fields, found 4"],
      [6, "tweet_id", 'id "9.01646E+17" is in scientific notation (digits were lost, e.g. by a spreadsheet); export ids as text'],
    ]);
    expect(r.errors[2].raw).toBe("4\ttoo\tmany\tfields");
    expect(r.records).toBe(6);
  });

  it("turns a row in neither UTF-8 nor Windows-1252 into an error naming its bytes, and imports the rest", async () => {
    const head = Buffer.from("tweet_id\ttweet_text\tclass_label\n1\tfine tweet one\tnot_humanitarian\n2\tbroken ");
    const bad = Buffer.from([0xe9, 0x81, 0x41]); // 0x81 is undefined in Windows-1252
    const tail = Buffer.from(" byte\tnot_humanitarian\n3\tfine tweet three\tnot_humanitarian\n");
    const r = await read("broken.tsv", Buffer.concat([head, bad, tail]));
    expect(r.rows.map((x) => x.externalId)).toEqual(["1", "3"]);
    expect(r.errors).toEqual([expect.objectContaining({ line: 3, reason: "neither UTF-8 nor Windows-1252 (byte 0x81 at byte 11 of the line)" })]);
    expect(r.windows1252Rows).toBe(0);
  });

  it("reads headerless id/text/label files", async () => {
    const r = await read("raw.tsv", "901646074527535105\tRoads flooded downtown\tcaution_and_advice\n901646074527535106\tShelters open tonight\tdisplaced_people_and_evacuations\n");
    expect(r.format).toMatchObject({ format: "tsv", headerless: true });
    expect(r.rows.map((x) => [x.line, x.externalId, x.label])).toEqual([
      [1, "901646074527535105", "caution_and_advice"],
      [2, "901646074527535106", "displaced_people_and_evacuations"],
    ]);
  });

  it("refuses a file without an id or text column, naming what it found", async () => {
    const e = await readError("x.csv", "name,comment\nann,hello there\n");
    expect(e.message).toContain("No tweet id column");
    expect(e.message).toContain('"name", "comment"');
  });

  it("reads CrisisLexT26 event files (quoted ids; Information Type as the label)", async () => {
    const f = writeCrisisLexT26(files.dir);
    const r = await readTweetFile(f, { fileName: path.basename(f) });
    expect(r.format.format).toBe("crisislex-csv");
    expect(r.errors).toEqual([]);
    expect(r.rows.length).toBe(1200);
    expect(r.rows[0].externalId).toMatch(/^\d{18,19}$/);
    expect(r.rows.map((x) => [x.externalId, x.text])).toEqual(syntheticCrisisLexT26().map((t) => [t.id, t.text]));
    expect(new Set(r.rows.map((x) => x.label))).toContain("Caution and advice");
  });

  it("reads 60,082 tweets in CrisisLexT6 files (ids in single quotes, one file with CRLF)", async () => {
    let rows = 0;
    const written = writeCrisisLexT6(files.dir);
    expect(fs.readFileSync(written[3].file, "utf8")).toContain("\r\n");
    for (const { file: f, tweets } of written) {
      const r = await readTweetFile(f, { fileName: path.basename(f) });
      expect(r.errors).toEqual([]);
      expect(r.rows.map((x) => [x.externalId, x.text])).toEqual(tweets.map((t) => [t.id, t.text]));
      expect(r.rows.every((x) => /^\d+$/.test(x.externalId) && !x.text.endsWith("\r"))).toBe(true);
      expect(new Set(r.rows.map((x) => x.label))).toEqual(new Set(["on-topic", "off-topic"]));
      rows += r.rows.length;
    }
    expect(rows).toBe(60_082);
  });
});

describe("Twitter API JSON", () => {
  const v1 = {
    created_at: "Sat Aug 26 03:15:00 +0000 2017",
    id: 901306500843761700,
    id_str: "901306500843761665",
    text: "truncated text…",
    truncated: true,
    extended_tweet: { full_text: "Full text of an extended tweet about the storm surge in Rockport" },
    lang: "en",
    user: { id: 1, location: "Corpus Christi, Texas" },
    coordinates: { type: "Point", coordinates: [-97.05, 28.02] },
    place: { full_name: "Rockport, TX", country: "United States", bounding_box: { type: "Polygon", coordinates: [[[-97.1, 28.0], [-97.1, 28.1], [-97.0, 28.1], [-97.0, 28.0]]] } },
  };

  it("reads v1.1 JSONL: extended text, coordinates, place box, user location, exact big ids", async () => {
    // eslint-disable-next-line no-loss-of-precision -- a v1.1 id as JSON numbers carry it: rounded, so the reader must use id_str
    const other = { id: 901306500843761666, text: "A v1 tweet with only a numeric id", lang: "es", user: { location: "" } };
    const jsonl = `${JSON.stringify(v1)}\n\n${JSON.stringify(other).replace('"id":901306500843761700', '"id":901306500843761666')}\nnot json\n`;
    const r = await read("tweets.jsonl", jsonl);
    expect(r.format).toMatchObject({ kind: "json", format: "jsonl-v1", layout: "lines" });
    expect(r.rows[0]).toEqual({
      line: 1,
      externalId: "901306500843761665",
      text: "Full text of an extended tweet about the storm surge in Rockport",
      lang: "en",
      tweetedAt: new Date("2017-08-26T03:15:00Z"),
      userLocation: "Corpus Christi, Texas",
      placeName: "Rockport, TX",
      placeCountry: "United States",
      placeBbox: [-97.1, 28.0, -97.0, 28.1],
      latitude: 28.02,
      longitude: -97.05,
    });
    expect(r.rows[1]).toMatchObject({ line: 3, externalId: "901306500843761666", lang: "es" });
    expect(r.errors).toEqual([expect.objectContaining({ line: 4, reason: expect.stringContaining("not valid JSON") })]);
  });

  it("reads a pretty-printed JSON array of v1.1 tweets, reporting broken elements", async () => {
    const arr = `[\n  ${JSON.stringify(v1, null, 2).replace(/\n/g, "\n  ")},\n  {"id_str": "42", "text": ""},\n  {"id_str": "43", "full_text": "Second tweet, ] with brackets [ and \\"quotes\\" inside"}\n]\n`;
    const r = await read("tweets.json", arr);
    const v1Lines = JSON.stringify(v1, null, 2).split("\n").length;
    expect(r.format).toMatchObject({ format: "json-v1", layout: "document" });
    expect(r.rows.map((x) => [x.line, x.externalId, x.text])).toEqual([
      [2, "901306500843761665", "Full text of an extended tweet about the storm surge in Rockport"],
      [3 + v1Lines, "43", 'Second tweet, ] with brackets [ and "quotes" inside'],
    ]);
    expect(r.errors).toEqual([expect.objectContaining({ line: 2 + v1Lines, column: "text", reason: "empty text" })]);
  });

  it("reads a v2 response page, resolving authors and places through includes", async () => {
    const page = {
      data: [
        { id: "1565000000000000001", text: "Water rising on Main St", author_id: "u1", lang: "en", created_at: "2022-08-31T12:00:00.000Z", geo: { place_id: "p1" }, edit_history_tweet_ids: ["1"] },
        { id: "1565000000000000002", text: "Point tweet", author_id: "u2", geo: { coordinates: { type: "Point", coordinates: [73.05, 33.68] } } },
      ],
      includes: {
        users: [{ id: "u1", location: "Karachi" }, { id: "u2" }],
        places: [{ id: "p1", full_name: "Sukkur, Pakistan", country: "Pakistan", geo: { bbox: [68.7, 27.6, 68.9, 27.8] } }],
      },
      meta: { result_count: 2 },
    };
    const r = await read("page.json", JSON.stringify(page, null, 2));
    expect(r.format).toMatchObject({ format: "json-v2", layout: "document" });
    expect(r.rows).toEqual([
      {
        line: 1,
        externalId: "1565000000000000001",
        text: "Water rising on Main St",
        lang: "en",
        tweetedAt: new Date("2022-08-31T12:00:00Z"),
        userLocation: "Karachi",
        placeName: "Sukkur, Pakistan",
        placeCountry: "Pakistan",
        placeBbox: [68.7, 27.6, 68.9, 27.8],
      },
      { line: 1, externalId: "1565000000000000002", text: "Point tweet", latitude: 33.68, longitude: 73.05 },
    ]);
  });

  it("reads v2 JSONL of flattened tweets", async () => {
    const t = { id: "1565000000000000003", text: "Flattened tweet text here", author_id: "9", author: { location: "Lahore" }, lang: "en" };
    const r = await read("flat.jsonl", JSON.stringify(t) + "\n");
    expect(r.format.format).toBe("jsonl-v2");
    expect(r.rows[0]).toMatchObject({ externalId: "1565000000000000003", userLocation: "Lahore" });
  });

  it("detects the format from the content, not only the extension", () => {
    expect(detectFormat({ fileName: "tweets.csv", head: '{"id_str":"1","text":"x"}\n' })).toMatchObject({ format: "jsonl-v1", note: expect.stringContaining(".csv") });
    expect(detectFormat({ fileName: "tweets.json", head: "tweet_id\ttweet_text\tclass_label\n1\tx\ty\n" })).toMatchObject({ format: "humaid-tsv" });
    expect(detectFormat({ fileName: "export.txt", head: "id;text\n1;hello\n" })).toMatchObject({ format: "csv", delimiter: ";" });
  });
});

describe("encodings", () => {
  const csv = "tweet_id,tweet_text,class_label\n1,Café ouvert “ce soir” – €5 ½ price,not_humanitarian\n2,Plain ascii row here,not_humanitarian\n";
  const texts = (r: { rows: Array<{ text: string }> }) => r.rows.map((x) => x.text);

  it("reads UTF-8 with and without a byte-order mark, and says nothing about the encoding", async () => {
    for (const bytes of [Buffer.from(csv, "utf8"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, "utf8")])]) {
      const r = await read("utf8.csv", bytes);
      expect(r.errors).toEqual([]);
      expect(texts(r)).toEqual(["Café ouvert “ce soir” – €5 ½ price", "Plain ascii row here"]);
      expect(r.windows1252Rows).toBe(0);
    }
  });

  it("reads UTF-16 LE and BE by their byte-order mark", async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, "utf16le")]);
    const be = Buffer.from(le);
    be.swap16(); // FE FF and big-endian code units
    for (const bytes of [le, be]) {
      const r = await read("utf16.csv", bytes);
      expect(r.format.format).toBe("csv");
      expect(r.errors).toEqual([]);
      expect(texts(r)).toEqual(["Café ouvert “ce soir” – €5 ½ price", "Plain ascii row here"]);
    }
    // A chunk boundary inside a character (streamed in 256 KiB pieces): still whole characters.
    const many = ["tweet_id,tweet_text"];
    for (let i = 0; i < 30_000; i++) many.push(`${1000 + i},Überschwemmung in Köln Nummer ${i}`);
    const big = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(many.join("\n") + "\n", "utf16le")]);
    const r = await read("big16.csv", big);
    expect(r.rows).toHaveLength(30_000);
    expect(r.rows[29_999].text).toBe("Überschwemmung in Köln Nummer 29999");
  });

  it("falls back to Windows-1252 for Latin-1 rows, counting them", async () => {
    // Latin-1 (ISO-8859-1) bytes: é = 0xE9, ü = 0xFC, ½ = 0xBD.
    const latin1 = Buffer.from("tweet_id,tweet_text\n1,Café fermé\n2,Brücke ½ offen\n3,plain\n", "latin1");
    const r = await read("latin1.csv", latin1);
    expect(r.errors).toEqual([]);
    expect(texts(r)).toEqual(["Café fermé", "Brücke ½ offen", "plain"]);
    expect(r.windows1252Rows).toBe(2);
  });

  it("falls back to Windows-1252 for its own characters (curly quotes, euro, dash)", async () => {
    const cp1252 = Buffer.concat([
      Buffer.from("tweet_id,tweet_text\n1,"),
      Buffer.from([0x93, 0x53, 0x74, 0x61, 0x79, 0x94, 0x20, 0x96, 0x20, 0x80, 0x35]), // “Stay” – €5
      Buffer.from("\n2,ascii only\n"),
    ]);
    const r = await read("cp1252.csv", cp1252);
    expect(texts(r)).toEqual(["“Stay” – €5", "ascii only"]);
    expect(r.windows1252Rows).toBe(1);
  });
});

describe("limits and encodings", () => {
  it("refuses files above the size limit, and lines above the line limit", async () => {
    const body = "tweet_id\ttweet_text\n" + "1\t" + "x".repeat(500) + "\n";
    expect((await readError("big.tsv", body, { maxFileBytes: 100, maxLineBytes: 10_000 })).message).toMatch(/above the 100 bytes limit/);
    const e = await readError("long.tsv", body, { maxFileBytes: 10_000, maxLineBytes: 300 });
    expect(e.message).toMatch(/Line 2 of "long.tsv" is longer than the 300 bytes line limit/);
    // Also when the long line is the last one and has no newline.
    expect((await readError("long2.tsv", body.trimEnd(), { maxFileBytes: 10_000, maxLineBytes: 300 })).message).toMatch(/Line 2/);
  });

  it("refuses spreadsheets and binary files with a clear message", async () => {
    expect((await readError("book.xlsx", Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).message).toMatch(/ZIP container/);
    expect((await readError("bin.csv", Buffer.from([0x61, 0x00, 0x62, 0x0a]))).message).toMatch(/binary/);
    expect((await readError("empty.csv", "")).message).toMatch(/empty/);
    expect((await readError("header.tsv", "tweet_id\ttweet_text\n")).message).toMatch(/no rows/);
  });

  it("streams in batches with the bytes read", async () => {
    const lines = ["tweet_id\ttweet_text\tclass_label"];
    for (let i = 0; i < 20_000; i++) lines.push(`${1000 + i}\tTweet number ${i} about the flood\tnot_humanitarian`);
    const p = file("many.tsv", lines.join("\n") + "\n");
    const reader = await openTweetFile(p, { fileName: "many.tsv" });
    let rows = 0;
    let batches = 0;
    let last = 0;
    for await (const b of reader.batches()) {
      batches++;
      rows += b.rows.length;
      expect(b.bytesRead).toBeGreaterThanOrEqual(last);
      last = b.bytesRead;
    }
    expect(rows).toBe(20_000);
    expect(batches).toBeGreaterThan(1);
    expect(last).toBe(reader.fileSize);
  });
});

describe("hostile ids and bytes (issue 24)", () => {
  it("refuses ids that are no tweet id or name, each with a reason naming the value", async () => {
    const tsv =
      "tweet_id\ttweet_text\tclass_label\n" +
      "-5\tnegative id\tcaution_and_advice\n" +
      "00000123\tpadded id\tcaution_and_advice\n" +
      '=HYPERLINK("http://evil.example","x")\tformula id\tcaution_and_advice\n' +
      "+123\tplus sign\tcaution_and_advice\n" +
      "@x1\tat sign\tcaution_and_advice\n" +
      "123456789012345678901\ttoo many digits\tcaution_and_advice\n" +
      "901646074527535105\ta good tweet id\tcaution_and_advice\n" +
      "doc-17.a\ta good name\tcaution_and_advice\n";
    const r = await read("ids.tsv", tsv);
    expect(r.rows.map((row) => row.externalId)).toEqual(["901646074527535105", "doc-17.a"]);
    expect(r.errors.map((e) => [e.line, e.column, e.reason.split(":")[0]])).toEqual([
      [2, "tweet_id", 'id "-5" is not a valid id'],
      [3, "tweet_id", 'id "00000123" is not a valid id'],
      [4, "tweet_id", 'id "=HYPERLINK(\\"http'],
      [5, "tweet_id", 'id "+123" is not a valid id'],
      [6, "tweet_id", 'id "@x1" is not a valid id'],
      [7, "tweet_id", 'id "123456789012345678901" is not a valid id'],
    ]);
    expect(r.errors[2].reason).toContain('id "=HYPERLINK(\\"http://evil.example\\",\\"x\\")" is not a valid id: use the tweet\'s number');
  });

  it("refuses a NUL byte anywhere in a row, also after the first 8 KB, and stores the report without it", async () => {
    const filler = Array.from({ length: 200 }, (_, i) => `${1000 + i}\tfiller tweet number ${i} about the flood\tcaution_and_advice\n`).join("");
    expect(filler.length).toBeGreaterThan(8192);
    const tsv = `tweet_id\ttweet_text\tclass_label\n${filler}5000\tnul in \u0000 the text\tcaution_and_advice\n5001\tfine\tcaution_and_advice\n`;
    const csv = `id,text,label,extra\n1,ok,caution_and_advice,x\n${filler.replaceAll("\t", ",")}2,"also ok",caution_and_advice,"nul\u0000 in a column not imported"\n`;
    for (const [name, content, line] of [["late-nul.tsv", tsv, 202], ["late-nul.csv", csv, 203]] as const) {
      const r = await read(name, content);
      const err = r.errors.find((e) => /NUL/.test(e.reason));
      expect(err, name).toMatchObject({ line, reason: "contains a NUL byte (U+0000); the row is not text" });
      expect(err?.raw).not.toContain("\u0000");
      expect(r.rows.some((row) => Object.values(row).some((v) => typeof v === "string" && v.includes("\u0000")))).toBe(false);
    }
  });

  it("JSONL accepts the CSV column names (tweet_id, tweet_text, class_label…)", async () => {
    const jsonl =
      '{"tweet_id": "901646074527535105", "tweet_text": "Roads flooded near the bridge", "class_label": "caution_and_advice"}\n' +
      '{"tweet_id": 901646074527535106, "tweet_text": "Shelter open at the school", "lang": "en"}\n' +
      '{"Tweet ID": "901646074527535107", "Text": "Power is out downtown"}\n' +
      '{"tweet_id": "-5", "tweet_text": "bad id"}\n';
    const r = await read("flat.jsonl", jsonl);
    expect(r.rows).toEqual([
      { line: 1, externalId: "901646074527535105", text: "Roads flooded near the bridge", label: "caution_and_advice" },
      { line: 2, externalId: "901646074527535106", text: "Shelter open at the school", lang: "en" },
      { line: 3, externalId: "901646074527535107", text: "Power is out downtown" },
    ]);
    expect(r.errors).toEqual([expect.objectContaining({ line: 4, column: "tweet_id", reason: expect.stringMatching(/^id "-5" is not a valid id/) })]);
  });
});
