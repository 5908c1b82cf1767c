import { afterEach, describe, expect, it } from "vitest";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { testFlavors } from "@/lib/db/test-db";
import { claimDueHits } from "./lease";
import { syncDueHits } from "./loop";
import { type CampaignFixture, publishTestBatch, setupCampaign } from "../test-fixture";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A pass that waits on the provider for longer than its lease (a throttled MTurk) keeps its HITs: it renews the
// leases while it runs, so a second process cannot claim and sync the same HITs beside it.
describe.each(testFlavors())("a sync pass longer than its lease (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("renews its leases while it runs and releases them at the end", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });

    // Listing a HIT's assignments takes 1.2 s here: four times the lease of 300 ms.
    const slow: CrowdProvider = Object.create(f.provider);
    slow.listSubmittedAssignments = async function* (input) {
      await sleep(1_200);
      yield* f.provider.listSubmittedAssignments(input);
    };
    const leaseMs = 300;
    const pass = syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, leaseMs, provider: slow });
    await sleep(800);
    const leased = await f.db.hit.findMany({ select: { leaseOwner: true, leaseUntil: true } });
    expect(leased.map((h) => h.leaseOwner)).toEqual(["p1", "p1"]);
    for (const h of leased) expect((h.leaseUntil as Date).getTime()).toBeGreaterThan(Date.now());
    expect(await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, leaseMs })).toEqual([]);

    expect(await pass).toEqual({ synced: 2, errors: 0 });
    expect((await f.db.hit.findMany({ select: { leaseOwner: true, leaseUntil: true } })).every((h) => h.leaseOwner === null && h.leaseUntil === null)).toBe(true);
    expect(await claimDueHits(f.db, { owner: "p2", minIntervalMs: 0, leaseMs })).toHaveLength(2);
  });
});
