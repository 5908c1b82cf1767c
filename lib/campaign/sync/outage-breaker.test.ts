import { afterEach, describe, expect, it } from "vitest";
import { CircuitBreaker } from "@/lib/crowd/circuit-breaker";
import { CrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { testFlavors } from "@/lib/db/test-db";
import { ManualTimers } from "@/lib/util/clock";
import { type CampaignFixture, publishTestBatch, setupCampaign } from "../test-fixture";
import { startSyncLoop } from "./loop";
import { OUTAGE_PREFIX, readOutage } from "./outage";

/** The provider, counting its calls; while `down()`, every call fails as a dead address does (connection refused). */
function crowd(provider: CrowdProvider, down: () => boolean) {
  const calls = { made: 0, failed: 0 };
  const refused = () => new CrowdError("connect ECONNREFUSED 127.0.0.1:9", "network");
  const wrapped = new Proxy(provider, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.made++;
        if (!down()) return (value as (...a: unknown[]) => unknown).apply(target, args);
        calls.failed++;
        if (key === "listSubmittedAssignments") {
          return (async function* () {
            yield* [];
            throw refused();
          })();
        }
        return Promise.reject(refused());
      };
    },
  });
  return { provider: wrapped, calls };
}

// Issue 30 item 6: a crowd that cannot be reached is shown as down after N failed calls in a row, within 30 s of
// (simulated) time with many live HITs; it is probed every 5 s and cleared within 30 s of its recovery; and the other
// crowd's HITs go on syncing meanwhile (each crowd has its own loop, claiming only its own HITs).
describe.each(testFlavors())("a crowd outage behind a circuit breaker (%s)", (flavor) => {
  let f: CampaignFixture;
  let stop: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await stop?.();
    stop = null;
    await f?.close();
  });

  it("is recorded after 3 failures, probed every 5 s, cleared after recovery, and holds up no other crowd", async () => {
    f = await setupCampaign({ flavor, unknown: 480 });
    await publishTestBatch(f, { seed: 1 });
    const hits = await f.db.hit.findMany({ orderBy: { seq: "asc" }, select: { id: true } });
    expect(hits.length).toBeGreaterThanOrEqual(20);
    // The second half of the HITs belong to another crowd (its own loop, its own provider), which stays up.
    const other = hits.slice(hits.length / 2).map((h) => h.id);
    await f.db.hit.updateMany({ where: { id: { in: other } }, data: { provider: "prolific" } });

    const clock = new ManualTimers(Date.now());
    let mturkDown = true;
    const dead = crowd(f.provider, () => mturkDown);
    const alive = crowd(f.provider, () => false);
    const breakers = { mturk: new CircuitBreaker({ failures: 3, probeMs: 5_000, clock }), prolific: new CircuitBreaker({ failures: 3, probeMs: 5_000, clock }) };
    const loop = startSyncLoop(f.db, {
      owner: "breaker-test",
      intervalMs: 1_000,
      minIntervalMs: 0,
      crowds: ["mturk", "prolific"],
      providerOf: (c) => (c === "mturk" ? dead.provider : alive.provider),
      breakerOf: (c) => breakers[c as keyof typeof breakers],
      clock,
      callDeadlineMs: 20_000,
      passesPerTick: 1,
    });
    stop = () => loop.stop();

    // Down from the start: shown within 30 simulated seconds, and only after 3 calls failed.
    for (let s = 0; s < 30 && !(await readOutage(f.db, "mturk")); s++) await clock.advance(1_000);
    const outage = await readOutage(f.db, "mturk");
    expect(outage).toMatchObject({ provider: "mturk", message: "connect ECONNREFUSED 127.0.0.1:9" });
    expect(breakers.mturk.state).toBe("open");
    expect(dead.calls.failed).toBeGreaterThanOrEqual(3);
    // The open breaker refused the rest: a pass over the live HITs sent a handful of calls, not one per HIT.
    expect(dead.calls.failed).toBeLessThan(hits.length / 2);
    const mturkHits = await f.db.hit.findMany({ where: { provider: "mturk" }, select: { syncError: true } });
    expect(new Set(mturkHits.map((h) => h.syncError))).toEqual(new Set([`${OUTAGE_PREFIX}connect ECONNREFUSED 127.0.0.1:9`]));
    expect(await readOutage(f.db, "prolific")).toBeNull();

    // 20 s of outage: one probe every 5 s, while the other crowd's HITs keep syncing.
    const deadBefore = dead.calls.made;
    const aliveBefore = alive.calls.made;
    await clock.advance(20_000);
    expect(dead.calls.made - deadBefore).toBeGreaterThanOrEqual(3);
    expect(dead.calls.made - deadBefore).toBeLessThanOrEqual(5);
    expect(alive.calls.made - aliveBefore).toBeGreaterThanOrEqual(other.length);
    const otherHits = await f.db.hit.findMany({ where: { provider: "prolific" }, select: { syncError: true, status: true } });
    expect(otherHits.every((h) => h.syncError === null && h.status === "published")).toBe(true);

    // Recovery: cleared within 30 simulated seconds, and the HITs lose the outage's error.
    mturkDown = false;
    for (let s = 0; s < 30 && (await readOutage(f.db, "mturk")); s++) await clock.advance(1_000);
    expect(await readOutage(f.db, "mturk")).toBeNull();
    expect(breakers.mturk.state).toBe("closed");
    await clock.advance(2_000);
    const after = await f.db.hit.findMany({ where: { provider: "mturk" }, select: { syncError: true } });
    expect(after.map((h) => h.syncError).filter((e) => e !== null)).toEqual([]);
  });
});
