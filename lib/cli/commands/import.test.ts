import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { captureOutput, tempFiles } from "@/lib/ingest/testing/test-io";
import { CliError } from "../errors";
import { runImport } from "./import";
import { crowdflowerTweets } from "@/lib/ingest/testing/unrecognised-columns";
import { parseIngestSettings } from "@/lib/ingest/settings";

const files = tempFiles("accord-import-cli-");
const file = (name: string, text: string) => files.write(name, text);
afterAll(() => files.cleanup());

function capture() {
  return captureOutput().out;
}

const TWEETS = [
  "tweet_id\ttweet_text\tclass_label\tlang",
  "901646074527535105\tRoads flooded near downtown Houston, stay inside\tcaution_and_advice\ten",
  "901646074527535106\tRT @x: roads flooded near downtown Houston, stay inside\tcaution_and_advice\ten",
  "901646074527535107\tLas carreteras están inundadas en el centro\tcaution_and_advice\tes",
  "901646074527535108\tShelter at the convention center needs volunteers\tnot_a_label\ten",
].join("\n");

describe("accord import", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb("sqlite");
    const schemeId = await ensureHumaidScheme(t.db);
    await t.db.event.create({ data: { slug: "harvey", name: "Harvey", type: "hurricane", schemeId, settings: {}, filters: {}, locations: [] } });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  it("runs the import job from the terminal (the real command, against DATABASE_URL) and prints the funnel", async () => {
    const tsv = file("harvey.tsv", TWEETS);
    const exec = promisify(execFile);
    const env = { ...process.env, DATABASE_URL: t.url };
    // A label outside the scheme that no map covers: nothing is imported; the labels are listed with their counts.
    const paused = await exec(process.execPath, ["scripts/accord.mjs", "import", "--event", "harvey", tsv], { env }).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(paused.code).toBe(1);
    expect(paused.stdout).toMatch(/: needs_mapping\n/);
    expect(paused.stdout).toMatch(/labels outside the event's scheme \(rows\):\n {2}not_a_label: 1\n/);
    expect(await t.db.tweet.count()).toBe(0);

    const map = file("map.csv", "from,to\nnot_a_label,\n");
    const { stdout } = await exec(process.execPath, ["scripts/accord.mjs", "import", "--event", "harvey", "--label-map", map, tsv], { env });
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^import \S+: \d+-harvey\.tsv → event "harvey" \(tweets, tsv\): completed$/);
    expect(stdout).toMatch(/\nstep\s+in\s+kept\s+removed\s+reasons\n/);
    expect(stdout).toMatch(/\nrows read\s+4\n/);
    expect(stdout).toMatch(/\nvalid rows\s+4\s+4\s+0\n/);
    expect(stdout).toMatch(/\nlabel map\s+4\s+3\s+1\s+label "not_a_label" mapped to drop: 1\n/);
    expect(stdout).toMatch(/\nlanguage\s+3\s+2\s+1\s+other language \(es\): 1/);
    expect(stdout).toMatch(/\nnear-duplicates\s+2\s+1\s+1\s+near-duplicate of an earlier row: 1/);
    expect(stdout).toMatch(/\nstored\s+1\s+1\n/);
    expect(stdout).not.toMatch(/row errors \(/);
    expect(stdout).toMatch(/\nwarning: Only 1 of 4 rows were stored/);
    // The map was saved for the event (later imports reuse it), with its history.
    const event = await t.db.event.findUniqueOrThrow({ where: { slug: "harvey" } });
    expect((event.filters as { labels: { map: unknown } }).labels.map).toEqual({ not_a_label: null });
    expect(await t.db.settingChange.findMany({ select: { scope: true, key: true, newValue: true } })).toEqual([{ scope: "ingest", key: "labels.map.not_a_label", newValue: null }]);
    expect(await t.db.tweet.count()).toBe(1);

    // Again, same file (in-process this time): nothing new, and it says so.
    const read = capture();
    expect(await runImport(["--event", "harvey", tsv, "--json"], { db: t.db })).toBe(0);
    const obj = JSON.parse(read());
    expect(obj).toMatchObject({ event: "harvey", kind: "tweets", status: "completed", rowsStored: 0 });
    expect(obj.message).toMatch(/already imported/);
  });

  it("--json prints one object with the funnel and the per-row errors; --gold imports gold", async () => {
    const read = capture();
    const gold = file("gold.csv", "id,text,label\n1,Thoughts and prayers to everyone in Texas,sympathy_and_support\n2,A gold tweet with no label,\n");
    expect(await runImport(["--event", "harvey", gold, "--gold", "--json"], { db: t.db })).toBe(0);
    const obj = JSON.parse(read());
    expect(Object.keys(obj)).toEqual(["importId", "event", "kind", "fileName", "format", "status", "message", "rowsRead", "rowsStored", "errorCount", "funnel", "errors", "fileLabels"]);
    expect(obj).toMatchObject({ kind: "gold", format: "csv", status: "completed", rowsRead: 2, rowsStored: 1, errorCount: 1 });
    expect(obj.funnel.map((s: { step: string }) => s.step)).toEqual(["read", "valid", "labelMap", "date", "location", "language", "classifier", "wordCount", "duplicates", "sampling", "stored"]);
    expect(obj.errors).toEqual([{ line: 3, column: "label", reason: "gold rows need a label", raw: "2\tA gold tweet with no label" }]);
    expect(await t.db.tweet.findMany({ select: { role: true, goldLabel: true } })).toEqual([{ role: "gold", goldLabel: "sympathy_and_support" }]);
  });

  it("--rerun re-runs a completed import with the event's current settings, reading its file again, and prints the new funnel", async () => {
    const read = capture();
    const tsv = file("rerun.tsv", TWEETS);
    expect(await runImport(["--event", "harvey", "--label-map", file("map.csv", "not_a_label,\n"), tsv, "--json"], { db: t.db })).toBe(0);
    const first = JSON.parse(read());
    expect(first).toMatchObject({ status: "completed", rowsStored: 1 });
    // The Spanish tweet was dropped by the language step: switch it off, then re-run.
    const event = await t.db.event.findUniqueOrThrow({ where: { slug: "harvey" } });
    await t.db.event.update({ where: { id: event.id }, data: { filters: { ...(event.filters as object), language: { enabled: false } } } });
    const shown = read().length;
    expect(await runImport(["--rerun", first.importId], { db: t.db })).toBe(0);
    const out = read().slice(shown);
    expect(out.split("\n")[0]).toMatch(new RegExp(`^re-run of import ${first.importId}: \\d+-rerun\\.tsv → event "harvey" \\(tweets, tsv\\): completed$`));
    expect(out).toMatch(/\nstored\s+2\s+2\n/);
    expect(out).toMatch(/\nRe-run with the event's current settings: 2 tweets stored\./);
    expect(await t.db.tweet.count({ where: { importId: first.importId } })).toBe(2);
    expect(await t.db.importBatch.count()).toBe(1);

    await expect(runImport(["--rerun", first.importId, tsv], { db: t.db })).rejects.toThrow(/--rerun takes no FILE/);
    await expect(runImport(["--rerun", first.importId, "--event", "other"], { db: t.db })).rejects.toThrow(/belongs to event "harvey", not "other"/);
    await expect(runImport(["--rerun", "nope"], { db: t.db })).rejects.toThrow(/no import with id "nope"/);
    // A tweet of it became gold: refused, with the reason.
    await t.db.tweet.updateMany({ where: { importId: first.importId }, data: { role: "gold", goldLabel: "caution_and_advice" } });
    await expect(runImport(["--rerun", first.importId], { db: t.db })).rejects.toThrow(/cannot be re-run: of its tweets, 2 are gold/);
  });

  it("fails clearly on an unknown event, a bad file, or missing arguments", async () => {
    capture();
    await expect(runImport(["--event", "nope", file("x.tsv", TWEETS)], { db: t.db })).rejects.toThrow(/no event with slug "nope"/);
    await expect(runImport(["--event", "harvey"], { db: t.db })).rejects.toBeInstanceOf(CliError);
    await expect(runImport([file("y.tsv", TWEETS)], { db: t.db })).rejects.toThrow(/--event SLUG is required/);
    expect(await runImport(["--event", "harvey", file("bad.csv", "name,comment\nann,hi\n")], { db: t.db })).toBe(1);
  });

  it("--columns maps a file whose columns Accord does not recognise; a column the file lacks is refused by name; the mapping is remembered", async () => {
    const out = capture();
    const cf = file("sandy-units.csv", crowdflowerTweets({ rows: 3 }));
    // Without a mapping: refused, and the message says how to map the columns.
    expect(await runImport(["--event", "harvey", cf], { db: t.db })).toBe(1);
    expect(out()).toMatch(/No tweet id column: .*accord import --columns id=COLUMN,text=COLUMN/);
    await expect(runImport(["--event", "harvey", "--columns", "id=tweet_number,text=tweet", cf], { db: t.db })).rejects.toThrow(/has no column "tweet_number": its columns are "_unit_id", "_golden", "tweet_no"/);
    await expect(runImport(["--event", "harvey", "--columns", "id=tweet_no", cf], { db: t.db })).rejects.toThrow(/\(id= and text= are required\)/);
    expect(await t.db.tweet.count()).toBe(0);
    expect(await runImport(["--event", "harvey", "--columns", "id=tweet_no,text=tweet,label=choose_one_category,date=tweet_created,location=tweet_location", cf, "--json"], { db: t.db })).toBe(0);
    const result = JSON.parse(out().trim().split("\n").pop() ?? "{}") as { status: string; rowsStored: number };
    expect(result).toMatchObject({ status: "completed", rowsStored: 3 });
    expect(await t.db.tweet.findFirst({ where: { externalId: "263000000000000001" }, select: { userLocation: true, sourceLabel: true } })).toEqual({ userLocation: "Hoboken, NJ", sourceLabel: "infrastructure_and_utility_damage" });
    const event = await t.db.event.findUniqueOrThrow({ where: { slug: "harvey" } });
    expect(parseIngestSettings(event.filters).columns).toMatchObject({ id: "tweet_no", text: "tweet" });
    // Remembered: the next file with these columns needs no --columns.
    expect(await runImport(["--event", "harvey", file("more.csv", crowdflowerTweets({ rows: 2, first: 4 }))], { db: t.db })).toBe(0);
    expect(await t.db.tweet.count()).toBe(5);
  });
});
