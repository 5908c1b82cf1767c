// Benchmark of the MTurk simulator through the real AWS SDK client.
//   npx tsx scripts/bench/simulator.ts [--requests 4000] [--hits 3700] [--concurrency 8] [--only throughput|publish]
// 1. Throughput of ListAssignmentsForHIT (a 30-tweet HIT with 3 submitted assignments, MaxResults 100) vs
//    GetAccountBalance (the cheapest call) as a baseline, both through MTurkClient: against the simulator in this
//    process (client and server share one core) and against `accord simulator` in its own process (as deployed).
// 2. A 3,700-HIT publish run through MturkProvider.publishHit with 10% injected ServiceFaults (half of them after
//    the HIT was created, i.e. lost responses) plus rate throttling; duplicates = HITs in the simulator state
//    minus HITs asked for.
// Tweet text comes from ../shared/data/crisislex when it is there (benchmarks may read it; the product and the
// tests never do); without it, synthetic text of the same length is used and a note says how to get the data.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { GetAccountBalanceCommand, ListAssignmentsForHITCommand, MTurkClient } from "@aws-sdk/client-mturk";
import { parse } from "csv-parse/sync";
import { createMturkClient } from "@/lib/crowd/mturk/client";
import { buildHitQuestionXml, externalSubmitUrl, hitFieldName, type HitItem } from "@/lib/crowd/mturk/hit-question";
import { MturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { startSimulator } from "@/lib/crowd/simulator/server";
import { testWorker } from "@/lib/crowd/test-fixtures";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { missingDataMessage, sharedDataset } from "./shared-datasets";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "4000" },
    hits: { type: "string", default: "3700" },
    concurrency: { type: "string", default: "8" },
    only: { type: "string" },
  },
});
const REQUESTS = Number(values.requests);
const HITS = Number(values.hits);
const CONCURRENCY = Number(values.concurrency);

function loadTweets(): string[] {
  const root = sharedDataset("CrisisLexT26");
  if (!root) {
    process.stderr.write(`note: using synthetic tweet text; for real text this benchmark reads ${missingDataMessage("CrisisLexT26")}`);
    return Array.from({ length: 5000 }, (_, i) => `Synthetic tweet ${i} about flooding & evacuations near "Main St" <shelter> #storm ${"x".repeat(80)}`);
  }
  const texts: string[] = [];
  for (const event of readdirSync(root)) {
    const file = path.join(root, event, `${event}-tweets_labeled.csv`);
    if (!existsSync(file)) continue;
    const rows = parse(readFileSync(file, "utf8"), { from_line: 2, relax_quotes: true, relax_column_count: true }) as string[][];
    for (const r of rows) if (r[1]) texts.push(r[1]);
  }
  return texts;
}

async function runPool(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) await task(i);
    }),
  );
  return (performance.now() - started) / 1000;
}

function itemsFor(hit: number, tweets: string[]): HitItem[] {
  return Array.from({ length: 30 }, (_, j) => {
    const k = (hit * 30 + j) % tweets.length;
    return { itemId: `h${hit}i${j}`, tweetId: String(1_000_000 + k), text: tweets[k] };
  });
}

function benchWorker(workerId: string) {
  return testWorker(workerId, { accuracy: 0.9, locale: { Country: "US" }, numberHitsApproved: 1000 });
}

/** `accord simulator` in a child process; resolves once it prints its URL. */
function spawnSimulator(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/accord.mjs", "simulator", "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        resolve({
          url: m[1],
          stop: () =>
            new Promise<void>((done) => {
              child.once("exit", () => done());
              child.kill("SIGINT");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${String(code)}: ${out}`)));
  });
}

async function measure(url: string, hitId: string, label: string): Promise<number> {
  const client = new MTurkClient({ region: "us-east-1", endpoint: url, credentials: { accessKeyId: "b", secretAccessKey: "b" } });
  for (let i = 0; i < 200; i++) await client.send(new GetAccountBalanceCommand({}));
  const baseSecs = await runPool(REQUESTS, 16, async () => {
    await client.send(new GetAccountBalanceCommand({}));
  });
  let bytes = 0;
  const listSecs = await runPool(REQUESTS, 16, async () => {
    const out = await client.send(new ListAssignmentsForHITCommand({ HITId: hitId, MaxResults: 100 }));
    if (out.NumResults !== 3) throw new Error("unexpected page");
    bytes = (out.Assignments ?? []).reduce((n, a) => n + (a.Answer?.length ?? 0), 0);
  });
  const baseRate = REQUESTS / baseSecs;
  const listRate = REQUESTS / listSecs;
  console.log(
    `[${label}] ListAssignmentsForHIT via SDK: ${REQUESTS} requests, concurrency 16, ${listSecs.toFixed(2)} s → ${listRate.toFixed(0)} req/s ` +
      `(3 assignments, ${bytes} bytes of answers per response); GetAccountBalance baseline ${baseRate.toFixed(0)} req/s; ratio ${(listRate / baseRate).toFixed(2)}`,
  );
  client.destroy();
  return listRate;
}

/** The same call without the SDK (keep-alive node:http, the body the SDK sends): the simulator's own capacity. */
async function measureRaw(url: string, hitId: string, label: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const body = JSON.stringify({ HITId: hitId, MaxResults: 100 });
  const call = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, {
        method: "POST",
        agent,
        headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "MTurkRequesterServiceV20170117.ListAssignmentsForHIT" },
      }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${String(res.statusCode)}`));
        res.resume();
        res.on("end", () => resolve());
      });
      req.on("error", reject);
      req.end(body);
    });
  for (let i = 0; i < 200; i++) await call();
  const secs = await runPool(REQUESTS, 16, call);
  agent.destroy();
  const rate = REQUESTS / secs;
  console.log(`[${label}] ListAssignmentsForHIT over raw HTTP (no SDK): ${REQUESTS} requests, concurrency 16, ${secs.toFixed(2)} s → ${rate.toFixed(0)} req/s`);
  return rate;
}

async function throughput(tweets: string[]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "accord-bench-"));
  const stateFile = path.join(dir, "state.json");
  const sim = await startSimulator({ clock: new ManualClock(), workers: ["ABENCHWORKER01", "ABENCHWORKER02", "ABENCHWORKER03"].map(benchWorker), seed: 1, persistFile: stateFile });
  const items = itemsFor(0, tweets);
  const question = buildHitQuestionXml({ items, labels: HUMAID_LABELS, submitUrl: externalSubmitUrl("simulator", sim.url) });
  const provider = new MturkProvider({ client: createMturkClient({ mode: "simulator", simulatorUrl: sim.url }), mode: "simulator" });
  const { providerHitId } = await provider.publishHit({
    accordHitId: "bench-0",
    title: "Categorise disaster tweets",
    description: "30 tweets",
    rewardCents: 60,
    maxAssignments: 3,
    lifetimeSeconds: 30 * 86_400,
    assignmentDurationSeconds: 3600,
    autoApprovalDelaySeconds: 29 * 86_400,
    questionXml: question,
  });
  provider.client.destroy();
  for (const w of sim.state.workers) {
    const id = sim.service.acceptHit({ workerId: w.workerId, hitId: providerHitId });
    sim.service.submitAssignment({ assignmentId: id, fields: Object.fromEntries(items.map((it, j) => [hitFieldName(j + 1, it.itemId), HUMAID_LABELS[j % 11].value])) });
  }
  const inProcess = await measure(sim.url, providerHitId, "in-process simulator");
  await sim.stop();
  const child = await spawnSimulator(["--state", stateFile, "--seed", "1"]);
  const separate = await measure(child.url, providerHitId, "accord simulator process");
  const raw = await measureRaw(child.url, providerHitId, "accord simulator process");
  await child.stop();
  rmSync(dir, { recursive: true, force: true });
  const best = Math.max(inProcess, separate);
  console.log(
    `  target ≥ 500 req/s for ListAssignmentsForHIT through the SDK: ${best >= 500 ? "met" : "NOT met"} (best ${best.toFixed(0)} req/s); ` +
      `simulator capacity without the SDK client: ${raw.toFixed(0)} req/s; load average now ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`,
  );
}

async function publishRun(tweets: string[]): Promise<void> {
  const clock = new ManualClock();
  const sim = await startSimulator({
    clock,
    workers: {},
    seed: 11,
    balanceCents: 100_000_000,
    faults: { serviceFaultRate: 0.1, faultAfterApplyFraction: 0.5, throttleRate: 250, throttleBurst: 40, throttleFraction: 0.03 },
  });
  const provider = new MturkProvider({ client: createMturkClient({ mode: "simulator", simulatorUrl: sim.url }), mode: "simulator" });
  const submitUrl = externalSubmitUrl("simulator", sim.url);
  const questions: string[] = [];
  const buildStart = performance.now();
  for (let h = 0; h < HITS; h++) questions.push(buildHitQuestionXml({ items: itemsFor(h, tweets), labels: HUMAID_LABELS, submitUrl }));
  const buildSecs = (performance.now() - buildStart) / 1000;
  const sizes = questions.map((q) => Buffer.byteLength(q)).sort((a, b) => a - b);
  let duplicateFlags = 0;
  const ids = new Set<string>();
  const run = async () =>
    runPool(HITS, CONCURRENCY, async (h) => {
      const r = await provider.publishHit({
        accordHitId: `bench-hit-${h}`,
        title: "Categorise disaster tweets",
        description: "Choose one category for each of 30 tweets",
        rewardCents: 60,
        maxAssignments: 3,
        lifetimeSeconds: 7 * 86_400,
        assignmentDurationSeconds: 3600,
        autoApprovalDelaySeconds: 3 * 86_400,
        questionXml: questions[h],
      });
      if (r.duplicate) duplicateFlags++;
      ids.add(r.providerHitId);
    });
  const secs = await run();
  const inState = sim.state.hitOrder.length;
  console.log(
    `publish ${HITS} HITs (30 tweets each; question ${sizes[0]}–${sizes[sizes.length - 1]} bytes, median ${sizes[sizes.length >> 1]}; built in ${buildSecs.toFixed(1)} s) ` +
      `through MturkProvider, concurrency ${CONCURRENCY}: ${secs.toFixed(1)} s → ${(HITS / secs).toFixed(0)} HITs/s`,
  );
  console.log(
    `  injected: ${sim.stats.serviceFaults} ServiceFaults (10%, half after the HIT was created), ${sim.stats.throttled} ThrottlingExceptions (3% at random plus any above 250 req/s); ` +
      `${sim.stats.requests} requests in all`,
  );
  console.log(`  HITs in the simulator: ${inState}; distinct ids returned: ${ids.size}; duplicates: ${inState - HITS}; recovered via HitAlreadyExists: ${duplicateFlags}`);
  // A resumed run (same Accord HIT ids) creates nothing new.
  sim.setFaults({});
  duplicateFlags = 0;
  const resumeSecs = await run();
  console.log(`  resumed run over the same ${HITS} Accord HIT ids: ${resumeSecs.toFixed(1)} s, all duplicate=true: ${duplicateFlags === HITS}, HITs in the simulator: ${sim.state.hitOrder.length}`);
  provider.client.destroy();
  await sim.stop();
  if (inState !== HITS || ids.size !== HITS) process.exitCode = 1;
}

const tweets = loadTweets();
console.log(`tweets for HIT text: ${tweets.length}`);
if (values.only !== "publish") await throughput(tweets);
if (values.only !== "throughput") await publishRun(tweets);
