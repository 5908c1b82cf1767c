/**
 * `accord agreement FILE --json` (four measures) as a whole process against NLTK computing Krippendorff's alpha alone
 * (AnnotationTask(data).alpha(), Python's csv reading the file: the process a researcher runs,
 * scripts/bench/peers/nltk-alpha-timed.py, which also reports the time of alpha() itself), on 77,000 items × 3–5
 * judgments (~277,000) in three forms of the
 * same judgments: LF line ends; CRLF (as Python's csv module and Excel write); CRLF with a quoted text column (the
 * tweet, QUOTE_MINIMAL as Python writes it: quoted when it holds a comma, quote or line end). Issue 34: ≥ 3× in
 * each, α identical (to 1e-9). Runs interleave (accord, NLTK, next form, …); ratios are of the medians, of wall
 * time and (with GNU time at /usr/bin/time) of CPU time, which the load of a shared host disturbs less.
 * Tweets for the text column come from CrisisLexT6 when present (ACCORD_SHARED_DATA, default ../shared/data),
 * otherwise synthetic text with commas, quotes and line breaks. NLTK: /usr/bin/python3 with python3-nltk
 * (Debian: apt-get install python3-nltk), or ACCORD_BENCH_PYTHON.
 *
 *   node scripts/build-cli.mjs && npx tsx scripts/bench/agreement-vs-nltk.ts [--runs 5]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateCrowdJudgments } from "@/lib/metrics/synthetic";
import { createRng, randomInt } from "@/lib/util/random";

const root = path.resolve(import.meta.dirname, "../..");
const work = path.join(root, ".tmp", "bench-agreement");
const accord = path.join(root, "scripts", "accord.mjs");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function findPython(): string | null {
  for (const py of [process.env.ACCORD_BENCH_PYTHON, "/usr/bin/python3", "python3"].filter((c): c is string => !!c)) {
    if (spawnSync(py, ["-c", "import nltk"], { stdio: "ignore" }).status === 0) return py;
  }
  return null;
}

/** Tweets for the text column: CrisisLexT6's when present, else synthetic ones with the awkward characters. */
function tweetTexts(): string[] {
  const dir = path.resolve(process.env.ACCORD_SHARED_DATA ?? path.join(root, "..", "shared", "data"), "crisislex", "CrisisLexT6", "2012_Sandy_Hurricane");
  const file = path.join(dir, "2012_Sandy_Hurricane-ontopic_offtopic.csv");
  if (fs.existsSync(file)) {
    const texts: string[] = [];
    // the second column of "tweet id,tweet,label" (Python's csv quoting); a quick reader is enough for sample text
    for (const m of fs.readFileSync(file, "utf8").matchAll(/^[^,\n]*,("(?:[^"]|"")*"|[^,\n]*),/gm)) {
      const t = m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1];
      if (t) texts.push(t);
    }
    if (texts.length > 1000) return texts;
  }
  const rng = createRng(7);
  const words = ["flood", "help", "road, closed", 'the "storm"', "RT @user:", "http://t.co/x", "shelter", "line\r\nbreak", "é", "donate"];
  return Array.from({ length: 5000 }, () => Array.from({ length: 8 + randomInt(rng, 12) }, () => words[randomInt(rng, words.length)]).join(" "));
}

/** Python's csv.writer QUOTE_MINIMAL. */
const quoted = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** 77,000 items; each gets 3 judgments, then a 4th and 5th while no label has ≥ 2/3 (as HumAID's HITs). */
function judgments(): Array<[string, string, string]> {
  const labels = [
    "caution_and_advice", "displaced_people_and_evacuations", "infrastructure_and_utility_damage", "injured_or_dead_people",
    "missing_or_found_people", "not_humanitarian", "dont_know_cant_judge", "other_relevant_information",
    "requests_or_urgent_needs", "rescue_volunteering_or_donation_effort", "sympathy_and_support",
  ];
  const crowd = generateCrowdJudgments({ items: 77_000, labels, workers: 900, minJudgments: 5, maxJudgments: 5, accuracy: [0.3, 0.9], seed: 2021 });
  const rows: Array<[string, string, string]> = [];
  for (let i = 0; i < crowd.judgments.length; i += 5) {
    const counts = new Map<string, number>();
    for (let k = 0; k < 5; k++) {
      const j = crowd.judgments[i + k];
      counts.set(j.label, (counts.get(j.label) ?? 0) + 1);
      rows.push([j.item, j.annotator, j.label]);
      if (k >= 2 && 3 * Math.max(...counts.values()) >= 2 * (k + 1)) break;
    }
  }
  return rows;
}

fs.mkdirSync(work, { recursive: true });
const python = findPython();
console.log(`host: ${os.cpus().length} cores, node ${process.version}, load average ${load()}`);
if (!python) {
  console.log("NLTK is not available: install Debian's python3-nltk (apt-get install python3-nltk) or set ACCORD_BENCH_PYTHON to a Python that imports nltk.");
  process.exit(1);
}
const rows = judgments();
const texts = tweetTexts();
const forms: Array<{ name: string; file: string; text: string }> = [
  { name: "LF", file: "judgments-lf.csv", text: ["item,annotator,label", ...rows.map((r) => r.join(","))].join("\n") + "\n" },
  { name: "CRLF", file: "judgments-crlf.csv", text: ["item,annotator,label", ...rows.map((r) => r.join(","))].join("\r\n") + "\r\n" },
  {
    name: "CRLF + quoted text",
    file: "judgments-quoted.csv",
    text: ["item,annotator,label,text", ...rows.map((r, k) => [...r, quoted(texts[k % texts.length])].join(","))].join("\r\n") + "\r\n",
  },
];
for (const f of forms) fs.writeFileSync(path.join(work, f.file), f.text);
const quotedShare = rows.filter((_, k) => quoted(texts[k % texts.length]).startsWith('"')).length / rows.length;
console.log(`${rows.length.toLocaleString("en-US")} judgments of 77,000 items; text column: ${texts.length.toLocaleString("en-US")} tweets, ${(quotedShare * 100).toFixed(0)}% of rows quoted; sizes ${forms.map((f) => `${f.name} ${(f.text.length / 1e6).toFixed(1)} MB`).join(", ")}`);

const GNU_TIME = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

/** Runs a command to completion: wall seconds, user+system CPU seconds (NaN without GNU time) and its stdout. */
function run(cmd: string, args: string[]): { wall: number; cpu: number; stdout: string } {
  const [file, argv] = GNU_TIME ? [GNU_TIME, ["-f", "@@cpu %U %S", cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const res = spawnSync(file, argv, { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${res.status}): ${res.stderr.slice(0, 2000)}`);
  const cpuLine = res.stderr.split("\n").find((l) => l.startsWith("@@cpu "));
  const cpu = cpuLine ? cpuLine.slice(6).split(" ").map(Number).reduce((a, b) => a + b, 0) : NaN;
  return { wall, cpu, stdout: res.stdout };
}

run(process.execPath, [accord, "--help"]); // builds the CLI if a source is newer, outside the timings
type Series = { wall: number[]; cpu: number[] };
const series = (): Series => ({ wall: [], cpu: [] });
const times = forms.map(() => ({ accord: series(), nltk: series(), alphaOnly: [] as number[], loads: [] as number[], alpha: [NaN, NaN] }));
for (let r = 0; r < RUNS; r++) {
  forms.forEach((f, k) => {
    const file = path.join(work, f.file);
    const t = times[k];
    t.loads.push(os.loadavg()[0]);
    const mine = run(process.execPath, [accord, "agreement", file, "--json"]);
    const peer = run(python, [path.join(root, "scripts", "bench", "peers", "nltk-alpha-timed.py"), file]);
    const theirs = JSON.parse(peer.stdout) as { alpha: number; seconds: number };
    t.accord.wall.push(mine.wall);
    t.accord.cpu.push(mine.cpu);
    t.nltk.wall.push(peer.wall);
    t.nltk.cpu.push(peer.cpu);
    t.alphaOnly.push(theirs.seconds);
    t.alpha = [(JSON.parse(mine.stdout) as { krippendorffAlpha: number }).krippendorffAlpha, theirs.alpha];
  });
}
const s2 = (x: number) => `${x.toFixed(2)} s`;
console.log(`\nmedians of ${RUNS} interleaved runs, whole processes (accord: four measures; NLTK: alpha only)`);
forms.forEach((f, k) => {
  const t = times[k];
  const [a, b] = t.alpha;
  const same = Math.abs(a - b) <= 1e-9;
  if (!same) process.exitCode = 1;
  const wallRatio = median(t.nltk.wall) / median(t.accord.wall);
  const cpuRatio = median(t.nltk.cpu) / median(t.accord.cpu);
  console.log(
    `  ${f.name}: accord ${s2(median(t.accord.wall))} (CPU ${s2(median(t.accord.cpu))}), NLTK ${s2(median(t.nltk.wall))} (CPU ${s2(median(t.nltk.cpu))}; ` +
      `alpha() itself ${s2(median(t.alphaOnly))}) → ${wallRatio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU (target ≥ 3×)\n` +
      `    per run, wall: ${t.nltk.wall.map((x, i) => (x / t.accord.wall[i]).toFixed(1)).join(", ")}; load ${Math.min(...t.loads).toFixed(1)}–${Math.max(...t.loads).toFixed(1)}; ` +
      `α ${a} vs ${b} (${same ? "same to 1e-9" : "DIFFERENT"})`,
  );
});
console.log(`load average at the end: ${load()}`);
