import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, testFlavors, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { agreedLabelsCsv } from "./agreed-labels";
import { collectText, csvRows } from "./csv";
import { csvBundleZip } from "./csv-bundle";

describe("raw CSV text", () => {
  it("keeps strings as they are only in the columns asked for", () => {
    expect(parse(csvRows([["@user =SUM(A1)", "-5 dead"]]))).toEqual([["'@user =SUM(A1)", "'-5 dead"]]);
    expect(parse(csvRows([["@user =SUM(A1)", "-5 dead"]], { rawColumns: [0] }))).toEqual([["@user =SUM(A1)", "'-5 dead"]]);
  });
});

describe.each(testFlavors())("the agreed-labels CSV as data (%s)", (flavor) => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  it("writes the tweet text as stored with raw, and its manifest says which text each file holds", async () => {
    t = await createTestDb(flavor);
    const schemeId = await ensureHumaidScheme(t.db);
    const eventId = (await t.db.event.create({ data: { slug: "raw_x", name: "raw", type: "flood", schemeId, settings: {}, filters: {}, locations: [] } })).id;
    const text = "@FEMA roads closed near the river";
    const tweet = await t.db.tweet.create({ data: { eventId, externalId: "=HYPERLINK(901)", text } });
    await t.db.acceptedLabel.create({ data: { tweetId: tweet.id, eventId, label: "caution_and_advice", topVotes: 3, totalVotes: 3, votes: { caution_and_advice: 3 } } });

    const row = async (raw: boolean) => (parse(await collectText(agreedLabelsCsv(t.db, { eventId, raw }))) as string[][])[1];
    expect((await row(false)).slice(0, 2)).toEqual(["'=HYPERLINK(901)", `'${text}`]);
    // raw: the tweet text only; the id (any other text cell) stays protected
    expect((await row(true)).slice(0, 2)).toEqual(["'=HYPERLINK(901)", text]);

    const manifestOf = async (raw: boolean) => {
      const zip = unzipSync(await csvBundleZip(t.db, { csvName: "l.csv", chunks: agreedLabelsCsv(t.db, { eventId, raw }), eventIds: [eventId], csvText: raw ? "raw" : "formula-protected" }));
      return JSON.parse(strFromU8(zip["manifest.json"])) as { csvText: { mode: string; note: string } };
    };
    expect((await manifestOf(true)).csvText).toMatchObject({ mode: "raw", note: expect.stringContaining("exactly as stored") });
    expect((await manifestOf(false)).csvText).toMatchObject({ mode: "formula-protected", note: expect.stringContaining("leading apostrophe") });
  });
});
