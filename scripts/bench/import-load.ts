/**
 * Pages while an import runs (issue 30 item 3): starts Accord as `npm start` does (scripts/supervisor.mjs: the web
 * server with ACCORD_WORKER=off and a supervised `accord worker --local`) on a fresh SQLite database in a temporary
 * folder, then
 *  1. requests a signed-in page (the event's Data tab) one after another: idle, then while a 100,000-row tweet file
 *     is uploaded and imported, then while an adversarial ~199 MB file (179,334 rows of 215 words from a 46-word
 *     vocabulary, the shape of issue 24) is uploaded and imported;
 *  2. samples the resident memory of each process (web, worker) meanwhile.
 * Prints p50/p95/max page latency per phase, the peak RSS per process and the load average. The files are generated
 * in the temporary folder (never committed) and removed at the end. Needs a built app (node scripts/build-if-needed.mjs).
 *
 *   npx tsx scripts/bench/import-load.ts [--port 3231] [--rows 100000] [--big-rows 179334] [--big-minutes 10]
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startSupervisor } from "../supervisor.mjs";
import { adversarialTexts } from "@/lib/ingest/testing/adversarial";
import { IMPORT_STATUS } from "@/lib/db/enums";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3231" },
    rows: { type: "string", default: "100000" },
    "big-rows": { type: "string", default: "179334" },
    "big-minutes": { type: "string", default: "10" },
  },
});
const PORT = Number(args.port);
const BASE = `http://127.0.0.1:${PORT}`;
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "accord-import-load-"));
const SECRET = "bench-import-load-secret-0123456789abcdef";
const env = {
  ...process.env,
  DATABASE_URL: `file:${path.join(DIR, "accord.db")}`,
  ACCORD_SECRET: SECRET,
  ACCORD_DATA_DIR: DIR,
  ACCORD_DEMO: "0",
  ACCORD_SIMULATOR: "off",
  NEXT_TELEMETRY_DISABLED: "1",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};
Object.assign(process.env, env);

const MB = 1024 * 1024;
const stats = (ms: number[]) => {
  const s = ms.slice().sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
  return `n ${s.length}, p50 ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(0)} ms`;
};
const rssOf = (pid: number | undefined): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/** A tweet TSV of `rows` rows written in pieces (ids 10^17 + row); adversarial: 150 words of 46, else varied text. */
function writeTsv(file: string, rows: number, adversarial: boolean): number {
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, "tweet_id\ttweet_text\n");
  const piece = 5_000;
  for (let start = 0; start < rows; start += piece) {
    const n = Math.min(piece, rows - start);
    const texts = adversarial
      ? adversarialTexts({ rows: n, words: 215, seed: 24 + start })
      : adversarialTexts({ rows: n, words: 18, vocabulary: 5_000, seed: 7 + start }).map((t, k) => `flood update ${start + k}: ${t}`);
    fs.writeSync(fd, texts.map((t, k) => `${100000000000000000n + BigInt(start + k)}\t${t}`).join("\n") + "\n");
  }
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

function get(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(BASE + url, { headers: { cookie } }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${url}: ${res.statusCode}`))));
      })
      .on("error", reject);
  });
}

function upload(eventId: string, file: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${BASE}/api/imports?eventId=${eventId}&kind=tweets&name=${path.basename(file)}`,
      { method: "POST", headers: { cookie, origin: BASE, "content-type": "application/octet-stream", "content-length": fs.statSync(file).size } },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => (res.statusCode && res.statusCode < 300 ? resolve(res.statusCode) : reject(new Error(`upload ${res.statusCode}: ${body.slice(0, 300)}`))));
      },
    );
    req.on("error", reject);
    fs.createReadStream(file).pipe(req);
  });
}

async function main() {
  const { createDb, prepareDb } = await import("@/lib/db/client");
  const { migrateDatabase } = await import("@/lib/db/migrate");
  const { ensureHumaidScheme } = await import("@/lib/labels/schemes");
  await migrateDatabase({ url: env.DATABASE_URL });
  const db = createDb(env.DATABASE_URL);
  await prepareDb(db);
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({
    data: { slug: "load", name: "load", type: "flood", schemeId, settings: {}, filters: { limits: { maxFileBytes: 400 * MB } }, locations: [] },
  });
  const { deriveKey } = await import("@/lib/secrets/derive-key");
  const { sealData } = await import("iron-session");
  const { createSession } = await import("@/lib/auth/sessions");
  const user = await db.user.create({ data: { email: "bench@example.org", name: "Bench", role: "researcher", passwordHash: "x" } });
  const cookie = `accord_session=${await sealData({ token: await createSession(db, user.id) }, { password: deriveKey("session-cookie").toString("hex"), ttl: 7200 })}`;

  const small = path.join(DIR, "tweets-100k.tsv");
  const big = path.join(DIR, "adversarial.tsv");
  const smallBytes = writeTsv(small, Number(args.rows), false);
  const bigBytes = writeTsv(big, Number(args["big-rows"]), true);
  console.log(`files: ${Number(args.rows).toLocaleString("en-US")} rows (${(smallBytes / MB).toFixed(0)} MB), ${Number(args["big-rows"]).toLocaleString("en-US")} adversarial rows (${(bigBytes / MB).toFixed(0)} MB)`);

  const sup = startSupervisor({
    web: { command: process.execPath, args: ["scripts/serve.mjs", "--port", String(PORT), "--host", "127.0.0.1"], env: { ...env, ACCORD_WORKER: "off" } },
    worker: { command: process.execPath, args: ["scripts/accord.mjs", "worker", "--local", "--interval", "1000"], env },
    out: (l) => /error|fail/i.test(l) && console.log(l),
    err: (l) => console.log(l),
  });
  try {
    for (;;) {
      try {
        await get("/signin", "");
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const page = `/events/${event.slug}/data`;
    for (let i = 0; i < 3; i++) await get(page, cookie); // compiled and cached once
    const peak = { web: rssOf(sup.web.pid), worker: rssOf(sup.worker()?.pid) };
    const sampler = setInterval(() => {
      peak.web = Math.max(peak.web, rssOf(sup.web.pid));
      peak.worker = Math.max(peak.worker, rssOf(sup.worker()?.pid));
    }, 100);

    const idle: number[] = [];
    for (let i = 0; i < 30; i++) idle.push(await get(page, cookie));
    console.log(`idle page:                 ${stats(idle)}  (RSS web ${(peak.web / MB).toFixed(0)} MB, worker ${(peak.worker / MB).toFixed(0)} MB)`);

    const during = async (label: string, file: string, minutes: number) => {
      peak.web = rssOf(sup.web.pid);
      peak.worker = rssOf(sup.worker()?.pid);
      const before = await db.importBatch.count();
      const ms: number[] = [];
      const t0 = performance.now();
      const uploading = upload(event.id, file, cookie);
      let uploaded = false;
      void uploading.then(() => (uploaded = true), () => undefined);
      let status = "uploading";
      while (performance.now() - t0 < minutes * 60_000) {
        ms.push(await get(page, cookie));
        if (uploaded) {
          const batch = await db.importBatch.findFirst({ where: { eventId: event.id }, orderBy: { createdAt: "desc" }, skip: 0, select: { status: true, rowsStored: true } });
          status = batch && (await db.importBatch.count()) > before ? `${batch.status} (${batch.rowsStored} stored)` : status;
          if (batch && ([IMPORT_STATUS.completed, IMPORT_STATUS.failed, IMPORT_STATUS.cancelled] as string[]).includes(batch.status) && (await db.importBatch.count()) > before) break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      await uploading;
      const secs = ((performance.now() - t0) / 1000).toFixed(0);
      console.log(`${label} ${stats(ms)}; import ${status} after ${secs} s; peak RSS web ${(peak.web / MB).toFixed(0)} MB, worker ${(peak.worker / MB).toFixed(0)} MB; load ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
    };
    await during("page during 100K import:  ", small, 20);
    await during("page during 199 MB upload:", big, Number(args["big-minutes"]));
    clearInterval(sampler);
  } finally {
    await sup.stop("SIGTERM");
    await db.$disconnect();
    fs.rmSync(DIR, { recursive: true, force: true });
  }
  console.log(`(${os.cpus().length} cores; load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(" ")})`);
}

await main();
