import { describe, expect, it } from "vitest";
import { deliveryWrites, dueDeliveries } from "./deliver";
import { hitRow, storedAssignment } from "./step-fixture";

describe("deliver: what is sent and what a confirmed delivery writes", () => {
  const hit = hitRow("h1");
  const hits = new Map([["h1", hit]]);

  it("sends approve and reject decisions not yet confirmed; never a hold or an undecided one", () => {
    const list = [
      storedAssignment(hit, "ok", { correct: 2, decision: "approve" }),
      storedAssignment(hit, "no", { correct: 0, decision: "reject" }),
      storedAssignment(hit, "held", { correct: 1, decision: "hold" }),
      storedAssignment(hit, "new", { correct: 2 }),
      storedAssignment(hit, "sent", { correct: 2, decision: "approve", decisionSentAt: new Date() }),
    ];
    expect(dueDeliveries(list).map((a) => a.id)).toEqual(["ok", "no"]);
  });

  it("pays an approval (reward and fee go to the ledger), records a rejection unpaid, and audits a provider that decided otherwise", () => {
    const now = new Date("2026-12-01T12:00:00Z");
    const approve = storedAssignment(hit, "ok", { correct: 2, decision: "approve" });
    const reject = storedAssignment(hit, "no", { correct: 0, decision: "reject" });
    const overruled = storedAssignment(hit, "late", { correct: 0, decision: "reject" });
    const [a, r, o] = deliveryWrites(
      [
        { a: approve, finalStatus: "Approved" },
        { a: reject, finalStatus: "Rejected" },
        { a: overruled, finalStatus: "Approved" },
      ],
      hits,
      now,
    );
    expect(a.update).toEqual({ id: "ok", decisionSentAt: now, providerStatus: "Approved", status: "approved" });
    expect(a.payment).toEqual({ eventId: "ev", hitId: "h1", assignmentId: "ok", workerId: "w1", rewardCents: 50, maxAssignments: 3 });
    expect(a.audit).toBeNull();
    expect(r.update.status).toBe("rejected");
    expect(r.payment).toBeNull();
    expect(o.update.status).toBe("approved");
    expect(o.payment).not.toBeNull();
    expect(o.audit).toMatchObject({ action: "approved-by-provider", reason: "Accord decided to reject but the provider had already approved it." });
  });
});
