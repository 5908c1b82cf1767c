// Benchmark of the campaign engine (issue 6): publishing 3,700 HITs and deciding their 11,100 assignments against
// the MTurk simulator with throttling on; the target is under 60 s of Accord's own work, excluding the
// simulator's throttle waits.
//   npx tsx scripts/bench/campaign.ts [--hits 3700] [--throttle 50] [--throttle-fraction 0.03] [--only off|on] [--concurrency 4]
//                                     [--profile DIR]  (a CPU profile of each timed phase)
// Two runs on fresh databases in this process:
//   off — no throttling: wall time = Accord's own work (plus the simulator answering in this same process);
//   on  — throttling at --throttle requests/s plus --throttle-fraction of requests at random (ThrottlingException,
//         as MTurk answers): wall time, the time the SDK spent waiting in its retry back-off and client-side rate
//         limiter (summed over calls), and the process CPU time (Accord + SQLite + the in-process simulator,
//         without any waiting). The simulator's own share is measured (time inside its service) and subtracted:
//         Accord's own work = process CPU − simulator service time.
// The workers are passive scripted workers (30 of them, every HIT worked by three, all gold right) whose
// submissions are made directly in the simulator between the two timed phases: only Accord's work is timed.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import fs from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createMturkClient } from "@/lib/crowd/mturk/client";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { goldQuestionId } from "@/lib/crowd/mturk/qualification-xml";
import { MturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { startSimulator } from "@/lib/crowd/simulator/server";
import { testWorker } from "@/lib/crowd/test-fixtures";
import { createDb, prepareDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { ensureHumaidScheme } from "@/lib/events/schemes";
import { drainJobs, registerJobHandler } from "@/lib/jobs/runner";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { createHitBatch, runPublishJob } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { simulationTemplatePath } from "@/lib/campaign/simulate";
import { ACTIVE_HIT_STATUSES, syncDueHits } from "@/lib/campaign/sync";

const { values } = parseArgs({
  options: {
    hits: { type: "string", default: "3700" },
    throttle: { type: "string", default: "50" },
    "throttle-fraction": { type: "string", default: "0.03" },
    only: { type: "string" },
    concurrency: { type: "string", default: "4" },
    /** Writes a CPU profile of each timed phase (publish-off.cpuprofile, decide-on.cpuprofile, …) into this folder. */
    profile: { type: "string" },
  },
});
const HITS = Number(values.hits);
const THROTTLE = Number(values.throttle);
const THROTTLE_FRACTION = Number(values["throttle-fraction"]);
const CONCURRENCY = Number(values.concurrency);
const LABELS = HUMAID_LABELS.map((l) => l.value);
const WORKERS = Array.from({ length: 30 }, (_, i) => `ABENCH${String(i).padStart(8, "0")}`);

async function templateDb(): Promise<string> {
  const cached = simulationTemplatePath();
  if (fs.existsSync(cached)) return cached;
  const building = `${cached}.${process.pid}.tmp`;
  await migrateDatabase({ url: `file:${building}` });
  fs.renameSync(building, cached);
  return cached;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

type Timing = { wallMs: number; cpuMs: number; sdkWaitMs: number; simulatorMs: number };
type Meters = { waits: number; simulator: number };

async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!values.profile) return fn();
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(values.profile, { recursive: true });
    fs.writeFileSync(path.join(values.profile, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

async function timed(fn: () => Promise<unknown>, m: Meters, name = "phase"): Promise<Timing> {
  const w0 = m.waits;
  const s0 = m.simulator;
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  await profiled(name, fn);
  const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
  const u = process.cpuUsage(c);
  return { wallMs, cpuMs: (u.user + u.system) / 1000, sdkWaitMs: m.waits - w0, simulatorMs: m.simulator - s0 };
}

async function runOnce(throttle: boolean) {
  const dir = fs.mkdtempSync(path.join(tmpdir(), "accord-bench-campaign-"));
  const file = path.join(dir, "bench.db");
  fs.copyFileSync(await templateDb(), file);
  const db = createDb(`file:${file}`);
  await prepareDb(db); // WAL and synchronous=NORMAL, as the server and `accord worker` run
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  const clock = new ManualClock();
  const sim = await startSimulator({ seed: 3, clock, workers: WORKERS.map((id) => testWorker(id)), balanceCents: 1_000_000_000 });
  try {
    // Data: HITS × 20 unknown tweets, 50 gold.
    const schemeId = await ensureHumaidScheme(db);
    const event = await db.event.create({ data: { slug: "bench", name: "Benchmark flood", type: "flood", schemeId, provider: "mturk", locations: [], settings: {}, filters: {} } });
    const rows = [
      ...Array.from({ length: HITS * 20 }, (_, i) => ({ role: "unknown", i, label: LABELS[i % LABELS.length] })),
      ...Array.from({ length: 50 }, (_, i) => ({ role: "gold", i, label: LABELS[(i * 3) % LABELS.length] })),
    ];
    for (let k = 0; k < rows.length; k += 2_000) {
      await db.tweet.createMany({
        data: rows.slice(k, k + 2_000).map((r) => ({
          eventId: event.id,
          externalId: `${r.role === "gold" ? 9 : 1}${String(r.i).padStart(17, "0")}`,
          text: `${r.role} tweet ${r.i}: ${r.label.replace(/_/g, " ")} reported near the river, roads closed #flood`,
          role: r.role,
          goldLabel: r.role === "gold" ? r.label : null,
          sourceLabel: r.role === "unknown" ? r.label : null,
        })),
      });
    }
    await db.setting.create({ data: { key: "crowd.simulatorUrl", value: sim.url } });
    const client = createMturkClient({ mode: "simulator", simulatorUrl: sim.url, maxAttempts: 20 });
    // The SDK's own retry strategy (adaptive, as in production), timed: back-off sleeps and rate-limiter waits.
    const meters: Meters = { waits: 0, simulator: 0 };
    // The simulator's share of this process's CPU: its service handles each request synchronously.
    const call = sim.service.call.bind(sim.service);
    sim.service.call = (operation: string, body: unknown) => {
      const t = performance.now();
      try {
        return call(operation, body);
      } finally {
        meters.simulator += performance.now() - t;
      }
    };
    const strategy = (await client.config.retryStrategy()) as unknown as {
      acquireInitialRetryToken: (scope: string) => Promise<unknown>;
      refreshRetryTokenForRetry: (token: unknown, info: unknown) => Promise<unknown>;
    };
    for (const name of ["acquireInitialRetryToken", "refreshRetryTokenForRetry"] as const) {
      const original = strategy[name].bind(strategy) as (a: unknown, b: unknown) => Promise<unknown>;
      strategy[name] = (async (a: unknown, b: unknown) => {
        const t = performance.now();
        try {
          return await original(a, b);
        } finally {
          meters.waits += performance.now() - t;
        }
      }) as never;
    }
    const provider = new MturkProvider({ client, mode: "simulator", endpoint: sim.url });
    const test = await createQualificationTest({ db, provider, eventId: event.id, seed: 1 });
    for (const w of WORKERS) {
      const answers: Record<string, string> = {};
      const gold = await db.tweet.findMany({ where: { id: { in: test.goldTweetIds as string[] } }, select: { id: true, goldLabel: true } });
      const byId = new Map(gold.map((g) => [g.id, g.goldLabel as string]));
      (test.goldTweetIds as string[]).forEach((id, i) => (answers[goldQuestionId(i + 1)] = byId.get(id) as string));
      sim.service.takeQualificationTest({ workerId: w, qualificationTypeId: test.providerQualTypeId as string, answers });
    }
    if (throttle) sim.setFaults({ throttleRate: THROTTLE, throttleBurst: Math.max(1, Math.round(THROTTLE / 5)), throttleFraction: THROTTLE_FRACTION });

    // Phase 1: estimate, pack and store the batch, then the publish job.
    registerJobHandler("publish", (ctx) => runPublishJob(ctx, { provider, concurrency: CONCURRENCY }));
    const publish = await timed(async () => {
      await createHitBatch({
        db,
        eventId: event.id,
        provider,
        options: { hitCount: HITS, rewardCents: 50, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise 30 disaster tweets", description: "Choose the category of each tweet", keywords: "tweets", seed: 9 },
      });
      const outcomes = await drainJobs(db, { types: ["publish"] });
      if (outcomes.join() !== "succeeded") throw new Error(`publish job: ${outcomes.join()}`);
    }, meters, `publish-${throttle ? "on" : "off"}`);
    const published = await db.hit.count({ where: { eventId: event.id, status: "published" } });

    // The workers (not timed): three per HIT, every answer right.
    const hitIds = (await db.hit.findMany({ where: { eventId: event.id }, orderBy: { seq: "asc" }, select: { id: true } })).map((h) => h.id);
    console.log(`  (published ${published} HITs: wall ${s(publish.wallMs)}, cpu ${s(publish.cpuMs)}; the workers submit now)`);
    for (let k = 0; k < hitIds.length; k += 200) {
      const hits = await db.hit.findMany({
        where: { id: { in: hitIds.slice(k, k + 200) } },
        orderBy: { seq: "asc" },
        select: { providerHitId: true, items: { orderBy: { position: "asc" }, select: { id: true, position: true, isGold: true, tweet: { select: { goldLabel: true, sourceLabel: true } } } } },
      });
      hits.forEach((h, j) => {
        const i = k + j;
        const fields: Record<string, string> = {};
        for (const it of h.items) fields[hitFieldName(it.position + 1, it.id)] = (it.isGold ? it.tweet.goldLabel : it.tweet.sourceLabel) as string;
        for (let w = 0; w < 3; w++) {
          const workerId = WORKERS[(i * 3 + w) % WORKERS.length];
          const assignmentId = sim.service.acceptHit({ workerId, hitId: h.providerHitId as string });
          sim.service.submitAssignment({ assignmentId, fields });
        }
      });
      clock.advance(60);
    }

    // Phase 2: the sync loop decides every assignment and every HIT.
    let passes = 0;
    const decide = await timed(async () => {
      for (;;) {
        passes++;
        await syncDueHits(db, { owner: "bench", limit: 100, minIntervalMs: 0, provider, concurrency: CONCURRENCY });
        if ((await db.hit.count({ where: { eventId: event.id, status: { in: ACTIVE_HIT_STATUSES } } })) === 0) break;
      }
    }, meters, `decide-${throttle ? "on" : "off"}`);
    const [approved, decided, errors] = await Promise.all([
      db.hit.count({ where: { eventId: event.id, status: "approved" } }),
      db.assignment.count({ where: { decisionSentAt: { not: null } } }),
      db.hit.count({ where: { syncError: { not: null } } }),
    ]);
    const ledger = (await db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents ?? 0;
    const debits = sim.state.ledger.reduce((n, e) => n + e.amountCents + e.feeCents, 0);
    return { publish, decide, published, approved, decided, errors, passes, ledger, debits, stats: { ...sim.stats } };
  } finally {
    await sim.stop();
    await db.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`campaign benchmark: ${HITS} HITs (${HITS * 20} unknown tweets), ${HITS * 3} assignments, publish/sync concurrency ${CONCURRENCY}; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
const own = (t: Timing) => t.cpuMs - t.simulatorMs;
for (const mode of ["off", "on"] as const) {
  if (values.only && values.only !== mode) continue;
  const r = await runOnce(mode === "on");
  const line = (name: string, t: Timing) =>
    `  ${name.padEnd(44)} wall ${s(t.wallMs).padStart(7)}  cpu ${s(t.cpuMs).padStart(7)}  simulator ${s(t.simulatorMs).padStart(6)}  Accord ${s(own(t)).padStart(7)}  SDK waits ${s(t.sdkWaitMs)}`;
  const total: Timing = {
    wallMs: r.publish.wallMs + r.decide.wallMs,
    cpuMs: r.publish.cpuMs + r.decide.cpuMs,
    simulatorMs: r.publish.simulatorMs + r.decide.simulatorMs,
    sdkWaitMs: r.publish.sdkWaitMs + r.decide.sdkWaitMs,
  };
  console.log(
    `\nthrottling ${mode === "on" ? `on (${THROTTLE} req/s, burst ${Math.max(1, Math.round(THROTTLE / 5))}, plus ${THROTTLE_FRACTION * 100}% at random)` : "off"}: ${r.published} HITs published, ${r.decided} assignments decided, ${r.approved} HITs approved, ${r.errors} sync errors, ${r.passes} sync passes\n` +
      `${line("publish (estimate, pack, store, publish job)", r.publish)}\n${line("decide (sync passes until every HIT decided)", r.decide)}\n${line("total", total)}\n` +
      `  requests ${r.stats.requests}, throttled ${r.stats.throttled}; ledger $${(r.ledger / 100).toFixed(2)} = simulator debits $${(r.debits / 100).toFixed(2)}: ${r.ledger === r.debits ? "yes" : "NO"}\n` +
      `  Accord's own work (CPU of this process minus the simulator's service time; no waiting): ${s(own(total))} — target < 60 s: ${own(total) < 60_000 ? "met" : "MISSED"}`,
  );
}
