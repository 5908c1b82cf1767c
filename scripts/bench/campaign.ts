// Benchmark of the campaign engine (issue 6): publishing 3,700 HITs and deciding their 11,100 assignments against
// the MTurk simulator with throttling on; the target is under 60 s of Accord's own work, excluding the
// simulator's throttle waits.
//   npx tsx scripts/bench/campaign.ts [--hits 3700] [--throttle 50] [--throttle-fraction 0.03] [--only off|on] [--concurrency 4]
//                                     [--pass-hits N] (HITs claimed per sync pass; default the live loop's SYNC_PASS_HITS)
//                                     [--retry-mode standard|adaptive] (the SDK's; default standard, as Accord runs)
//                                     [--throttle-retries gate|sdk] (who retries a throttled call: the provider's
//                                       ThrottleGate, as Accord runs, or the SDK call by call, as before it)
//                                     [--profile DIR]  (a CPU profile of each timed phase)
//                                     [--keep-db FILE] (keeps each run's database as FILE-off.db / FILE-on.db)
// The simulator runs in a child process of its own (as `accord simulator` does next to a real deployment), so
// this process's CPU time is Accord's own work: the SDK client, the database, the procedure — none of the
// simulator's request handling, and no waiting (the simulator's throttling and the SDK's back-off are idle time).
// Two runs on fresh databases:
//   off — no throttling;
//   on  — throttling at --throttle requests/s plus --throttle-fraction of requests at random (ThrottlingException,
//         as MTurk answers); also printed: wall time, the time the SDK spent waiting in its retry back-off and
//         client-side rate limiter (summed over concurrent calls), and the provider's throttle-gate pauses.
// The workers are passive scripted workers (30 of them, every HIT worked by three, all gold right) whose
// submissions are made in the simulator process between the two timed phases: only Accord's work is timed. The
// decide phase ends with the deferred follow-ups (worker statistics, agreement snapshot) flushed, so their cost is in.
// First, a host check (idlePenalty): what the same reference work costs back to back and after an idle gap, which
// is how a throttled campaign does its work; the throttled run also prints its ratio to the unthrottled one.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { type ChildProcess, fork } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_RETRY_MODE, type MturkRetryMode } from "@/lib/crowd/mturk/client";
import { hitFieldName } from "@/lib/crowd/mturk/hit-question";
import { goldQuestionId } from "@/lib/crowd/mturk/qualification-xml";
import { createMturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import type { ThrottleGateStats } from "@/lib/crowd/throttle-gate";
import { ManualClock } from "@/lib/crowd/simulator/clock";
import { type RunningSimulator, startSimulator } from "@/lib/crowd/simulator/server";
import { testWorker } from "@/lib/crowd/test-fixtures";
import { createDb, prepareDb } from "@/lib/db/client";
import { ensureHumaidScheme } from "@/lib/labels/schemes";
import { accordJobs } from "@/lib/jobs/accord-jobs";
import { JOBS } from "@/lib/jobs/job-types";
import { drainJobs } from "@/lib/jobs/runner";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { createHitBatch } from "@/lib/campaign/publish";
import { createQualificationTest } from "@/lib/campaign/qualification";
import { ensureTemplate } from "@/lib/campaign/simulate";
import { ACTIVE_HIT_STATUSES, flushSyncFollowUps, SYNC_PASS_HITS, syncDueHits } from "@/lib/campaign/sync";
import { HIT_STATUS, PROVIDER_KIND, TWEET_ROLE } from "@/lib/db/enums";

const { values } = parseArgs({
  options: {
    hits: { type: "string", default: "3700" },
    throttle: { type: "string", default: "50" },
    "throttle-fraction": { type: "string", default: "0.03" },
    only: { type: "string" },
    concurrency: { type: "string", default: "4" },
    /** HITs claimed per sync pass (default: the live loop's SYNC_PASS_HITS). */
    "pass-hits": { type: "string" },
    "retry-mode": { type: "string", default: DEFAULT_RETRY_MODE },
    /** Who retries throttled calls: the provider's ThrottleGate ("gate", as Accord runs) or the SDK call by call ("sdk"). */
    "throttle-retries": { type: "string", default: "gate" },
    /** Writes a CPU profile of each timed phase (publish-off.cpuprofile, decide-on.cpuprofile, …) into this folder. */
    profile: { type: "string" },
    /** Keeps each run's database (checkpointed) as FILE-off.db / FILE-on.db, to study its queries afterwards. */
    "keep-db": { type: "string" },
    /** (internal) run as the simulator's process, driven over IPC by the benchmark. */
    "simulator-child": { type: "boolean", default: false },
  },
});
const HITS = Number(values.hits);
const THROTTLE = Number(values.throttle);
const THROTTLE_FRACTION = Number(values["throttle-fraction"]);
const CONCURRENCY = Number(values.concurrency);
const PASS_HITS = Number(values["pass-hits"] ?? SYNC_PASS_HITS);
const RETRY_MODE = values["retry-mode"] as MturkRetryMode;
if (RETRY_MODE !== "standard" && RETRY_MODE !== "adaptive") throw new Error(`--retry-mode is standard or adaptive, not ${RETRY_MODE}`);
// Adaptive mode's rate limiter works inside the SDK: its throttled calls are always the SDK's to retry.
const THROTTLE_RETRIES = RETRY_MODE === "adaptive" ? "sdk" : values["throttle-retries"];
if (THROTTLE_RETRIES !== "gate" && THROTTLE_RETRIES !== "sdk") throw new Error(`--throttle-retries is gate or sdk, not ${THROTTLE_RETRIES}`);
const LABELS = HUMAID_LABELS.map((l) => l.value);
const WORKERS = Array.from({ length: 30 }, (_, i) => `ABENCH${String(i).padStart(8, "0")}`);

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

type Timing = { wallMs: number; cpuMs: number; sysMs: number; sdkWaitMs: number; pauses: number; pausedMs: number };
type Meters = { waits: number; gate: ThrottleGateStats };

// ── The simulator's process ─────────────────────────────────────────────────────────────────────────────────────
type SubmitHit = { providerHitId: string; fields: Record<string, string>; workers: string[] };
type SimRequest =
  | { op: "qualify"; workerId: string; qualificationTypeId: string; answers: Record<string, string> }
  | { op: "faults"; faults: Parameters<RunningSimulator["setFaults"]>[0] }
  | { op: "submit"; hits: SubmitHit[]; advanceSeconds: number }
  | { op: "summary" };
type SimSummary = { stats: RunningSimulator["stats"]; debitsCents: number };

async function simulatorChild(): Promise<void> {
  const clock = new ManualClock();
  const sim = await startSimulator({ seed: 3, clock, workers: WORKERS.map((id) => testWorker(id)), balanceCents: 1_000_000_000 });
  const handle = (req: SimRequest): unknown => {
    if (req.op === "qualify") return sim.service.takeQualificationTest({ workerId: req.workerId, qualificationTypeId: req.qualificationTypeId, answers: req.answers });
    if (req.op === "faults") return sim.setFaults(req.faults);
    if (req.op === "submit") {
      for (const h of req.hits) {
        for (const workerId of h.workers) {
          const assignmentId = sim.service.acceptHit({ workerId, hitId: h.providerHitId });
          sim.service.submitAssignment({ assignmentId, fields: h.fields });
        }
      }
      clock.advance(req.advanceSeconds);
      return null;
    }
    return { stats: sim.stats, debitsCents: sim.state.ledger.reduce((n, e) => n + e.amountCents + e.feeCents, 0) } satisfies SimSummary;
  };
  process.on("message", (m: { id: number; req: SimRequest }) => {
    try {
      process.send?.({ id: m.id, result: handle(m.req) ?? null });
    } catch (err) {
      process.send?.({ id: m.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  process.on("disconnect", () => void sim.stop().finally(() => process.exit(0)));
  process.send?.({ ready: sim.url });
}

async function simulatorProcess(): Promise<{ url: string; call: <T>(req: SimRequest) => Promise<T>; stop: () => Promise<void> }> {
  const child: ChildProcess = fork(process.argv[1], ["--simulator-child"], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      const err = new Error(`the simulator's process exited (${code})`);
      reject(err);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    });
    child.on("message", (m: { ready?: string; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) return resolve(m.ready);
      const p = pending.get(m.id as number);
      pending.delete(m.id as number);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.result);
    });
  });
  return {
    url,
    call: <T,>(req: SimRequest) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, req });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.disconnect();
      }),
  };
}

/**
 * The host's charge for idling. A throttled campaign does the same work as an unthrottled one, but spread over
 * minutes of waiting: each request is handled after an idle gap. On this kind of machine (a shared VM) work done
 * right after an idle gap costs more CPU time than the same work back to back (cold caches, the vCPU woken from
 * halt). This measures it on a fixed reference task (JSON round trip and SHA-256 of a request-sized document), so
 * the throttled figure can be read against the unthrottled one.
 */
async function idlePenalty(): Promise<{ backToBackMs: number; gapMs: Record<number, number> }> {
  const doc = { items: Array.from({ length: 400 }, (_, i) => ({ id: `item-${i}`, label: LABELS[i % LABELS.length], text: `reference tweet ${i} about the flood` })) };
  const task = () => createHash("sha256").update(JSON.stringify(JSON.parse(JSON.stringify(doc)))).digest("hex");
  const perOp = async (n: number, gap: number) => {
    const c = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      task();
      await new Promise((r) => (gap ? setTimeout(r, gap) : setImmediate(r))); // gap 0: an event-loop turn, no idle time
    }
    const u = process.cpuUsage(c);
    return (u.user + u.system) / 1000 / n;
  };
  await perOp(300, 0); // warm up
  const backToBackMs = await perOp(600, 0);
  const gapMs: Record<number, number> = {};
  for (const gap of [20, 100]) gapMs[gap] = await perOp(gap === 20 ? 150 : 40, gap);
  return { backToBackMs, gapMs };
}

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
  const g0 = { ...m.gate };
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  await profiled(name, fn);
  const wallMs = Number(process.hrtime.bigint() - t) / 1e6;
  const u = process.cpuUsage(c);
  return { wallMs, cpuMs: (u.user + u.system) / 1000, sysMs: u.system / 1000, sdkWaitMs: m.waits - w0, pauses: m.gate.pauses - g0.pauses, pausedMs: m.gate.pausedMs - g0.pausedMs };
}

async function runOnce(throttle: boolean) {
  const dir = fs.mkdtempSync(path.join(tmpdir(), "accord-bench-campaign-"));
  const file = path.join(dir, "bench.db");
  fs.copyFileSync(await ensureTemplate(), file);
  const db = createDb(`file:${file}`);
  await prepareDb(db); // WAL and synchronous=NORMAL, as the server and `accord worker` run
  const sim = await simulatorProcess();
  try {
    // Data: HITS × 20 unknown tweets, 50 gold.
    const schemeId = await ensureHumaidScheme(db);
    const event = await db.event.create({ data: { slug: "bench", name: "Benchmark flood", type: "flood", schemeId, provider: PROVIDER_KIND.mturk, locations: [], settings: {}, filters: {} } });
    const rows = [
      ...Array.from({ length: HITS * 20 }, (_, i) => ({ role: TWEET_ROLE.unknown, i, label: LABELS[i % LABELS.length] })),
      ...Array.from({ length: 50 }, (_, i) => ({ role: TWEET_ROLE.gold, i, label: LABELS[(i * 3) % LABELS.length] })),
    ];
    for (let k = 0; k < rows.length; k += 2_000) {
      await db.tweet.createMany({
        data: rows.slice(k, k + 2_000).map((r) => ({
          eventId: event.id,
          externalId: `${r.role === TWEET_ROLE.gold ? 9 : 1}${String(r.i).padStart(17, "0")}`,
          text: `${r.role} tweet ${r.i}: ${r.label.replace(/_/g, " ")} reported near the river, roads closed #flood`,
          role: r.role,
          goldLabel: r.role === TWEET_ROLE.gold ? r.label : null,
          sourceLabel: r.role === TWEET_ROLE.unknown ? r.label : null,
        })),
      });
    }
    await db.setting.create({ data: { key: "crowd.simulatorUrl", value: sim.url } });
    // The provider as Accord makes it (createMturkProvider: in standard mode, throttling paced by its ThrottleGate).
    const provider = createMturkProvider({ mode: "simulator", simulatorUrl: sim.url, retryMode: RETRY_MODE, ...(THROTTLE_RETRIES === "sdk" ? { throttling: "sdk" as const, maxAttempts: 20 } : {}) });
    // The SDK's own retry strategy, timed: back-off sleeps (and, in adaptive mode, the rate limiter's waits).
    const meters: Meters = { waits: 0, gate: provider.gate.stats };
    const strategy = (await provider.client.config.retryStrategy()) as unknown as {
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
    const test = await createQualificationTest({ db, provider, eventId: event.id, seed: 1 });
    const gold = await db.tweet.findMany({ where: { id: { in: test.goldTweetIds as string[] } }, select: { id: true, goldLabel: true } });
    const goldLabel = new Map(gold.map((g) => [g.id, g.goldLabel as string]));
    const answers: Record<string, string> = {};
    (test.goldTweetIds as string[]).forEach((id, i) => (answers[goldQuestionId(i + 1)] = goldLabel.get(id) as string));
    for (const workerId of WORKERS) await sim.call({ op: "qualify", workerId, qualificationTypeId: test.providerQualTypeId as string, answers });
    if (throttle) await sim.call({ op: "faults", faults: { throttleRate: THROTTLE, throttleBurst: Math.max(1, Math.round(THROTTLE / 5)), throttleFraction: THROTTLE_FRACTION } });

    // Phase 1: estimate, pack and store the batch, then the publish job.
    const registry = accordJobs({ provider, publishConcurrency: CONCURRENCY });
    const publish = await timed(async () => {
      await createHitBatch({
        db,
        eventId: event.id,
        provider,
        options: { hitCount: HITS, rewardCents: 50, lifetimeSeconds: 3 * 86_400, durationSeconds: 3600, autoApprovalSeconds: 3 * 86_400, title: "Categorise 30 disaster tweets", description: "Choose the category of each tweet", keywords: "tweets", seed: 9 },
      });
      const outcomes = await drainJobs(db, { registry, types: [JOBS.publish.type] });
      if (outcomes.join() !== "succeeded") throw new Error(`publish job: ${outcomes.join()}`);
    }, meters, `publish-${throttle ? "on" : "off"}`);
    const published = await db.hit.count({ where: { eventId: event.id, status: HIT_STATUS.published } });

    // The workers (not timed): three per HIT, every answer right.
    const hitIds = (await db.hit.findMany({ where: { eventId: event.id }, orderBy: { seq: "asc" }, select: { id: true } })).map((h) => h.id);
    console.log(`  (published ${published} HITs: wall ${s(publish.wallMs)}, cpu ${s(publish.cpuMs)}; the workers submit now)`);
    for (let k = 0; k < hitIds.length; k += 200) {
      const hits = await db.hit.findMany({
        where: { id: { in: hitIds.slice(k, k + 200) } },
        orderBy: { seq: "asc" },
        select: { providerHitId: true, items: { orderBy: { position: "asc" }, select: { id: true, position: true, isGold: true, tweet: { select: { goldLabel: true, sourceLabel: true } } } } },
      });
      const batch: SubmitHit[] = hits.map((h, j) => {
        const i = k + j;
        const fields: Record<string, string> = {};
        for (const it of h.items) fields[hitFieldName(it.position + 1, it.id)] = (it.isGold ? it.tweet.goldLabel : it.tweet.sourceLabel) as string;
        return { providerHitId: h.providerHitId as string, fields, workers: [0, 1, 2].map((w) => WORKERS[(i * 3 + w) % WORKERS.length]) };
      });
      await sim.call({ op: "submit", hits: batch, advanceSeconds: 60 });
    }

    // Phase 2: the sync loop decides every assignment and every HIT.
    let passes = 0;
    const decide = await timed(async () => {
      for (;;) {
        passes++;
        // Passes of the live loop's size (SYNC_PASS_HITS) unless --pass-hits.
        await syncDueHits(db, { owner: "bench", limit: PASS_HITS, minIntervalMs: 0, provider, concurrency: CONCURRENCY });
        if ((await db.hit.count({ where: { eventId: event.id, status: { in: ACTIVE_HIT_STATUSES } } })) === 0) break;
      }
      await flushSyncFollowUps(db);
    }, meters, `decide-${throttle ? "on" : "off"}`);
    const [approved, decided, errors] = await Promise.all([
      db.hit.count({ where: { eventId: event.id, status: HIT_STATUS.approved } }),
      db.assignment.count({ where: { decisionSentAt: { not: null } } }),
      db.hit.count({ where: { syncError: { not: null } } }),
    ]);
    const ledger = (await db.costEntry.aggregate({ _sum: { amountCents: true } }))._sum.amountCents ?? 0;
    const summary = await sim.call<SimSummary>({ op: "summary" });
    return { publish, decide, published, approved, decided, errors, passes, ledger, debits: summary.debitsCents, stats: summary.stats };
  } finally {
    await sim.stop();
    if (values["keep-db"]) {
      await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
      fs.copyFileSync(file, `${values["keep-db"]}-${throttle ? "on" : "off"}.db`);
    }
    await db.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (values["simulator-child"]) {
  await simulatorChild();
} else {
  console.log(`campaign benchmark: ${HITS} HITs (${HITS * 20} unknown tweets), ${HITS * 3} assignments, publish/sync concurrency ${CONCURRENCY}, SDK retry mode ${RETRY_MODE}, throttled calls retried by the ${THROTTLE_RETRIES === "gate" ? "provider's throttle gate" : "SDK"}; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
  const idle = await idlePenalty();
  console.log(
    `host check: a reference task costs ${idle.backToBackMs.toFixed(2)} ms of CPU back to back, ` +
      Object.entries(idle.gapMs).map(([gap, ms]) => `${ms.toFixed(2)} ms after ${gap} ms idle (×${(ms / idle.backToBackMs).toFixed(2)})`).join(", ") +
      "\n  (throttled, Accord mostly waits: the same work then costs more CPU time on this host)",
  );
  let offCpuMs = 0;
  for (const mode of ["off", "on"] as const) {
    if (values.only && values.only !== mode) continue;
    const r = await runOnce(mode === "on");
    const line = (name: string, t: Timing) =>
      `  ${name.padEnd(44)} wall ${s(t.wallMs).padStart(7)}  Accord (CPU) ${s(t.cpuMs).padStart(7)} (kernel ${s(t.sysMs)})  SDK waits ${s(t.sdkWaitMs)}  throttle pauses ${t.pauses} (${s(t.pausedMs)})`;
    const total: Timing = {
      wallMs: r.publish.wallMs + r.decide.wallMs,
      cpuMs: r.publish.cpuMs + r.decide.cpuMs,
      sysMs: r.publish.sysMs + r.decide.sysMs,
      sdkWaitMs: r.publish.sdkWaitMs + r.decide.sdkWaitMs,
      pauses: r.publish.pauses + r.decide.pauses,
      pausedMs: r.publish.pausedMs + r.decide.pausedMs,
    };
    console.log(
      `\nthrottling ${mode === "on" ? `on (${THROTTLE} req/s, burst ${Math.max(1, Math.round(THROTTLE / 5))}, plus ${THROTTLE_FRACTION * 100}% at random)` : "off"}: ${r.published} HITs published, ${r.decided} assignments decided, ${r.approved} HITs approved, ${r.errors} sync errors, ${r.passes} sync passes of up to ${PASS_HITS} HITs\n` +
        `${line("publish (estimate, pack, store, publish job)", r.publish)}\n${line("decide (sync passes, then the follow-ups)", r.decide)}\n${line("total", total)}\n` +
        `  requests ${r.stats.requests}, throttled ${r.stats.throttled}; ledger $${(r.ledger / 100).toFixed(2)} = simulator debits $${(r.debits / 100).toFixed(2)}: ${r.ledger === r.debits ? "yes" : "NO"}\n` +
        `  Accord's own work (CPU time of this process, all threads; the simulator runs in its own process; no waiting): ${s(total.cpuMs)} — target < 60 s: ${total.cpuMs < 60_000 ? "met" : "MISSED"}` +
        (mode === "on" && offCpuMs ? `\n  the same work unthrottled: ${s(offCpuMs)} (throttled ×${(total.cpuMs / offCpuMs).toFixed(2)}; compare the host check above)` : ""),
    );
    if (mode === "off") offCpuMs = total.cpuMs;
  }
}
