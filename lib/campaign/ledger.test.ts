import { describe, expect, it } from "vitest";
import { assignmentFeeCents, bonusFeeCents } from "@/lib/crowd/mturk/fees";
import { bonusEntries, paymentEntries } from "./ledger";

describe("the cost ledger's entries", () => {
  const at = new Date("2026-12-01T12:00:00Z");
  const p = { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", rewardCents: 50, maxAssignments: 3 };

  it("an approved assignment costs its reward and the provider's fee, each under a unique reference", () => {
    const fee = assignmentFeeCents({ rewardCents: 50, maxAssignments: 3 });
    expect(paymentEntries([p], at)).toEqual([
      { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", kind: "reward", amountCents: 50, reference: "reward:a1", at },
      { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", kind: "fee", amountCents: fee, reference: "fee:a1", at },
    ]);
    // A payment's own time wins; zero amounts are no entries.
    const own = new Date("2026-11-30T00:00:00Z");
    expect(paymentEntries([{ ...p, rewardCents: 0, at: own }], at)).toEqual([]);
    expect(paymentEntries([{ ...p, at: own }], at).map((e) => e.at)).toEqual([own, own]);
  });

  it("a bonus is one entry, and its fee another when the provider charges one", () => {
    const b = { eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", amountCents: 100, token: "a1-bonus-1" };
    expect(bonusEntries({ ...b, withFee: true }, at).map((e) => [e.kind, e.amountCents, e.reference])).toEqual([
      ["bonus", 100, "bonus:a1-bonus-1"],
      ["bonus_fee", bonusFeeCents({ bonusCents: 100 }), "bonus_fee:a1-bonus-1"],
    ]);
    expect(bonusEntries({ ...b, withFee: false }, at).map((e) => e.kind)).toEqual(["bonus"]);
  });
});
