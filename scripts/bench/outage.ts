/**
 * Outage detection (issue 30 item 6): how long until the outage banner shows when MTurk's address stops
 * answering while 390 HITs are live, and how long until it clears once the address answers again; meanwhile an
 * in-house crowd's sync loop keeps running and its passes are counted. Real timers and Accord's defaults
 * (ACCORD_CROWD_OUTAGE_FAILURES, ACCORD_CROWD_OUTAGE_PROBE_MS, ACCORD_CROWD_CALL_TIMEOUT_MS, a loop interval of
 * 1 s as `npm start` runs it), the provider built as lib/campaign/providers.ts builds it, a fresh SQLite database in
 * a temporary folder. The banner is the recorded outage (lib/campaign/sync/outage.ts), read every 100 ms.
 *
 *   npx tsx scripts/bench/outage.ts [--hits 390] [--mode dead|hang]
 *     dead: nothing listens on the port (connections refused, the issue's probe); hang: the port accepts and never answers.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { hits: { type: "string", default: "390" }, mode: { type: "string", default: "dead" } } });
const HITS = Number(args.hits);
const MODE = args.mode === "hang" ? "hang" : "dead";
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "accord-outage-"));
process.env.DATABASE_URL = `file:${path.join(DIR, "accord.db")}`;
process.env.ACCORD_SECRET ??= "bench-outage-secret-0123456789abcdef012345";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const QUESTION =
  '<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd">' +
  '<HTMLContent><![CDATA[<!DOCTYPE html><html><body><form name="mturk_form" method="post" action="https://www.mturk.com/mturk/externalSubmit"><input type="hidden" name="assignmentId" value=""><p>q</p><input type="submit"></form></body></html>]]></HTMLContent>' +
  "<FrameHeight>600</FrameHeight></HTMLQuestion>";

async function main() {
  const { createDb, prepareDb } = await import("@/lib/db/client");
  const { migrateDatabase } = await import("@/lib/db/migrate");
  const { ensureHumaidScheme } = await import("@/lib/labels/schemes");
  const { insertMany } = await import("@/lib/db/bulk");
  const { env } = await import("@/lib/config/env");
  const { startSimulator } = await import("@/lib/crowd/simulator/server");
  const { createMturkProvider } = await import("@/lib/crowd/mturk/mturk-provider");
  const { crowdBreaker } = await import("@/lib/campaign/sync/crowd-breakers");
  const { startSyncLoop } = await import("@/lib/campaign/sync/loop");
  const { readOutage } = await import("@/lib/campaign/sync/outage");
  const { HIT_STATUS, PROVIDER_KIND } = await import("@/lib/db/enums");
  type Provider = import("@/lib/crowd/provider").CrowdProvider;

  await migrateDatabase({ url: process.env.DATABASE_URL as string });
  const db = createDb(process.env.DATABASE_URL);
  await prepareDb(db);
  const schemeId = await ensureHumaidScheme(db);
  const event = await db.event.create({ data: { slug: "outage", name: "outage", type: "flood", schemeId, provider: PROVIDER_KIND.mturk, settings: {}, filters: {}, locations: [] } });
  const inHouse = await db.event.create({ data: { slug: "in-house", name: "in-house", type: "flood", schemeId, provider: PROVIDER_KIND.local, settings: {}, filters: {}, locations: [] } });

  // MTurk's simulator, with the live HITs published on it (30 tweets each is not needed here: a HIT with one tweet).
  const simState = path.join(DIR, "simulator.json");
  const sim = await startSimulator({ seed: 30, clock: "real", persistFile: simState });
  const port = Number(new URL(sim.url).port);
  const publish = async (provider: Provider, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await provider.publishHit(hitInput(i))).providerHitId);
    return ids;
  };
  const hitInput = (i: number) => ({
    accordHitId: `outage-${i}`,
    title: `Outage bench ${i}`,
    description: "One tweet to label",
    rewardCents: 10,
    maxAssignments: 3,
    lifetimeSeconds: 86_400,
    assignmentDurationSeconds: 3_600,
    autoApprovalDelaySeconds: 86_400,
    questionXml: QUESTION,
  });
  const published = await publish(createMturkProvider({ mode: "simulator", simulatorUrl: sim.url }), HITS);
  const hitRow = (i: number, eventId: string, provider: string, providerHitId: string) => ({
    eventId,
    seq: i + 1,
    provider,
    providerHitId,
    uniqueRequestToken: `${provider}-${i}`,
    status: HIT_STATUS.published,
    maxAssignments: 3,
    rewardCents: 10,
    seed: i,
    publishedAt: new Date(),
  });
  await insertMany(db, "Hit", published.map((id, i) => hitRow(i, event.id, PROVIDER_KIND.mturk, id)));

  // The in-house crowd's 10 HITs: answered by a healthy crowd (a second simulator), its listings counted (one per HIT per pass).
  const sim2 = await startSimulator({ seed: 31, clock: "real" });
  const healthy = createMturkProvider({ mode: "simulator", simulatorUrl: sim2.url });
  let inHouseListings = 0;
  const inHouseProvider: Provider = Object.create(healthy);
  inHouseProvider.listSubmittedAssignments = (input) => {
    inHouseListings++;
    return healthy.listSubmittedAssignments(input);
  };
  await insertMany(db, "Hit", (await publish(healthy, 10)).map((id, i) => hitRow(i, inHouse.id, PROVIDER_KIND.local, id)));

  const config = env();
  const breaker = crowdBreaker(PROVIDER_KIND.mturk);
  const mturk = createMturkProvider({
    mode: "simulator",
    simulatorUrl: sim.url,
    credentials: { accessKeyId: "accord-simulator", secretAccessKey: "accord-simulator" },
    callTimeoutMs: config.ACCORD_CROWD_CALL_TIMEOUT_MS,
    degraded: () => breaker.isOpen,
    onDown: (fn: () => void) => breaker.onOpen(fn),
  } as Parameters<typeof createMturkProvider>[0]);

  // The address stops answering: the simulator goes, and (hang) a listener that never answers takes its port.
  await sim.stop();
  const held: net.Socket[] = [];
  const blackhole = MODE === "hang" ? net.createServer((s) => void held.push(s)) : null;
  if (blackhole) await new Promise<void>((resolve) => blackhole.listen(port, "127.0.0.1", resolve));

  const loop = startSyncLoop(db, { owner: "bench", intervalMs: 1_000, minIntervalMs: 1_000, crowds: [PROVIDER_KIND.mturk, PROVIDER_KIND.local], providerOf: (c) => (c === PROVIDER_KIND.mturk ? mturk : inHouseProvider) });
  const t0 = performance.now();
  const until = async (cond: () => Promise<boolean>, limitMs: number) => {
    while (!(await cond())) {
      if (performance.now() - t0 > limitMs) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  };
  const shown = await until(async () => (await readOutage(db, PROVIDER_KIND.mturk)) !== null, 900_000);
  const banner = performance.now() - t0;
  const listingsAtBanner = inHouseListings;
  console.log(`${MODE} address, ${HITS} live HITs: outage ${shown ? `shown after ${seconds(banner)} s` : "NOT shown within 900 s"}; in-house crowd meanwhile: ${listingsAtBanner} HIT listings (${(listingsAtBanner / 10).toFixed(0)} passes of its 10 HITs)`);

  // The address answers again: the simulator on the same port, with the same HITs (its state was kept).
  const outageWait = performance.now();
  await new Promise((r) => setTimeout(r, 3_000)); // the outage lasts a little
  for (const s of held) s.destroy();
  if (blackhole) await new Promise((resolve) => blackhole.close(resolve));
  const back = await startSimulator({ seed: 30, clock: "real", port, persistFile: simState });
  const t1 = performance.now();
  const cleared = await until(async () => (await readOutage(db, PROVIDER_KIND.mturk)) === null, (t1 - t0) + 900_000);
  console.log(`address answering again: outage ${cleared ? `cleared after ${seconds(performance.now() - t1)} s` : "NOT cleared within 900 s"} (down for ${seconds(t1 - outageWait)} s after the banner)`);
  console.log(`defaults: ${config.ACCORD_CROWD_OUTAGE_FAILURES} failures, probe every ${config.ACCORD_CROWD_OUTAGE_PROBE_MS} ms, call timeout ${config.ACCORD_CROWD_CALL_TIMEOUT_MS} ms; ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);

  await loop.stop();
  await back.stop();
  await sim2.stop();
  await db.$disconnect();
  fs.rmSync(DIR, { recursive: true, force: true });
}

await main();
