/**
 * `accord dedupe FILE --json` as a whole process against scikit-learn's brute force (scripts/bench/peers/
 * sklearn-dedupe.py: CountVectorizer uni+bigrams, L2-normalised, sparse product in blocks) on the 60,082 tweets of
 * CrisisLexT6, as one CSV. Issue 34: ≥ 20× wall, the same pairs. Runs interleave accord and scikit-learn
 * (A S A S … A: accord runs once more than scikit-learn); ratios are of the medians, wall and (with GNU time) CPU.
 * CrisisLexT6 is read from ACCORD_SHARED_DATA (default ../shared/data beside the repository, then /work/shared/data);
 * scikit-learn from /usr/bin/python3 with python3-sklearn (Debian: apt-get install python3-sklearn) or ACCORD_BENCH_PYTHON.
 *
 *   node scripts/build-cli.mjs && npx tsx scripts/bench/dedupe-vs-sklearn.ts [--runs 2]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const work = path.join(root, ".tmp", "bench-dedupe");
const accord = path.join(root, "scripts", "accord.mjs");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 2;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const GNU_TIME = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

function findPython(): string | null {
  for (const py of [process.env.ACCORD_BENCH_PYTHON, "/usr/bin/python3", "python3"].filter((c): c is string => !!c)) {
    if (spawnSync(py, ["-c", "import sklearn, scipy, numpy"], { stdio: "ignore" }).status === 0) return py;
  }
  return null;
}

/** All six CrisisLexT6 files as one CSV (one header), or null when the data is not there. */
function writeCrisisLexT6(file: string): boolean {
  const candidates = [process.env.ACCORD_SHARED_DATA, path.join(root, "..", "shared", "data"), "/work/shared/data"].filter((d): d is string => !!d);
  const dir = candidates.map((d) => path.resolve(d, "crisislex", "CrisisLexT6")).find((d) => fs.existsSync(d));
  const events = dir ? fs.readdirSync(dir).filter((e) => fs.existsSync(path.join(dir, e, `${e}-ontopic_offtopic.csv`))).sort() : [];
  if (!dir || events.length !== 6) return false;
  const parts = ["tweet id, tweet, label\n"];
  for (const e of events) {
    const text = fs.readFileSync(path.join(dir, e, `${e}-ontopic_offtopic.csv`), "utf8");
    parts.push(text.slice(text.indexOf("\n") + 1).replace(/\n?$/, "\n"));
  }
  fs.writeFileSync(file, parts.join(""));
  return true;
}

function run(cmd: string, args: string[]): { wall: number; cpu: number; stdout: string } {
  const [file, argv] = GNU_TIME ? [GNU_TIME, ["-f", "@@cpu %U %S", cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const res = spawnSync(file, argv, { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
  const wall = (performance.now() - t0) / 1000;
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${res.status}): ${res.stderr.slice(0, 2000)}`);
  const cpuLine = res.stderr.split("\n").find((l) => l.startsWith("@@cpu "));
  const cpu = cpuLine ? cpuLine.slice(6).split(" ").map(Number).reduce((a, b) => a + b, 0) : NaN;
  return { wall, cpu, stdout: res.stdout };
}

fs.mkdirSync(work, { recursive: true });
console.log(`host: ${os.cpus().length} cores, node ${process.version}, load average ${load()}`);
const tweets = path.join(work, "crisislex-t6.csv");
if (!writeCrisisLexT6(tweets)) {
  console.log(
    "CrisisLexT6 is not there: get it from https://github.com/sajao/CrisisLex (data/CrisisLexT6.zip, MIT), unpacked as " +
      "<dir>/crisislex/CrisisLexT6/<event>/<event>-ontopic_offtopic.csv, and set ACCORD_SHARED_DATA=<dir>.",
  );
  process.exit(1);
}
const python = findPython();
if (!python) {
  console.log("scikit-learn is not available: apt-get install python3-sklearn (Debian), or set ACCORD_BENCH_PYTHON to a Python that imports sklearn, scipy and numpy.");
  process.exit(1);
}
run(process.execPath, [accord, "--help"]); // builds the CLI if a source is newer, outside the timings

const mine = { wall: [] as number[], cpu: [] as number[], loads: [] as number[] };
const theirs = { wall: [] as number[], cpu: [] as number[], loads: [] as number[] };
let ours = new Map<string, number>();
let rows = 0;
const pairsFile = path.join(work, "sklearn-pairs.txt");
for (let r = 0; r <= RUNS; r++) {
  mine.loads.push(os.loadavg()[0]);
  const a = run(process.execPath, [accord, "dedupe", tweets, "--json"]);
  mine.wall.push(a.wall);
  mine.cpu.push(a.cpu);
  const result = JSON.parse(a.stdout) as { rows: number; pairs: Array<[string, string, number]> };
  rows = result.rows;
  ours = new Map<string, number>(result.pairs.map(([x, y, s]) => [`${x} ${y}`, s] as const));
  if (r === RUNS) break;
  theirs.loads.push(os.loadavg()[0]);
  const s = run(python, [path.join(root, "scripts", "bench", "peers", "sklearn-dedupe.py"), tweets, pairsFile]);
  theirs.wall.push(s.wall);
  theirs.cpu.push(s.cpu);
  console.log(`  round ${r + 1}: accord ${a.wall.toFixed(2)} s, scikit-learn ${s.wall.toFixed(1)} s (load ${load()})`);
}
const sk = new Map<string, number>(fs.readFileSync(pairsFile, "utf8").trim().split("\n").filter(Boolean).map((l) => {
  const [x, y, s] = l.split(" ");
  return [`${x} ${y}`, Number(s)] as const;
}));
const onlyOurs = [...ours.keys()].filter((k) => !sk.has(k)).length;
const onlyTheirs = [...sk.keys()].filter((k) => !ours.has(k)).length;
let maxDiff = 0;
for (const [k, s] of ours) if (sk.has(k)) maxDiff = Math.max(maxDiff, Math.abs(s - sk.get(k)!));
const same = onlyOurs === 0 && onlyTheirs === 0;
if (!same) process.exitCode = 1;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
console.log(
  `\nCrisisLexT6, ${rows.toLocaleString("en-US")} rows; medians of ${RUNS + 1} accord and ${RUNS} scikit-learn runs, interleaved\n` +
    `  accord dedupe --json: ${median(mine.wall).toFixed(2)} s (CPU ${median(mine.cpu).toFixed(2)} s; load ${range(mine.loads)})\n` +
    `  scikit-learn brute force: ${median(theirs.wall).toFixed(1)} s (CPU ${median(theirs.cpu).toFixed(1)} s; load ${range(theirs.loads)})\n` +
    `  pairs: ${ours.size.toLocaleString("en-US")} vs ${sk.size.toLocaleString("en-US")}, ${same ? "identical" : "DIFFERENT"} ` +
    `(${onlyOurs} only in accord, ${onlyTheirs} only in scikit-learn; largest similarity difference ${maxDiff.toExponential(1)})\n` +
    `  → ${(median(theirs.wall) / median(mine.wall)).toFixed(1)}× wall, ${(median(theirs.cpu) / median(mine.cpu)).toFixed(1)}× CPU (target ≥ 20× wall)`,
);
console.log(`load average at the end: ${load()}`);
