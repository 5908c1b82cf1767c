/**
 * The dashboard at HumAID scale (issue 7): a generated database with 110,000 tweets, 3,700 HITs, 11,100
 * assignments and 333,000 judgments in one event (the worst case for the per-event pages), then
 *  1. the server-side data loading of the Overview, Agreement and HITs pages (exactly what each page render
 *     reads: lib/events/page-data.ts), p50/p95/max over many renders, against the 300 ms target;
 *  2. with --http (needs a built app: node scripts/build-if-needed.mjs), the full server render over HTTP
 *     (next start on the generated database, a signed-in session), p50/p95/max;
 *  3. SSE: a published decision reaching a client of the live route over real HTTP (in-process bus), and, when
 *     DATABASE_URL_PG is set, through PostgreSQL LISTEN/NOTIFY between two connections; plus the decision to
 *     refreshed-Overview time (SSE delivery + one Overview data load), against the 1 s target.
 * Also prints how long generating the database and the background agreement analysis take.
 *
 * Run: npx tsx scripts/bench/dashboard-pages.ts [--reuse] [--runs 40] [--http] [--small]
 *   --reuse  keep the generated database of an earlier run (.tmp/bench-dashboard/accord.db)
 *   --small  a 1/10 database (quick check of the script itself)
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createDb, type Db, prepareDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { seedEventFixture } from "@/lib/demo/fixture";
import { computeEventAnalysis, EVENT_ANALYSIS_JOB } from "@/lib/analysis/analysis";
import { hitListQuerySchema } from "@/lib/events/hits";
import { listTweets, tweetQuerySchema } from "@/lib/events/tweets";
import { createLiveStream, SSE_HEADERS } from "@/lib/events/live-stream";
import { loadAgreementPage, loadHitsPage, loadOverviewPage } from "@/lib/events/page-data";
import { emitLocal, type LiveMessage, publishLive, subscribeLive } from "@/lib/live/bus";
import { createPgRelay } from "@/lib/live/pg-notify";
import { DECISION, JOB_STATE } from "@/lib/db/enums";

const { values: args } = parseArgs({
  options: {
    reuse: { type: "boolean", default: false },
    runs: { type: "string", default: "40" },
    http: { type: "boolean", default: false },
    small: { type: "boolean", default: false },
  },
});
const RUNS = Number(args.runs);
const SCALE = args.small ? 0.1 : 1;
const HITS = Math.round(3_700 * SCALE);
const GOLD = 500;
const TWEETS = Math.round(110_000 * SCALE) - GOLD;
const SLUG = "humaid_scale";
const DIR = path.resolve(process.cwd(), ".tmp/bench-dashboard");
const FILE = path.join(DIR, args.small ? "accord-small.db" : "accord.db");
const URL_ = `file:${FILE}`;
const SECRET = "bench-dashboard-secret-0123456789abcdef";

function stats(ms: number[]) {
  const s = ms.slice().sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { p50: q(0.5), p95: q(0.95), max: s[s.length - 1], n: s.length };
}
const f = (x: number) => x.toFixed(1).padStart(7);
function line(name: string, ms: number[], target?: number, cpu?: number[]) {
  const st = stats(ms);
  const verdict = target === undefined ? "" : st.p95 < target ? `  < ${target} ms ✓` : `  ≥ ${target} ms ✗`;
  const c = cpu ? stats(cpu) : null;
  console.log(`  ${name.padEnd(36)} p50 ${f(st.p50)} ms   p95 ${f(st.p95)} ms   max ${f(st.max)} ms${c ? `   | CPU p50 ${f(c.p50)} p95 ${f(c.p95)} ms` : ""}   (n=${st.n})${verdict}`);
  return st;
}

/** Wall-clock and CPU milliseconds (SQLite runs in this thread, so CPU time is the work itself, unlike wall time on a shared machine). */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; cpu: number; value: T }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const ms = performance.now() - t;
  const u = process.cpuUsage(c);
  return { ms, cpu: (u.user + u.system) / 1000, value };
}

async function generate(): Promise<Db> {
  fs.mkdirSync(DIR, { recursive: true });
  if (args.reuse && fs.existsSync(FILE)) {
    const db = createDb(URL_);
    await prepareDb(db);
    if (await db.event.findUnique({ where: { slug: SLUG } })) {
      console.log(`reusing ${path.relative(process.cwd(), FILE)}`);
      await analyse(db);
      return db;
    }
    await db.$disconnect();
  }
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(FILE + suffix, { force: true });
  await migrateDatabase({ url: URL_ });
  const db = createDb(URL_);
  await prepareDb(db);
  console.log(`generating ${TWEETS + GOLD} tweets (${GOLD} gold), ${HITS} HITs × 3 assignments × 30 judgments …`);
  const gen = await timed(() =>
    seedEventFixture(db, {
      slug: SLUG,
      name: "HumAID-scale event (benchmark)",
      tweets: TWEETS,
      gold: GOLD,
      campaign: { hits: HITS, extend: false, seed: 7, snapshots: 60, durationMs: 10 * 24 * 3600_000, startAt: new Date(Date.UTC(2025, 0, 1)) },
    }),
  );
  console.log(`  generated in ${(gen.ms / 1000).toFixed(1)} s`);
  await analyse(db);
  return db;
}

/** The background analysis (Table 3, per label, majority vote vs Dawid–Skene, gold health), stored as its job stores it. */
async function analyse(db: Db) {
  const event = await db.event.findUniqueOrThrow({ where: { slug: SLUG }, select: { id: true } });
  const analysis = await timed(() => computeEventAnalysis(db, event.id));
  await db.job.deleteMany({ where: { type: EVENT_ANALYSIS_JOB, eventId: event.id } });
  await db.job.create({ data: { type: EVENT_ANALYSIS_JOB, state: JOB_STATE.succeeded, eventId: event.id, payload: { eventId: event.id }, result: analysis.value as unknown as object, finishedAt: new Date() } });
  console.log(`  background analysis job (all judgments: Table 3, per label, Dawid–Skene, gold health): ${(analysis.ms / 1000).toFixed(1)} s wall, ${(analysis.cpu / 1000).toFixed(1)} s CPU (pages never wait for it)`);
}

async function counts(db: Db) {
  const [tweets, hits, assignments, judgments, accepted, snapshots] = await Promise.all([
    db.tweet.count(),
    db.hit.count(),
    db.assignment.count(),
    db.judgment.count(),
    db.acceptedLabel.count(),
    db.metricSnapshot.count(),
  ]);
  console.log(`database: ${tweets.toLocaleString("en-US")} tweets, ${hits.toLocaleString("en-US")} HITs, ${assignments.toLocaleString("en-US")} assignments, ${judgments.toLocaleString("en-US")} judgments, ${accepted.toLocaleString("en-US")} accepted labels, ${snapshots} metric snapshots`);
}

async function benchLoaders(db: Db) {
  console.log(`\nserver-side page data (what one render reads), ${RUNS} renders each after 3 warm-ups (load ${loadavg()[0].toFixed(1)}):`);
  const pages: Array<[string, () => Promise<unknown>]> = [
    ["Overview", () => loadOverviewPage(db, SLUG)],
    ["Agreement", () => loadAgreementPage(db, SLUG)],
    ["HITs (page 1)", () => loadHitsPage(db, SLUG, hitListQuerySchema.parse({}))],
    ["Data: tweets table (page 1 of 2,200)", async () => listTweets(db, (await db.event.findUniqueOrThrow({ where: { slug: SLUG } })).id, tweetQuerySchema.parse({}))],
    ["HITs (page 74, sorted by agreement)", () => loadHitsPage(db, SLUG, hitListQuerySchema.parse({ page: String(Math.max(1, Math.floor(HITS / 50))), sort: "-accepted" }))],
  ];
  const out: Record<string, ReturnType<typeof stats>> = {};
  for (const [name, fn] of pages) {
    for (let i = 0; i < 3; i++) await fn();
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await timed(fn);
      ms.push(r.ms);
      cpu.push(r.cpu);
    }
    out[name] = line(name, ms, 300, cpu);
  }
  return out;
}

/** Reads SSE `data:` messages from a fetch response, calling onMessage for each. */
async function readSse(res: Response, onMessage: (m: LiveMessage) => void, signal: AbortSignal) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  signal.addEventListener("abort", () => reader.cancel().catch(() => undefined));
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split("\n").find((l) => l.startsWith("data: "));
      if (data) onMessage(JSON.parse(data.slice(6)) as LiveMessage);
    }
  }
}

async function benchSse(db: Db, overviewP95: number) {
  console.log("\nSSE: a decision published → received by a client of the live route (real HTTP, loopback):");
  const server = http.createServer(async (req, res) => {
    const abort = new AbortController();
    req.on("close", () => abort.abort());
    res.writeHead(200, SSE_HEADERS);
    const reader = createLiveStream({ eventId: "bench-event", signal: abort.signal }).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const measure = async (name: string, publish: (m: Omit<LiveMessage, "at">) => void, n = 200) => {
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: abort.signal });
    const pending = new Map<number, (t: number) => void>();
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((r) => (ready = r));
    void readSse(
      res,
      (m) => {
        if (m.kind === "ready") ready();
        const seq = m.data?.seq;
        if (typeof seq === "number") pending.get(seq)?.(performance.now());
      },
      abort.signal,
    );
    await isReady;
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const got = new Promise<number>((r) => pending.set(i, r));
      const t0 = performance.now();
      publish({ eventId: "bench-event", kind: "decision", data: { seq: i, decision: DECISION.approve, assignmentId: `a${i}` } });
      ms.push((await got) - t0);
      await new Promise((r) => setTimeout(r, 2));
    }
    abort.abort();
    return line(name, ms);
  };
  const local = await measure("in-process bus → SSE → client", (m) => publishLive(m));
  let viaPg: ReturnType<typeof stats> | null = null;
  if (process.env.DATABASE_URL_PG) {
    // Two processes' worth of connections: the publisher NOTIFYs, the listener relays into this process's bus.
    const url = process.env.DATABASE_URL_PG;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.end();
    const listener = createPgRelay({ url, channel: "accord_bench_live", onMessage: emitLocal });
    const publisher = createPgRelay({ url, channel: "accord_bench_live", onMessage: () => undefined });
    await Promise.all([listener.ready, publisher.ready]);
    viaPg = await measure("NOTIFY → LISTEN → SSE → client", (m) => publisher.publish({ ...m, at: Date.now() }));
    await listener.stop();
    await publisher.stop();
  } else {
    console.log("  (set DATABASE_URL_PG to also measure the PostgreSQL LISTEN/NOTIFY path)");
  }
  server.close();
  // The page refreshes on the message (router.refresh, throttled to one per 500 ms, the first at once)
  // and the server renders the Overview again.
  const worst = Math.max(local.p95, viaPg?.p95 ?? 0);
  const total = worst + overviewP95;
  console.log(`  decision → refreshed Overview data (p95 SSE + p95 Overview load): ${total.toFixed(1)} ms ${total < 1000 ? "< 1000 ms ✓" : "≥ 1000 ms ✗"}`);
  void db;
}

async function sessionCookie(db: Db, role: "researcher" | "viewer" = "researcher"): Promise<string> {
  process.env.ACCORD_SECRET = SECRET;
  const { deriveKey } = await import("@/lib/secrets/derive-key");
  const { sealData } = await import("iron-session");
  const email = `bench-${role}@example.org`;
  const user = await db.user.upsert({
    where: { email },
    create: { email, name: `Bench ${role}`, role, passwordHash: "x" },
    update: {},
  });
  const { createSession } = await import("@/lib/auth/sessions");
  const sealed = await sealData({ token: await createSession(db, user.id) }, { password: deriveKey("session-cookie").toString("hex"), ttl: 3600 });
  return `accord_session=${sealed}`;
}

async function benchHttp(db: Db) {
  if (!fs.existsSync(path.resolve(process.cwd(), ".next/BUILD_ID"))) {
    console.log("\n--http: no built app (run node scripts/build-if-needed.mjs first); skipped");
    return;
  }
  const cookie = await sessionCookie(db);
  const viewerCookie = await sessionCookie(db, "viewer");
  const port = 3390 + Math.floor(Math.random() * 50);
  const child: ChildProcess = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, DATABASE_URL: URL_, ACCORD_SECRET: SECRET, ACCORD_BACKGROUND: "off", ACCORD_DEMO: "0", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/signin`)).status < 500) break;
      } catch {
        // not up yet
      }
      if (i > 300) throw new Error("the app did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`\nfull server render over HTTP (next start, signed in), ${RUNS} requests each after 3 warm-ups:`);
    for (const [name, url, who] of [
      ["Overview (researcher: + campaign panels)", `/events/${SLUG}`, cookie],
      ["Overview (viewer)", `/events/${SLUG}`, viewerCookie],
      ["Agreement", `/events/${SLUG}/agreement`, cookie],
      ["HITs (page 1)", `/events/${SLUG}/hits`, cookie],
      ["Data (tweets, imports, gold health)", `/events/${SLUG}/data`, cookie],
    ] as const) {
      const get = async () => {
        const res = await fetch(base + url, { headers: { cookie: who } });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        await res.text();
      };
      for (let i = 0; i < 3; i++) await get();
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) ms.push((await timed(get)).ms);
      line(name, ms, name.startsWith("Data") ? undefined : 300);
    }
  } finally {
    child.kill("SIGTERM");
  }
}

async function main() {
  console.log(`dashboard benchmark — ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" ")}${args.small ? " — SMALL (1/10) database" : ""}`);
  const db = await generate();
  await counts(db);
  const loaders = await benchLoaders(db);
  await benchSse(db, loaders.Overview.p95);
  if (args.http) await benchHttp(db);
  await db.$disconnect();
  // Keep the bus quiet for the exit.
  subscribeLive(() => undefined)();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
