import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { testFlavors } from "@/lib/db/test-db";
import { prelaunchCheck, saveCrowdPolicy } from "./prelaunch-check";
import { createHitBatch } from "./publish";
import { type CampaignFixture, PUBLISH_OPTIONS, setupCampaign } from "./test-fixture";

describe.each(testFlavors())("the pre-launch check of a crowd's decision policy (%s)", (flavor) => {
  let f: CampaignFixture;
  afterEach(async () => {
    await f?.close();
  });

  it("states per crowd what the policy does; refuses (and never stores) what Prolific forbids; publishing refuses a forbidden stored policy", async () => {
    f = await setupCampaign({ unknown: 40, flavor });
    const mturk = await prelaunchCheck(f.db, f.eventId);
    expect([mturk.crowd, mturk.refusal]).toEqual([PROVIDER_KIND.mturk, null]);
    expect(mturk.statements.join(" ")).toContain("rejected, unpaid, with the rule and its score as feedback");
    // MTurk's decision reads the event's below-the-threshold rule, not these settings: nothing to store, no form.
    expect(mturk.configurable).toBe(false);
    await expect(saveCrowdPolicy(f.db, { eventId: f.eventId, raw: { belowGold: "exclude" }, actorId: null })).rejects.toThrow(/do not use these settings/);
    expect((await f.db.event.findUniqueOrThrow({ where: { id: f.eventId } })).crowdPolicy).toBeNull();

    await f.db.event.update({ where: { id: f.eventId }, data: { provider: PROVIDER_KIND.prolific } });
    const prolific = await prelaunchCheck(f.db, f.eventId);
    expect(prolific.configurable).toBe(true);
    expect(prolific.statements.join(" ")).toContain("approved and paid, its judgments are left out");
    await expect(saveCrowdPolicy(f.db, { eventId: f.eventId, raw: { belowGold: "reject" }, actorId: null })).rejects.toThrow(/^Prolific does not allow rejecting for gold tweets/);
    await expect(saveCrowdPolicy(f.db, { eventId: f.eventId, raw: { rejectFailedChecks: true }, actorId: null })).rejects.toThrow(/fair attention checks/);
    expect((await f.db.event.findUniqueOrThrow({ where: { id: f.eventId } })).crowdPolicy).toBeNull();
    const saved = await saveCrowdPolicy(f.db, { eventId: f.eventId, raw: { rejectTooQuick: true, rejectionCapShare: 0.03 }, actorId: null });
    expect(saved.statements.join(" ")).toContain("Rejections stop at 3% of a study's places");

    // A forbidden policy stored by other means (an older version, a hand edit) stops publishing, with the reason.
    await f.db.event.update({ where: { id: f.eventId }, data: { crowdPolicy: { belowGold: "reject" } } });
    await expect(createHitBatch({ db: f.db, eventId: f.eventId, provider: f.provider, options: { ...PUBLISH_OPTIONS, hitCount: 1 } })).rejects.toThrow(/knowledge questions/);
  });
});
