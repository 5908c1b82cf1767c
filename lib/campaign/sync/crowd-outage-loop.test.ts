import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/lib/config/env";
import { CircuitBreaker } from "@/lib/crowd/circuit-breaker";
import { createMturkProvider } from "@/lib/crowd/mturk/mturk-provider";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { insertMany } from "@/lib/db/bulk";
import { HIT_STATUS, PROVIDER_KIND } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { ManualTimers, systemClock } from "@/lib/util/clock";
import { type CampaignFixture, publishTestBatch, setupCampaign } from "../test-fixture";
import { startSyncLoop } from "./loop";
import { OUTAGE_PREFIX, readOutage } from "./outage";

/**
 * Issue 30 item 6, at the level of the sync loop: the MTurk crowd's address stops answering (each call hangs, as a
 * dead host does) while it has 390 live HITs, and an in-house crowd's HITs keep being synced. Time is a ManualTimers
 * the test moves (the calls' deadline, the breaker's probe wait and the loop's interval all read it); progress is
 * counted in passes and calls, never timed. The limits are Accord's defaults (ACCORD_CROWD_*).
 */

/** A crowd's address in front of the MTurk simulator: answering (forwarded), or holding every request unanswered. */
async function crowdAddress(target: string) {
  let answering = true;
  let requests = 0;
  const held = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests++;
    if (!answering) {
      held.add(req.socket);
      return;
    }
    const out = http.request(new URL(req.url ?? "/", target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    set answering(on: boolean) {
      answering = on;
    },
    async close() {
      for (const s of held) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The provider with its HIT listings counted: the calls that went out (the breaker refuses others before they get here). */
function counted(provider: CrowdProvider): { provider: CrowdProvider; listings: () => number } {
  let listings = 0;
  const wrapped: CrowdProvider = Object.create(provider);
  wrapped.listSubmittedAssignments = (input) => {
    listings++;
    return provider.listSubmittedAssignments(input);
  };
  return { provider: wrapped, listings: () => listings };
}

const MTURK_HITS = 390;

describe.each(testFlavors())("a crowd that stops answering, in the sync loop (%s)", (flavor) => {
  let f: CampaignFixture;
  let address: Awaited<ReturnType<typeof crowdAddress>> | null = null;
  afterEach(async () => {
    await address?.close();
    await f?.close();
  });

  it("is shown once N calls fail in a row (not after every HIT's retries), holds up no other crowd, and clears at the next probe", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });
    // The two published HITs are the in-house crowd's (answered by a healthy crowd) …
    const inHouse = await f.db.hit.findMany({ select: { id: true, batchId: true, seq: true } });
    await f.db.hit.updateMany({ data: { provider: PROVIDER_KIND.local } });
    // … and 390 more are live on MTurk.
    await insertMany(
      f.db,
      "Hit",
      Array.from({ length: MTURK_HITS }, (_, i) => ({
        eventId: f.eventId,
        batchId: inHouse[0].batchId,
        seq: 100 + i,
        provider: PROVIDER_KIND.mturk,
        providerHitId: `3DEADHIT${String(i).padStart(12, "0")}`,
        uniqueRequestToken: `dead-${i}`,
        status: HIT_STATUS.published,
        maxAssignments: 3,
        rewardCents: 50,
        seed: i,
        publishedAt: new Date(),
      })),
    );

    const config = env();
    // Starts at the wall time: HITs' sync times are compared with it (a HIT synced "in the future" is never due).
    const clock = new ManualTimers(Date.now());
    const deadlineMs = 2 * config.ACCORD_CROWD_CALL_TIMEOUT_MS; // the loop's default deadline per call
    const breaker = new CircuitBreaker({ failures: config.ACCORD_CROWD_OUTAGE_FAILURES, probeMs: config.ACCORD_CROWD_OUTAGE_PROBE_MS, clock });
    address = await crowdAddress(f.sim.url);
    // MTurk's provider as Accord builds it (lib/campaign/providers.ts), its SDK's own socket timeouts out of the way.
    const mturk = counted(createMturkProvider({ mode: "simulator", simulatorUrl: address.url, callTimeoutMs: 600_000, degraded: () => breaker.isOpen, onDown: (fn) => breaker.onOpen(fn) }));
    const local = counted(f.provider);
    const intervalMs = 2_000;
    // One pass per tick (the loop runs up to 50 back to back while HITs are due): passes are counted by ticks.
    const loopOptions = { owner: "worker-1", intervalMs, minIntervalMs: 0, clock, callDeadlineMs: deadlineMs, passesPerTick: 1 };
    const mturkLoop = startSyncLoop(f.db, { ...loopOptions, crowds: [PROVIDER_KIND.mturk], providerOf: () => mturk.provider, breakerOf: () => breaker });
    // The in-house loop on the wall clock, its timer an hour away: the test runs its ticks itself.
    const inHouseLoop = startSyncLoop(f.db, { ...loopOptions, clock: systemClock, intervalMs: 3_600_000, crowds: [PROVIDER_KIND.local], providerOf: () => local.provider });

    try {
      address.answering = false;
      let passing = true;
      const firstTick = mturkLoop.tick().finally(() => (passing = false));
      // The pass's first calls (4 at a time) are out, waiting on the crowd.
      await expect.poll(() => address?.requests).toBe(4);

      // Meanwhile the in-house crowd's loop completes pass after pass.
      for (let pass = 1; pass <= 3; pass++) {
        await inHouseLoop.tick();
        expect(local.listings()).toBe(pass * inHouse.length);
      }
      expect(passing).toBe(true);
      expect(await readOutage(f.db, PROVIDER_KIND.mturk)).toBeNull();

      // The calls' deadline passes: N failures in a row open the breaker, the calls still waiting stop waiting, and the
      // pass records the outage. Calls that went out: the first 4, and at most one more per failure before the
      // breaker opened (N - 1) — not one per HIT of the pass (100) or of the crowd (390), nor the SDK's retries.
      const downAt = clock.now();
      await clock.advance(deadlineMs);
      await firstTick;
      const outage = await readOutage(f.db, PROVIDER_KIND.mturk);
      expect(outage?.message).toMatch(/did not answer within 20 s/);
      expect(clock.now() - downAt).toBeLessThanOrEqual(30_000);
      const sent = mturk.listings();
      expect(sent).toBeGreaterThanOrEqual(4);
      expect(sent).toBeLessThanOrEqual(4 + config.ACCORD_CROWD_OUTAGE_FAILURES - 1);
      expect(breaker.state).toBe("open");
      const shown = await f.db.hit.count({ where: { provider: PROVIDER_KIND.mturk, syncError: { startsWith: OUTAGE_PREFIX } } });
      expect(shown).toBe(MTURK_HITS);
      // Still down: the loop's ticks send nothing until the probe is due, and the in-house crowd goes on.
      await clock.advance(intervalMs);
      expect(mturk.listings()).toBe(sent);
      await inHouseLoop.tick();
      expect(local.listings()).toBe(4 * inHouse.length);

      // The crowd answers again: the next probe (one HIT's sync) gets an answer and clears the outage.
      address.answering = true;
      const upAt = clock.now();
      while ((await readOutage(f.db, PROVIDER_KIND.mturk)) !== null) {
        expect(clock.now() - upAt).toBeLessThan(30_000);
        await clock.advance(intervalMs);
      }
      expect(clock.now() - upAt).toBeLessThanOrEqual(config.ACCORD_CROWD_OUTAGE_PROBE_MS + intervalMs);
      expect(breaker.state).toBe("closed");
      expect(mturk.listings()).toBe(sent + 1); // one probe: one HIT's sync
      expect(await f.db.hit.count({ where: { syncError: { startsWith: OUTAGE_PREFIX } } })).toBe(0);
    } finally {
      await clock.advance(deadlineMs); // calls still waiting on the crowd (a failed test) give up, and the loop can stop
      await mturkLoop.stop();
      await inHouseLoop.stop();
    }
  });
});
