import { describe, expect, it } from "vitest";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { MTURK_FEES } from "./mturk/fees";
import { documentedFeeCents } from "./prolific/cost-estimate";
import { crowdChoices, crowdKinds, crowdLabel, crowdName, crowdOf, feeRulesOf, listCrowds } from "./registry";

describe("the crowd registry", () => {
  it("lists MTurk (the default, first), Prolific and the in-house crowd, each named with its mode", () => {
    expect(crowdKinds()).toEqual([PROVIDER_KIND.mturk, PROVIDER_KIND.prolific, PROVIDER_KIND.local]);
    expect(crowdChoices()[0]).toEqual({ value: "mturk", label: "MTurk (simulator / sandbox / production)" });
    expect(crowdLabel(PROVIDER_KIND.prolific, "simulator")).toBe("Prolific simulator");
    expect(crowdLabel(PROVIDER_KIND.mturk, "sandbox")).toBe("MTurk sandbox");
    expect(crowdLabel(PROVIDER_KIND.local, null)).toBe("in-house crowd");
    expect(crowdName(PROVIDER_KIND.prolific)).toBe("Prolific");
    expect(() => crowdOf("figure-eight")).toThrow(/Unknown crowd provider "figure-eight"/);
  });

  it("has one fee rule per crowd: MTurk's commission, Prolific's documented rule unless a provider learned its rate, in-house at MTurk's assignment fee without bonus fee", () => {
    const q = { rewardCents: 300, maxAssignments: 10 };
    expect(feeRulesOf({ kind: PROVIDER_KIND.mturk })).toBe(MTURK_FEES);
    expect(feeRulesOf({ kind: PROVIDER_KIND.prolific }).assignmentFeeCents(q)).toBe(documentedFeeCents(300));
    expect(feeRulesOf({ kind: PROVIDER_KIND.prolific }).bonusFeeCents({ bonusCents: 300 })).toBe(documentedFeeCents(300));
    const learned = { assignmentFeeCents: () => 42, bonusFeeCents: () => 7 };
    expect(feeRulesOf({ kind: PROVIDER_KIND.prolific, fees: learned })).toBe(learned);
    expect(feeRulesOf({ kind: PROVIDER_KIND.local }).assignmentFeeCents(q)).toBe(MTURK_FEES.assignmentFeeCents(q));
    expect(feeRulesOf({ kind: PROVIDER_KIND.local }).bonusFeeCents({ bonusCents: 300 })).toBe(0);
    expect(feeRulesOf({})).toBe(MTURK_FEES);
  });

  it("says per crowd what publishing needs and where participants submit", () => {
    const facts = Object.fromEntries(listCrowds().map((c) => [c.kind, [c.confirmsProduction, c.qualification.required, c.submitsTo, c.workersAreUsers, c.modes.map((m) => m.mode).join("/")]]));
    expect(facts).toEqual({
      mturk: [true, true, "crowd", false, "simulator/sandbox/production"],
      prolific: [true, true, "accord", false, "simulator/test/production"],
      local: [false, false, "accord", true, ""],
    });
  });
});
