import { describe, expect, it } from "vitest";
import { LocalProvider } from "@/lib/crowd/local-provider";
import { assignmentFeeCents, bonusFeeCents, MTURK_FEES } from "@/lib/crowd/mturk/fees";
import type { FeeRules } from "@/lib/crowd/provider";
import { bonusEntries, bonusFeeOf, feesOf, paymentEntries } from "./ledger";

describe("the cost ledger's entries", () => {
  const at = new Date("2026-12-01T12:00:00Z");
  const p = { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", rewardCents: 50, maxAssignments: 3 };

  it("an approved assignment costs its reward and the provider's fee, each under a unique reference", () => {
    const fee = assignmentFeeCents({ rewardCents: 50, maxAssignments: 3 });
    expect(paymentEntries([p], undefined, at)).toEqual([
      { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", kind: "reward", amountCents: 50, reference: "reward:a1", at },
      { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", kind: "fee", amountCents: fee, reference: "fee:a1", at },
    ]);
    // A payment's own time wins; zero amounts are no entries.
    const own = new Date("2026-11-30T00:00:00Z");
    expect(paymentEntries([{ ...p, rewardCents: 0, at: own }], undefined, at)).toEqual([]);
    expect(paymentEntries([{ ...p, at: own }], undefined, at).map((e) => e.at)).toEqual([own, own]);
  });

  it("the fee comes from the provider's own rules", () => {
    const flat: FeeRules = { assignmentFeeCents: () => 7, bonusFeeCents: () => 3 };
    expect(paymentEntries([p], feesOf({ fees: flat }), at).map((e) => [e.kind, e.amountCents])).toEqual([["reward", 50], ["fee", 7]]);
    expect(bonusFeeOf({ fees: flat }, 100)).toBe(3);
    // A fee the provider reported charging wins over its rules.
    expect(bonusFeeOf({ fees: flat }, 100, 34)).toBe(34);
  });

  it("MTurk and the in-house crowd are charged as before: MTurk's fees, and no fee on an in-house bonus", () => {
    expect(feesOf({})).toBe(MTURK_FEES);
    const local = new LocalProvider({ store: {} as never });
    for (const q of [{ rewardCents: 50, maxAssignments: 3 }, { rewardCents: 50, maxAssignments: 12 }, { rewardCents: 1, maxAssignments: 1 }]) {
      expect(feesOf(local).assignmentFeeCents(q)).toBe(assignmentFeeCents(q));
      expect(MTURK_FEES.assignmentFeeCents(q)).toBe(assignmentFeeCents(q));
    }
    expect(bonusFeeOf(local, 100)).toBe(0);
    expect(MTURK_FEES.bonusFeeCents({ bonusCents: 100 })).toBe(bonusFeeCents({ bonusCents: 100 }));
  });

  it("a bonus is one entry, and its fee another when the provider charges one", () => {
    const b = { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", amountCents: 100, token: "a1-bonus-1" };
    expect(bonusEntries({ ...b, feeCents: bonusFeeCents({ bonusCents: 100 }) }, at).map((e) => [e.kind, e.amountCents, e.reference])).toEqual([
      ["bonus", 100, "bonus:a1-bonus-1"],
      ["bonus_fee", bonusFeeCents({ bonusCents: 100 }), "bonus_fee:a1-bonus-1"],
    ]);
    expect(bonusEntries({ ...b, feeCents: 0 }, at).map((e) => e.kind)).toEqual(["bonus"]);
  });
});
