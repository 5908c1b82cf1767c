/**
 * The `accord` command as a user meets it: whole processes, timed side by side in one run, with the ratios the
 * issue asks for.
 *   (a) `accord --help` against a bare `node -e 0` (≤ 5×);
 *   (b) `accord agreement FILE --json` on 77,000 items × 3–5 judgments against NLTK's AnnotationTask(data).alpha()
 *       as a Python process on the same file (≥ 3× faster, same α to 1e-9);
 *   (c) `accord dedupe FILE --json` on the 60,082 CrisisLexT6 tweets against scikit-learn's brute force
 *       (scripts/bench/peers/sklearn-dedupe.py) (≥ 20× faster, same pair set).
 * Python peers run with the first interpreter that imports them (ACCORD_BENCH_PYTHON, python3, /usr/bin/python3);
 * Debian: apt-get install python3-nltk python3-sklearn. Times are medians of interleaved runs (wall clock; the CPU
 * time of each process too when GNU time is at /usr/bin/time).
 *
 * The CrisisLexT6 files are read from ACCORD_SHARED_DATA (default ../shared/data beside the repository).
 *
 *   npx tsx scripts/bench/cli.ts [--runs 5] [--parts a,b,c] [--skip-sklearn]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateCrowdJudgments } from "@/lib/metrics/synthetic";

const root = path.resolve(import.meta.dirname, "../..");
const work = path.join(root, ".tmp", "bench-cli");
const accord = [path.join(root, "scripts", "accord.mjs")];
const peers = path.join(root, "scripts", "bench", "peers");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const partsArg = process.argv.indexOf("--parts");
const PARTS = new Set((partsArg > 0 ? process.argv[partsArg + 1] : "a,b,c").split(","));
const GNU_TIME = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

type Timed = { wall: number; cpu: number | null; stdout: string };

/** Runs a command to completion; wall seconds and (with GNU time) user+system CPU seconds. */
function timed(cmd: string, args: string[]): Timed {
  const marker = "@@cpu ";
  const [file, argv] = GNU_TIME ? [GNU_TIME, ["-f", `${marker}%U %S`, cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const res = spawnSync(file, argv, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" } });
  const wall = (performance.now() - t0) / 1000;
  const cpuLine = res.stderr.split("\n").find((l) => l.startsWith(marker));
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${res.status}): ${res.stderr.replace(/@@cpu.*\n?/, "").slice(0, 2000)}`);
  const cpu = cpuLine ? cpuLine.slice(marker.length).split(" ").map(Number).reduce((a, b) => a + b, 0) : null;
  return { wall, cpu, stdout: res.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (s: number) => (s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);

/** Interleaves the runs of several commands; returns their medians (and the last output of each). */
function race(runs: number, commands: Array<[string, string[]]>): Array<{ wall: number; cpu: number | null; stdout: string }> {
  const all: Timed[][] = commands.map(() => []);
  for (let r = 0; r < runs; r++) commands.forEach(([cmd, args], k) => all[k].push(timed(cmd, args)));
  return all.map((ts) => ({
    wall: median(ts.map((t) => t.wall)),
    cpu: ts[0].cpu === null ? null : median(ts.map((t) => t.cpu ?? 0)),
    stdout: ts[ts.length - 1].stdout,
  }));
}

function describe(name: string, t: { wall: number; cpu: number | null }): string {
  return `${name}: ${fmt(t.wall)}${t.cpu === null ? "" : ` (CPU ${fmt(t.cpu)})`}`;
}

function ratioLine(what: string, slow: { wall: number; cpu: number | null }, fast: { wall: number; cpu: number | null }, target: string): string {
  const cpu = slow.cpu !== null && fast.cpu !== null ? `; CPU ${(slow.cpu / fast.cpu).toFixed(1)}×` : "";
  return `  → ${what}: ${(slow.wall / fast.wall).toFixed(2)}× wall${cpu} (target: ${target})`;
}

/** The first Python that imports `modules`, or null. */
function findPython(modules: string): string | null {
  const candidates = [process.env.ACCORD_BENCH_PYTHON, "python3", "/usr/bin/python3"].filter((c): c is string => !!c);
  for (const py of candidates) {
    if (spawnSync(py, ["-c", `import ${modules}`], { stdio: "ignore" }).status === 0) return py;
  }
  return null;
}

/** 77,000 items; each gets 3 judgments, then a 4th and 5th while no label has ≥ 2/3 of them (as HumAID's HITs). */
function writeJudgments(file: string): number {
  const labels = [
    "caution_and_advice", "displaced_people_and_evacuations", "infrastructure_and_utility_damage", "injured_or_dead_people",
    "missing_or_found_people", "not_humanitarian", "dont_know_cant_judge", "other_relevant_information",
    "requests_or_urgent_needs", "rescue_volunteering_or_donation_effort", "sympathy_and_support",
  ];
  const crowd = generateCrowdJudgments({ items: 77_000, labels, workers: 900, minJudgments: 5, maxJudgments: 5, accuracy: [0.3, 0.9], seed: 2021 });
  const lines = ["item,annotator,label"];
  for (let i = 0; i < crowd.judgments.length; i += 5) {
    const counts = new Map<string, number>();
    for (let k = 0; k < 5; k++) {
      const j = crowd.judgments[i + k];
      counts.set(j.label, (counts.get(j.label) ?? 0) + 1);
      lines.push(`${j.item},${j.annotator},${j.label}`);
      if (k >= 2 && 3 * Math.max(...counts.values()) >= 2 * (k + 1)) break;
    }
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return lines.length - 1;
}

/** All six CrisisLexT6 files as one CSV (one header), or null with instructions when the data is not there. */
function writeCrisisLexT6(file: string): number | null {
  const dir = path.resolve(process.env.ACCORD_SHARED_DATA ?? path.join(root, "..", "shared", "data"), "crisislex", "CrisisLexT6");
  const events = fs.existsSync(dir) ? fs.readdirSync(dir).filter((e) => fs.existsSync(path.join(dir, e, `${e}-ontopic_offtopic.csv`))).sort() : [];
  if (events.length !== 6) {
    console.log(
      `(c) skipped: the CrisisLexT6 files are not at ${dir}. Get them from https://github.com/sajao/CrisisLex ` +
        `(data/CrisisLexT6.zip, MIT), unpacked as <dir>/crisislex/CrisisLexT6/<event>/<event>-ontopic_offtopic.csv, ` +
        `and point ACCORD_SHARED_DATA at <dir> (default: ../shared/data beside the repository).`,
    );
    return null;
  }
  const parts = ["tweet id, tweet, label\n"];
  for (const e of events) {
    const text = fs.readFileSync(path.join(dir, e, `${e}-ontopic_offtopic.csv`), "utf8");
    parts.push(text.slice(text.indexOf("\n") + 1).replace(/\n?$/, "\n"));
  }
  const text = parts.join("");
  fs.writeFileSync(file, text);
  return text.split("\n").length - 2; // minus the header and the empty string after the last line feed (CSV lines, not records)
}

fs.mkdirSync(work, { recursive: true });
console.log(`host: ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
// The bundle is built (or rebuilt) by the first call, outside the timings.
timed(process.execPath, [...accord, "--help"]);

// (a) start-up
if (PARTS.has("a")) {
  const [bare, help] = race(Math.max(RUNS * 3, 10), [
    [process.execPath, ["-e", "0"]],
    [process.execPath, [...accord, "--help"]],
  ]);
  console.log(`\n(a) start-up, medians of ${Math.max(RUNS * 3, 10)} interleaved runs`);
  console.log(`  ${describe("node -e 0", bare)}\n  ${describe("accord --help", help)}`);
  console.log(ratioLine("accord --help / node -e 0", help, bare, "≤ 5×"));
}

// (b) agreement
if (PARTS.has("b")) {
  const judgmentsFile = path.join(work, "judgments.csv");
  const judgments = writeJudgments(judgmentsFile);
  console.log(`\n(b) agreement: 77,000 items, ${judgments.toLocaleString("en-US")} judgments (${path.relative(root, judgmentsFile)}), medians of ${RUNS} interleaved runs`);
  const nltkPython = findPython("nltk");
  if (!nltkPython) {
    console.log("  NLTK is not available (no Python that imports nltk; Debian: apt-get install python3-nltk): the peer is not run");
    console.log(`  ${describe("accord agreement --json", race(RUNS, [[process.execPath, [...accord, "agreement", judgmentsFile, "--json"]]])[0])}`);
  } else {
    const [mine, nltk] = race(RUNS, [
      [process.execPath, [...accord, "agreement", judgmentsFile, "--json"]],
      [nltkPython, [path.join(peers, "nltk-alpha.py"), judgmentsFile]],
    ]);
    const alpha = (JSON.parse(mine.stdout) as { krippendorffAlpha: number }).krippendorffAlpha;
    const nltkAlpha = Number(nltk.stdout.trim());
    console.log(`  ${describe("accord agreement --json (four measures)", mine)}\n  ${describe(`NLTK AnnotationTask.alpha() (${nltkPython})`, nltk)}`);
    console.log(`  α: accord ${alpha}, NLTK ${nltkAlpha}, |difference| ${Math.abs(alpha - nltkAlpha).toExponential(1)} (${Math.abs(alpha - nltkAlpha) <= 1e-9 ? "same to 1e-9" : "DIFFERENT"})`);
    console.log(ratioLine("NLTK / accord", nltk, mine, "≥ 3×"));
    if (Math.abs(alpha - nltkAlpha) > 1e-9) process.exitCode = 1;
  }
}

// (c) dedupe
const tweetsFile = path.join(work, "crisislex-t6.csv");
const tweets = PARTS.has("c") ? writeCrisisLexT6(tweetsFile) : null;
if (tweets !== null) {
  const dedupeRuns = Math.max(1, Math.ceil(RUNS / 2));
  console.log(`\n(c) dedupe: CrisisLexT6, ${tweets.toLocaleString("en-US")} CSV lines (${path.relative(root, tweetsFile)}), accord: median of ${dedupeRuns}, scikit-learn: one run`);
  const sklearnPython = process.argv.includes("--skip-sklearn") ? null : findPython("sklearn, scipy, numpy");
  const mine = race(dedupeRuns, [[process.execPath, [...accord, "dedupe", tweetsFile, "--json"]]])[0];
  const result = JSON.parse(mine.stdout) as { rows: number; duplicates: number; pairs: Array<[string, string, number]> };
  console.log(`  ${describe("accord dedupe --json", mine)}: ${result.rows.toLocaleString("en-US")} rows, ${result.duplicates.toLocaleString("en-US")} duplicates, ${result.pairs.length.toLocaleString("en-US")} pairs`);
  if (!sklearnPython) {
    console.log("  scikit-learn is not run (--skip-sklearn, or no Python that imports sklearn, scipy and numpy; Debian: apt-get install python3-sklearn)");
  } else {
    const pairsFile = path.join(work, "sklearn-pairs.txt");
    const sk = timed(sklearnPython, [path.join(peers, "sklearn-dedupe.py"), tweetsFile, pairsFile]);
    console.log(`  ${describe(`scikit-learn brute force (${sklearnPython})`, sk)}: ${Number(sk.stdout.trim()).toLocaleString("en-US")} pairs`);
    const theirs = new Map(fs.readFileSync(pairsFile, "utf8").trim().split("\n").filter(Boolean).map((l) => {
      const [a, b, s] = l.split(" ");
      return [`${a} ${b}`, Number(s)] as const;
    }));
    const ours = new Map(result.pairs.map(([a, b, s]) => [`${a} ${b}`, s] as const));
    const onlyOurs = [...ours.keys()].filter((k) => !theirs.has(k));
    const onlyTheirs = [...theirs.keys()].filter((k) => !ours.has(k));
    let maxDiff = 0;
    for (const [k, s] of ours) if (theirs.has(k)) maxDiff = Math.max(maxDiff, Math.abs(s - theirs.get(k)!));
    const same = onlyOurs.length === 0 && onlyTheirs.length === 0;
    console.log(
      `  pair sets: ${same ? "identical" : "DIFFERENT"} (${onlyOurs.length} only in accord, ${onlyTheirs.length} only in scikit-learn; ` +
        `largest similarity difference ${maxDiff.toExponential(1)})`,
    );
    for (const k of [...onlyOurs.slice(0, 3), ...onlyTheirs.slice(0, 3)]) console.log(`    ${k}: accord ${ours.get(k) ?? "-"}, scikit-learn ${theirs.get(k) ?? "-"}`);
    console.log(ratioLine("scikit-learn / accord", sk, mine, "≥ 20×"));
    if (!same) process.exitCode = 1;
  }
}
console.log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
