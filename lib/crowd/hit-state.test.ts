import { describe, expect, it } from "vitest";
import { dueTransition, hitCounts, hitState } from "./hit-state";

describe("MTurk's HIT and assignment state rules", () => {
  const now = 1_000;
  const a = (status: Parameters<typeof dueTransition>[0]["status"], deadline = 2_000) => ({ status, deadline });

  it("counts pending work within its deadline, submitted including decided, and the free slots", () => {
    const list = [a("Accepted"), a("Accepted", 500), a("Submitted"), a("Approved"), a("Rejected"), a("Returned"), a("Abandoned")];
    expect(hitCounts(list, 5, now)).toEqual({ pending: 1, submitted: 3, completed: 2, available: 1 });
    expect(hitCounts(list, 3, now).available).toBe(0);
  });

  it("a HIT is assignable while a slot is free, unassignable while full and worked on, reviewable once done or expired", () => {
    const counts = (pending: number, available: number) => ({ pending, submitted: 0, completed: 0, available });
    expect(hitState({ disposed: false, expired: false, counts: counts(0, 1) })).toBe("Assignable");
    expect(hitState({ disposed: false, expired: false, counts: counts(1, 1) })).toBe("Assignable");
    expect(hitState({ disposed: false, expired: false, counts: counts(1, 0) })).toBe("Unassignable");
    expect(hitState({ disposed: false, expired: true, counts: counts(1, 1) })).toBe("Unassignable");
    expect(hitState({ disposed: false, expired: false, counts: counts(0, 0) })).toBe("Reviewable");
    expect(hitState({ disposed: false, expired: true, counts: counts(0, 2) })).toBe("Reviewable");
    expect(hitState({ disposed: false, reviewing: true, expired: true, counts: counts(0, 0) })).toBe("Reviewing");
    expect(hitState({ disposed: true, reviewing: true, expired: false, counts: counts(0, 0) })).toBe("Disposed");
  });

  it("abandons accepted work past its deadline and approves submitted work past its auto-approval time", () => {
    expect(dueTransition({ status: "Accepted", deadline: 1_000 }, now)).toBe("Abandoned");
    expect(dueTransition({ status: "Accepted", deadline: 1_001 }, now)).toBeNull();
    expect(dueTransition({ status: "Submitted", deadline: 0, autoApprovalAt: 1_000 }, now)).toBe("Approved");
    expect(dueTransition({ status: "Submitted", deadline: 0, autoApprovalAt: null }, now)).toBeNull();
    expect(dueTransition({ status: "Rejected", deadline: 0, autoApprovalAt: 10 }, now)).toBeNull();
  });
});
