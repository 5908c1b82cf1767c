/**
 * The Agreement page's request, piece by piece: what each read of lib/events/page-data.ts loadAgreementPage (and
 * the rest of the page render: the event layout's settings check, the simulated-workers note, the header) costs on
 * a generated event, and what the replay grid (lib/analysis/replay.ts) costs — the part that ran inside the request
 * with ?replay=1 before it became a recorded job. Prints p50/max per piece and the load average.
 *
 * Run: npx tsx --conditions=react-server scripts/bench/agreement-page.ts [--reuse] [--small] [--runs 10] [--snapshots 2000]
 *   --small      a 1/10 event (370 HITs) instead of HumAID scale (3,700 HITs, 333,000 judgments)
 *   --snapshots  metric snapshots of the event (a demo left running writes one per round of decisions): 60 computed
 *                over the campaign, the rest copies of them at later times (computing thousands would take hours)
 *   --reuse      keep the database of an earlier run (.tmp/bench-agreement/)
 */
import fs from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDb, type Db, prepareDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { JOB_STATE } from "@/lib/db/enums";
import { seedEventFixture } from "@/lib/demo/fixture";
import { analysisStatus, analysisVersion, computeEventAnalysis, EVENT_ANALYSIS_JOB } from "@/lib/analysis/analysis";
import { labelDistribution, snapshotSeries } from "@/lib/analysis/agreement";
import { crowdCurrency } from "@/lib/events/event-currency";
import { eventSettingsProblem, findEventBySlug, labelsOfScheme } from "@/lib/events/event-lookup";
import { loadAgreementPage } from "@/lib/events/page-data";
import { loadPriorRecordsOfEvent, loadRecordedEvent, replayOutcomes } from "@/lib/analysis/replay";
import { replayStatus } from "@/lib/analysis/replay-job";
import { usesSimulatedWorkers } from "@/lib/events/simulated";

const { values: args } = parseArgs({
  options: {
    reuse: { type: "boolean", default: false },
    small: { type: "boolean", default: false },
    runs: { type: "string", default: "10" },
    snapshots: { type: "string", default: "2000" },
  },
});
const RUNS = Number(args.runs);
const SCALE = args.small ? 0.1 : 1;
const SLUG = "agreement_bench";
const DIR = path.resolve(process.cwd(), ".tmp/bench-agreement");
const FILE = path.join(DIR, `accord-${args.small ? "small" : "full"}-${args.snapshots}.db`);
const URL_ = `file:${FILE}`;

async function generate(): Promise<Db> {
  fs.mkdirSync(DIR, { recursive: true });
  if (args.reuse && fs.existsSync(FILE)) {
    const db = createDb(URL_);
    await prepareDb(db);
    if (await db.event.findUnique({ where: { slug: SLUG } })) return db;
    await db.$disconnect();
  }
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(FILE + suffix, { force: true });
  await migrateDatabase({ url: URL_ });
  const db = createDb(URL_);
  await prepareDb(db);
  const t = performance.now();
  await seedEventFixture(db, {
    slug: SLUG,
    tweets: Math.round(110_000 * SCALE) - 500,
    gold: 500,
    campaign: { hits: Math.round(3_700 * SCALE), extend: false, seed: 7, snapshots: Math.min(60, Number(args.snapshots)), durationMs: 10 * 24 * 3600_000, startAt: new Date(Date.UTC(2025, 0, 1)) },
  });
  const event = await db.event.findUniqueOrThrow({ where: { slug: SLUG }, select: { id: true } });
  const computed = await db.metricSnapshot.findMany({ where: { eventId: event.id }, orderBy: { at: "asc" } });
  const extra = Math.max(0, Number(args.snapshots) - computed.length);
  const last = computed[computed.length - 1];
  for (let i = 0; i < extra; i += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, extra - i) }, (_, k) => {
      const { id: _id, ...copy } = computed[(i + k) % computed.length];
      return { ...copy, at: new Date(last.at.getTime() + (i + k + 1) * 60_000), scopes: copy.scopes as object };
    });
    await db.metricSnapshot.createMany({ data: rows });
  }
  // The background analysis, stored as its job stores it (the page reads the newest).
  const analysis = await computeEventAnalysis(db, event.id);
  await db.job.create({ data: { type: EVENT_ANALYSIS_JOB, state: JOB_STATE.succeeded, eventId: event.id, payload: { eventId: event.id }, result: analysis as unknown as object, finishedAt: new Date() } });
  console.log(`generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return db;
}

async function time(name: string, fn: () => Promise<unknown>, runs = RUNS) {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`  ${name.padEnd(52)} p50 ${ms[Math.floor(ms.length / 2)].toFixed(1).padStart(9)} ms   max ${ms[ms.length - 1].toFixed(1).padStart(9)} ms   (n=${runs})`);
}

const db = await generate();
const event = (await findEventBySlug(db, SLUG))!;
const [hits, assignments, judgments, snapshots] = await Promise.all([
  db.hit.count({ where: { eventId: event.id } }),
  db.assignment.count({ where: { hit: { eventId: event.id } } }),
  db.judgment.count({ where: { tweet: { eventId: event.id } } }),
  db.metricSnapshot.count({ where: { eventId: event.id } }),
]);
console.log(`event: ${hits} HITs, ${assignments} assignments, ${judgments} judgments, ${snapshots} metric snapshots; load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);

console.log("the page's reads:");
await time("loadAgreementPage (all of it)", () => loadAgreementPage(db, SLUG));
await time("  findEventBySlug", () => findEventBySlug(db, SLUG));
await time("  snapshotSeries (count + thinned series)", () => snapshotSeries(db, event.id));
await time("  latest snapshot", () => db.metricSnapshot.findFirst({ where: { eventId: event.id }, orderBy: [{ at: "desc" }, { id: "desc" }] }));
await time("  analysisStatus (newest result + version)", () => analysisStatus(db, event.id));
await time("    analysisVersion", () => analysisVersion(db, event.id));
await time("  replayStatus (the replay card: two job rows)", () => replayStatus(db, event));
await time("  labelDistribution", () => labelDistribution(db, { id: event.id, schemeId: event.scheme.id }));
await time("  labelsOfScheme", () => labelsOfScheme(db, event.scheme.id));
await time("  crowdCurrency", () => crowdCurrency(db, event.provider));
await time("layout: eventSettingsProblem", () => eventSettingsProblem(db, SLUG));
await time("usesSimulatedWorkers (page + header: twice)", () => usesSimulatedWorkers(db, event));
console.log("the replay (before: inside the request with ?replay=1; now the replay job):");
await time("loadRecordedEvent (paged)", () => loadRecordedEvent(db, event.id), 3);
await time("loadRecordedEvent in one query (as before)", () => loadRecordedEvent(db, event.id, { perQuery: 1_000_000 }).catch((err: Error) => console.log(`    fails: ${err.message.trim().split("\n").at(-1)}`)), 1);
await time("  loadPriorRecordsOfEvent", () => loadPriorRecordsOfEvent(db, event.id), 3);
const recorded = await loadRecordedEvent(db, event.id);
await time("replayOutcomes (the grid, CPU)", async () => replayOutcomes(recorded, event.settings), 3);
console.log("not in the request, but in the server's process (the job runner shares its event loop):");
await time("computeEventAnalysis (the analysis job, re-run while stale)", () => computeEventAnalysis(db, event.id), 1);
console.log(`load after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
await db.$disconnect();
