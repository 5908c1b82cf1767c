import { afterEach, describe, expect, it, vi } from "vitest";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { testFlavors } from "@/lib/db/test-db";
import { ManualTimers } from "@/lib/util/clock";
import { claimDueHits, keepLeases, releaseHit, SYNC_LEASE_MS } from "./lease";
import { syncDueHits } from "./loop";
import { type CampaignFixture, publishTestBatch, setupCampaign } from "../test-fixture";

const leasesOf = async (f: CampaignFixture) => (await f.db.hit.findMany({ orderBy: { id: "asc" }, select: { leaseOwner: true, leaseUntil: true } })).map((h) => ({ owner: h.leaseOwner, until: h.leaseUntil?.getTime() ?? null }));

describe.each(testFlavors())("sync leases (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  // Time comes from a clock the test moves: a lease holds up to its last millisecond and is taken over after it.
  it("keeps another owner off until the lease runs out, then lets it take the HITs over", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });
    const clock = new ManualTimers(Date.now());
    const leaseMs = 60_000;
    const claim = (owner: string) => claimDueHits(f.db, { owner, minIntervalMs: 0, leaseMs, clock });

    const mine = await claim("p1");
    expect(mine).toHaveLength(2);
    const until = clock.now() + leaseMs;
    expect(await leasesOf(f)).toEqual([{ owner: "p1", until }, { owner: "p1", until }]);
    expect(await claim("p2")).toEqual([]);
    await clock.advance(leaseMs);
    expect(await claim("p2")).toEqual([]); // at its last millisecond the lease still holds
    await clock.advance(1);
    expect((await claim("p2")).sort()).toEqual([...mine].sort());
    expect(await leasesOf(f)).toEqual([
      { owner: "p2", until: clock.now() + leaseMs },
      { owner: "p2", until: clock.now() + leaseMs },
    ]);
    // Releasing with an error stamps the clock's time as the HIT's last sync; the other owner's release does nothing.
    await releaseHit(f.db, { hitId: mine[0]!, owner: "p1", error: "not mine" });
    await releaseHit(f.db, { hitId: mine[0]!, owner: "p2", error: "provider said no", clock });
    const released = await f.db.hit.findUniqueOrThrow({ where: { id: mine[0]! } });
    expect({ owner: released.leaseOwner, syncError: released.syncError, at: released.lastSyncedAt?.getTime() }).toEqual({ owner: null, syncError: "provider said no", at: clock.now() });
  });

  it("renews every third of the lease while kept, so the HITs outlive their first lease; once stopped they run out", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });
    const clock = new ManualTimers(Date.now());
    const leaseMs = 300;
    const start = clock.now();
    const ids = await claimDueHits(f.db, { owner: "p1", minIntervalMs: 0, leaseMs, clock });
    const kept = keepLeases(f.db, { hitIds: ids, owner: "p1", leaseMs, clock });

    // Four times the lease: renewed at 100, 200, …, 1200 ms, each time to 300 ms ahead.
    for (let k = 1; k <= 12; k++) {
      await clock.advance(100);
      expect(await leasesOf(f)).toEqual(ids.map(() => ({ owner: "p1", until: start + k * 100 + leaseMs })));
      expect(await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, leaseMs, clock })).toEqual([]);
    }
    kept.stop();
    expect(clock.scheduled).toBe(0);
    await clock.advance(leaseMs);
    expect(await leasesOf(f)).toEqual(ids.map(() => ({ owner: "p1", until: start + 1200 + leaseMs }))); // not renewed again
    await clock.advance(1);
    expect(await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, leaseMs, clock })).toHaveLength(2);
  });

  // A pass that waits on the provider for longer than its lease (a throttled MTurk) keeps its HITs: it renews the
  // leases while it runs, so a second process cannot claim and sync the same HITs beside it. The provider answers
  // only when the test lets it, and the test waits for a renewal to happen rather than for a fixed time.
  it("a sync pass longer than its lease renews its leases while it runs and releases them at the end", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let listings = 0;
    const slow: CrowdProvider = Object.create(f.provider);
    slow.listSubmittedAssignments = async function* (input) {
      listings++;
      await answered;
      yield* f.provider.listSubmittedAssignments(input);
    };
    const leaseMs = 300;
    const pass = syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, leaseMs, provider: slow });
    try {
      await vi.waitFor(() => expect(listings).toBeGreaterThan(0), { timeout: 120_000, interval: 20 });
      const first = await leasesOf(f);
      expect(first.map((h) => h.owner)).toEqual(["p1", "p1"]);
      const firstEnd = Math.max(...first.map((h) => h.until as number));
      // The provider has not answered, yet the leases move past where they ended: the pass renewed them.
      await vi.waitFor(async () => expect(Math.min(...(await leasesOf(f)).map((h) => h.until as number))).toBeGreaterThan(firstEnd), { timeout: 120_000, interval: 20 });
      // Another process, after the first leases would have run out, finds nothing to claim.
      const after = new ManualTimers(firstEnd + 1);
      expect(await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, leaseMs, clock: after })).toEqual([]);
    } finally {
      answer();
    }
    expect(await pass).toEqual({ synced: 2, errors: 0 });
    expect(await leasesOf(f)).toEqual([
      { owner: null, until: null },
      { owner: null, until: null },
    ]);
    // A moment after the pass (its HITs were synced at wall time), another process claims them.
    expect(await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, leaseMs, clock: new ManualTimers(Date.now() + 1_000) })).toHaveLength(2);
  });

  it("claims one crowd's HITs only when asked (each crowd has its own sync loop)", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });
    const [a, b] = await f.db.hit.findMany({ orderBy: { id: "asc" }, select: { id: true } });
    await f.db.hit.update({ where: { id: b!.id }, data: { provider: "prolific" } });
    const clock = new ManualTimers(Date.now());
    expect(await claimDueHits(f.db, { owner: "p1", minIntervalMs: 0, clock, crowd: "local" })).toEqual([]);
    expect(await claimDueHits(f.db, { owner: "p1", minIntervalMs: 0, clock, crowd: "prolific" })).toEqual([b!.id]);
    expect(await claimDueHits(f.db, { owner: "p1", minIntervalMs: 0, clock, crowd: "mturk" })).toEqual([a!.id]);
    await clock.advance(SYNC_LEASE_MS + 1);
    expect((await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, clock })).sort()).toEqual([a!.id, b!.id].sort());
  });
});
