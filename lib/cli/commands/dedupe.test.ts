import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { bruteForceNearDuplicatesIndexed } from "@/lib/ingest/dedupe/brute-force";
import { adversarialTsv } from "@/lib/ingest/testing/adversarial";
import { crisisLexT6Csv } from "@/lib/ingest/testing/crisislex-format";
import { syntheticTweetStream } from "@/lib/ingest/testing/synthetic-tweets";
import { captureOutput as capture, tempFiles } from "@/lib/ingest/testing/test-io";
import { CliError } from "../errors";
import { run } from "./dedupe";

const files = tempFiles("accord-dedupe-");
const dir = files.dir;
const file = (name: string, text: string) => files.write(name, text);
afterAll(() => files.cleanup());
afterEach(() => vi.restoreAllMocks());

const TSV = [
  "tweet_id\ttweet_text\tclass_label",
  "901646074527535105\tFlood waters rising in Houston, stay safe everyone\tcaution_and_advice",
  "901646074527535106\tflood waters rising in houston stay safe everyone http://t.co/x\tcaution_and_advice",
  "901646074527535107\tDonate to the Red Cross today for the victims\trescue_volunteering_or_donation_effort",
  "901646074527535108\t@bob Flood waters rising in Houston, stay safe everyone!!\tcaution_and_advice",
  "901646074527535109\t\tnot_humanitarian",
].join("\n");

describe("accord dedupe", () => {
  it("--json prints exactly the issue's object", async () => {
    const io = capture();
    expect(await run([file("a.tsv", TSV), "--json"])).toBe(0);
    expect(io.out()).toBe(
      '{"rows":4,"duplicates":2,"kept":2,"pairs":[["901646074527535105","901646074527535106",1],["901646074527535105","901646074527535108",1],["901646074527535106","901646074527535108",1]]}\n',
    );
    expect(io.err()).toMatch(/skipped 1 unreadable rows \(line 6: empty text\)/);
  });

  it("honours --threshold and prints a readable summary without --json", async () => {
    const csv = file("b.csv", 'id,text\n1,"the bridge on highway six is closed"\n2,"the bridge on highway six is now open"\n');
    let io = capture();
    await run([csv, "--json", "--threshold", "0.5"]);
    const loose = JSON.parse(io.out());
    expect(loose.pairs).toHaveLength(1);
    expect(loose.pairs[0][2]).toBeGreaterThan(0.5);
    vi.restoreAllMocks();
    io = capture();
    await run([csv, "--json", "--threshold", "0.9"]);
    expect(JSON.parse(io.out())).toEqual({ rows: 2, duplicates: 0, kept: 2, pairs: [] });
    vi.restoreAllMocks();
    io = capture();
    await run([csv]);
    expect(io.out()).toMatch(/^\d+-b\.csv \(csv\), threshold: cosine > 0\.75\nrows\s+2\nduplicates\s+1\nkept\s+1\npairs\s+1\n/);
    expect(io.out()).toMatch(/first 1 pairs \(earlier id, later id, similarity\):\n {2}1 {2}2 {2}0\.78\d\d\n$/);
  });

  it("says on stderr when rows reached the search cap; --exact searches them fully", async () => {
    const tsv = file("adv.tsv", adversarialTsv({ rows: 400 }));
    let io = capture();
    expect(await run([tsv, "--json"])).toBe(0);
    expect(JSON.parse(io.out()).rows).toBe(400);
    expect(io.err()).toMatch(/^accord dedupe: [\d,]+ rows were searched only in part \(their search stopped at 20,000 steps\)/);
    vi.restoreAllMocks();
    io = capture();
    expect(await run([tsv, "--json", "--exact"])).toBe(0);
    expect(io.err()).toBe("");
  });

  it("refuses bad arguments and unreadable files", async () => {
    await expect(run([])).rejects.toThrow(CliError);
    await expect(run(["x.tsv", "--threshold", "1"])).rejects.toThrow(/between 0 and 1/);
    await expect(run([path.join(dir, "missing.tsv")])).rejects.toThrow(/cannot be read/);
  });

  it("finds the brute-force pairs in a CrisisLexT6-style file of 1,500 tweets, through the real command", async () => {
    const rows = syntheticTweetStream({ count: 1_500, seed: 6, copies: 0.35, chatter: 0.35 });
    const csv = file("t6.csv", crisisLexT6Csv(rows));
    const { stdout } = await promisify(execFile)(process.execPath, ["scripts/accord.mjs", "dedupe", csv, "--json"], { maxBuffer: 64 * 1024 * 1024 });
    const got = JSON.parse(stdout) as { rows: number; duplicates: number; kept: number; pairs: Array<[string, string, number]> };
    const reference = bruteForceNearDuplicatesIndexed(
      rows.map((r) => r.text),
      { mode: "all" },
    );
    const p = reference.pairs;
    expect(got.rows).toBe(1_500);
    expect(got.duplicates).toBe(reference.duplicates);
    expect(got.kept).toBe(1_500 - reference.duplicates);
    expect(got.pairs).toEqual(Array.from({ length: p?.count ?? 0 }, (_, k) => [rows[p!.a[k]].id, rows[p!.b[k]].id, p!.similarity[k]]));
    expect(got.pairs.length).toBeGreaterThan(10);
  });
});
