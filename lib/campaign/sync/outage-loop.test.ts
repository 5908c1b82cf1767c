import { afterEach, describe, expect, it } from "vitest";
import { CrowdError } from "@/lib/crowd/errors";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { testFlavors } from "@/lib/db/test-db";
import { type CampaignFixture, publishTestBatch, setupCampaign } from "../test-fixture";
import { syncDueHits } from "./loop";
import { lostReason } from "./lost";
import { OUTAGE_PREFIX, readOutage } from "./outage";

// Issue 24: a provider that cannot be reached shows on every HIT and in the settings after ONE pass, and the error
// goes as soon as a pass gets through again.
describe.each(testFlavors())("a provider outage (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("is shown after one pass and cleared by the first pass that gets through", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });

    let down = true;
    const flaky: CrowdProvider = Object.create(f.provider);
    flaky.listSubmittedAssignments = async function* (input) {
      if (down) throw new CrowdError("Cannot reach the MTurk simulator", "network");
      yield* f.provider.listSubmittedAssignments(input);
    };

    expect(await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: flaky })).toEqual({ synced: 0, errors: 2 });
    const during = await f.db.hit.findMany({ select: { syncError: true, status: true, leaseOwner: true } });
    expect(during.map((h) => [h.status, h.syncError, h.leaseOwner])).toEqual([
      ["published", `${OUTAGE_PREFIX}Cannot reach the MTurk simulator`, null],
      ["published", `${OUTAGE_PREFIX}Cannot reach the MTurk simulator`, null],
    ]);
    expect(await readOutage(f.db)).toMatchObject({ provider: "mturk", message: "Cannot reach the MTurk simulator" });

    down = false;
    expect(await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: flaky })).toEqual({ synced: 2, errors: 0 });
    expect((await f.db.hit.findMany({ select: { syncError: true } })).map((h) => h.syncError)).toEqual([null, null]);
    expect(await readOutage(f.db)).toBeNull();
  });

  it("marks a HIT the provider does not know lost, with the reason, and releases its tweets", async () => {
    f = await setupCampaign({ flavor, unknown: 40 });
    await publishTestBatch(f, { seed: 1 });
    const [gone, kept] = await f.db.hit.findMany({ orderBy: { seq: "asc" }, select: { id: true, providerHitId: true } });
    const forgetful: CrowdProvider = Object.create(f.provider);
    const missing = () => new CrowdError("Not found on MTurk", "not_found");
    forgetful.listSubmittedAssignments = async function* (input) {
      if (input.providerHitId === gone.providerHitId) throw missing();
      yield* f.provider.listSubmittedAssignments(input);
    };
    forgetful.getHit = async (input) => {
      if (input.providerHitId === gone.providerHitId) throw missing();
      return f.provider.getHit(input);
    };

    expect(await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: forgetful })).toEqual({ synced: 2, errors: 0 });
    const hits = await f.db.hit.findMany({ orderBy: { seq: "asc" }, select: { id: true, status: true, syncError: true } });
    expect(hits).toEqual([
      { id: gone.id, status: "lost", syncError: lostReason(gone.providerHitId as string) },
      { id: kept.id, status: "published", syncError: null },
    ]);
    const tweetsOf = async (hitId: string) =>
      (await f.db.tweet.findMany({ where: { hitItems: { some: { hitId } }, role: "unknown" }, select: { status: true } })).map((t) => t.status);
    expect(new Set(await tweetsOf(gone.id))).toEqual(new Set(["pending"]));
    expect(new Set(await tweetsOf(kept.id))).toEqual(new Set(["in_hit"]));
    // A lost HIT is no longer synced.
    expect(await syncDueHits(f.db, { owner: "p1", minIntervalMs: 0, provider: forgetful })).toEqual({ synced: 1, errors: 0 });
  });
});
