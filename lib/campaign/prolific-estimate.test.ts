import { afterEach, describe, expect, it } from "vitest";
import { ThrottleGate } from "@/lib/crowd/throttle-gate";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { documentedFeeCents } from "@/lib/crowd/prolific/cost-estimate";
import { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import { testFlavors } from "@/lib/db/test-db";
import { committedSpendCents, estimateBatch } from "./estimate";
import { setupProlificCampaign, type ProlificCampaign } from "./prolific-fixture";
import { dbProlificStore } from "@/lib/crowd/prolific/db-store";
import { createHitBatch } from "./publish";
import { createQualificationTest } from "./qualification";
import { PUBLISH_OPTIONS } from "./test-fixture";

const REWARD = 300;
/** The simulator's cost calculator: 33.33% service fee, no VAT, so one place at 300 costs 400 (MTurk's fee would be 60). */
const PLACE = 400;

describe.each(testFlavors())("the cost of a Prolific batch and the budget check (%s)", (flavor) => {
  let f: ProlificCampaign;
  afterEach(async () => {
    await f?.close();
  });

  it("prices the batch with Prolific's cost calculator, and with its documented rule, labelled an estimate, when the calculator is unreachable", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 40 });
    const quoted = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: 2, rewardCents: REWARD });
    const { assignmentsPerHit: initial, maxAssignmentsPerHit: max } = quoted;
    expect(quoted).toMatchObject({ hits: 2, feePerAssignmentCents: PLACE - REWARD, baseCents: 2 * initial * PLACE, extraReserveCents: 2 * (max - initial) * PLACE, ok: true });
    expect(quoted.feeBasis?.source).toBe("calculator");

    // The same provider with every call but the cost calculator reaching the simulator.
    const refusing: typeof fetch = async (url, init) => (String(url).includes("study-cost-calculator") ? Promise.reject(new TypeError("fetch failed")) : fetch(url, init));
    const client = new ProlificClient({ token: f.prolific.token, baseUrl: f.prolific.apiUrl, fetch: refusing, gate: new ThrottleGate({ baseMs: 1, capMs: 4 }), faultBackoffMs: 1 });
    const offline = new ProlificProvider({
      client,
      mode: "simulator",
      workspaceId: f.prolific.state.workspace.id,
      projectId: f.prolific.state.project.id,
      taskUrl: "http://127.0.0.1:3000/prolific/task",
      screeningUrl: "http://127.0.0.1:3000/prolific/screening",
      store: dbProlificStore(f.db),
      feeBasisPoints: 3333,
    });
    const estimated = await estimateBatch({ db: f.db, provider: offline, eventId: f.eventId, hitCount: 2, rewardCents: REWARD });
    const fee = documentedFeeCents(REWARD);
    expect(fee).toBe(120); // 33.33% of 300 = 100, plus 20% VAT on it
    expect(estimated).toMatchObject({ feePerAssignmentCents: fee, baseCents: 2 * initial * (REWARD + fee), extraReserveCents: 2 * (max - initial) * (REWARD + fee) });
    expect(estimated.feeBasis).toEqual({ source: "estimate", note: expect.stringMatching(/^Estimate: Prolific's cost calculator could not be reached/) });
  });

  it("says before the click what the pay-rate floor refuses: not ok with publishing's own message; ok once the reward meets it", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 40 });
    // The simulator's GBP floor is £6.00 an hour; 60 minutes allowed → an estimated 20 minutes → at least £2.00.
    const low = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: 1, rewardCents: 50, assignmentDurationSeconds: 3600 });
    expect(low.ok).toBe(false);
    expect(low.problems.join(" ")).toContain("below Prolific's minimum of £6.00 an hour: raise the reward to at least £2.00");
    const enough = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: 1, rewardCents: 200, assignmentDurationSeconds: 3600 });
    expect(enough.problems).toEqual([]);
    expect(enough.ok).toBe(true);
    expect(await f.provider.minimumRewardCents({ assignmentDurationSeconds: 3600 })).toBe(200);
  });

  it("refuses before publishing a batch whose Prolific fees take it over the event's budget, counting open Prolific HITs at Prolific's fee", async () => {
    f = await setupProlificCampaign({ flavor, unknown: 40 });
    await createQualificationTest({ db: f.db, provider: f.provider, eventId: f.eventId, seed: 1 });
    const probe = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: 1, rewardCents: REWARD });
    const worstOfOne = probe.maxAssignmentsPerHit * PLACE;
    expect(probe.worstCaseCents).toBe(worstOfOne);

    // One cent short of rewards + Prolific's fees: refused, and nothing is queued or sent to Prolific.
    await f.db.event.update({ where: { id: f.eventId }, data: { budgetCapCents: worstOfOne - 1 } });
    const short = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: 1, rewardCents: REWARD });
    expect(short.ok).toBe(false);
    expect(short.problems.join(" ")).toMatch(/exceeds this event's budget cap/);
    // In the workspace's currency (the simulator's GBP), never dollars.
    expect(short.currency).toBe("GBP");
    expect(short.problems.join(" ")).toContain(`may cost up to £${(worstOfOne / 100).toFixed(2)}`);
    expect(short.problems.join(" ")).not.toContain("$");
    const options = { ...PUBLISH_OPTIONS, rewardCents: REWARD, hitCount: 1 };
    await expect(createHitBatch({ db: f.db, eventId: f.eventId, options, provider: f.provider })).rejects.toMatchObject({ code: "estimate_refused" });
    expect(await f.db.hit.count()).toBe(0);

    // Room for exactly one HIT: queued; its worst case is committed at Prolific's fee (MTurk's 20% would leave room for a second).
    await f.db.event.update({ where: { id: f.eventId }, data: { budgetCapCents: 2 * worstOfOne - 1 } });
    await createHitBatch({ db: f.db, eventId: f.eventId, options, provider: f.provider });
    expect(await committedSpendCents(f.db, "GBP", { eventId: f.eventId, learned: { [f.provider.kind]: f.provider.fees } })).toBe(worstOfOne);
    // Without the provider's quoted rate (e.g. on the HIT admin page), the documented rule counts, which is higher.
    expect(await committedSpendCents(f.db, "GBP", { eventId: f.eventId })).toBe(probe.maxAssignmentsPerHit * (REWARD + documentedFeeCents(REWARD)));
    const second = await estimateBatch({ db: f.db, provider: f.provider, eventId: f.eventId, hitCount: 1, rewardCents: REWARD });
    expect(second.event.committedCents).toBe(worstOfOne);
    expect(second.ok).toBe(false);
    await expect(createHitBatch({ db: f.db, eventId: f.eventId, options, provider: f.provider })).rejects.toMatchObject({ code: "estimate_refused" });
    expect(await f.db.hit.count()).toBe(1);
  });
});
