/**
 * The CSV scanner (lib/text/csv-scanner.ts) against csv-parse on the files it reads: the 277K-judgment files of
 * agreement-vs-nltk.ts (LF, CRLF, CRLF with a quoted tweet column; run that bench first, or they are made here the
 * same way) and CrisisLexT6 as one CSV (when present). Each round, interleaved: csv-parse/sync on the text with the
 * judgment options (records as string arrays), the scanner making the same records, and the scanner coding the
 * three judgment columns (what `accord agreement` does). CPU milliseconds of this process (process.cpuUsage), medians.
 *
 *   npx tsx scripts/bench/csv-scanner.ts [--runs 5]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { readCodedColumns, readCodedColumnsOfFile } from "@/lib/text/csv-coded-columns";
import { csvParseOptions, readCsvRecords } from "@/lib/text/csv-records";

const root = path.resolve(import.meta.dirname, "../..");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timed = (f: () => unknown) => {
  const t0 = cpuMs();
  f();
  return cpuMs() - t0;
};

const judgments = path.join(root, ".tmp", "bench-agreement");
const files = [
  ["judgments, LF", path.join(judgments, "judgments-lf.csv")],
  ["judgments, CRLF", path.join(judgments, "judgments-crlf.csv")],
  ["judgments, CRLF + quoted text", path.join(judgments, "judgments-quoted.csv")],
  ["CrisisLexT6 (60,082 tweets)", path.join(root, ".tmp", "bench-dedupe", "crisislex-t6.csv")],
].filter(([, f]) => fs.existsSync(f));
console.log(`host: ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
if (files.length === 0) {
  console.log("no files: run scripts/bench/agreement-vs-nltk.ts (and dedupe-vs-sklearn.ts) first, they write them under .tmp/");
  process.exit(1);
}
const pickThree = () => [0, 1, 2];
for (const [name, file] of files) {
  const bytes = fs.readFileSync(file);
  const text = bytes.toString("utf8");
  const t = { csvParse: [] as number[], records: [] as number[], coded: [] as number[], codedFile: [] as number[] };
  let same = true;
  for (let r = 0; r < RUNS; r++) {
    let theirs: string[][] = [];
    let ours: string[][] = [];
    t.csvParse.push(timed(() => (theirs = parse(text, csvParseOptions()) as string[][])));
    t.records.push(timed(() => (ours = readCsvRecords(bytes).records)));
    t.coded.push(timed(() => readCodedColumns(bytes, pickThree)));
    t.codedFile.push(timed(() => readCodedColumnsOfFile(file, pickThree)));
    if (r === 0) same = theirs.length === ours.length && theirs.every((rec, i) => rec.join("\u0001") === ours[i].join("\u0001"));
  }
  const cp = median(t.csvParse);
  console.log(
    `${name} (${(bytes.length / 1e6).toFixed(1)} MB): csv-parse ${cp.toFixed(0)} ms; scanner, records ${median(t.records).toFixed(0)} ms ` +
      `(${(cp / median(t.records)).toFixed(1)}×, ${same ? "same records" : "RECORDS DIFFER"}); coded columns from memory ${median(t.coded).toFixed(0)} ms ` +
      `(${(cp / median(t.coded)).toFixed(1)}×), from the file in pieces ${median(t.codedFile).toFixed(0)} ms (${(cp / median(t.codedFile)).toFixed(1)}×)`,
  );
  if (!same) process.exitCode = 1;
}
console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
