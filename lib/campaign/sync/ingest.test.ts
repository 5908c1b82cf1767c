import { describe, expect, it } from "vitest";
import { diffAssignments, ingestRows } from "./ingest";
import { hitRow, LABELS, remoteAssignment } from "./step-fixture";

describe("ingest: new assignments and their rows", () => {
  const hit = hitRow("h1");
  const now = new Date("2026-12-01T12:00:00Z");

  it("keeps the assignments not stored yet, and the stored ones whose provider status moved", () => {
    const remote = new Map([["h1", [remoteAssignment(hit, "A1"), remoteAssignment(hit, "A2", { status: "Approved" }), remoteAssignment(hit, "A3")]]]);
    const known = [
      { id: "a2", providerAssignmentId: "A2", providerStatus: "Submitted" },
      { id: "a3", providerAssignmentId: "A3", providerStatus: "Submitted" },
    ];
    const { fresh, moved } = diffAssignments([hit], remote, known);
    expect(fresh.map((f) => f.a.assignmentId)).toEqual(["A1"]);
    expect(moved).toEqual([{ id: "a2", providerStatus: "Approved" }]);
  });

  it("stores a submitted assignment undecided, with one uncounted judgment per tweet and gold marked right or wrong", () => {
    const a = remoteAssignment(hit, "A1", { answer: (i) => (i === 1 ? "other_relevant_information_wrong_label_x" : LABELS[i % LABELS.length].value) });
    const [rows] = ingestRows([{ hit, a }], { workerIds: new Map([["W1", "w1"]]), labels: LABELS, now, id: () => "a1" });
    expect(rows.assignment).toMatchObject({ id: "a1", hitId: "h1", workerId: "w1", providerAssignmentId: "A1", status: "submitted", decision: null, decidedBy: null, decisionSentAt: null });
    // Item 1's answer is not a label of the scheme: it is not a judgment.
    expect(rows.judgments.map((j) => [j.tweetId, j.isGold, j.correct, j.counted])).toEqual([
      ["h1-t0", true, true, false],
      ["h1-t2", false, null, false],
      ["h1-t3", false, null, false],
      ["h1-t4", false, null, false],
    ]);
    expect(rows.payment).toBeNull();
    expect(rows.audit).toBeNull();
    expect(rows.answer).toEqual({ assignmentId: "a1", raw: a.answerXml });
  });

  it("records an assignment the provider already approved as approved, counted, paid and audited", () => {
    const [rows] = ingestRows([{ hit, a: remoteAssignment(hit, "A1", { status: "Approved" }) }], { workerIds: new Map([["W1", "w1"]]), labels: LABELS, now, id: () => "a1" });
    expect(rows.assignment).toMatchObject({ status: "approved", decision: "approve", decidedBy: "provider", decidedAt: now, decisionSentAt: now });
    expect(rows.judgments.filter((j) => j.counted).map((j) => j.tweetId)).toEqual(["h1-t2", "h1-t3", "h1-t4"]);
    expect(rows.payment).toEqual({ eventId: "ev", hitId: "h1", assignmentId: "a1", workerId: "w1", rewardCents: 50, maxAssignments: 3 });
    expect(rows.audit?.action).toBe("approved-by-provider");
  });

  it("records one the provider rejected as rejected, nothing counted or paid", () => {
    const [rows] = ingestRows([{ hit, a: remoteAssignment(hit, "A1", { status: "Rejected" }) }], { workerIds: new Map([["W1", "w1"]]), labels: LABELS, now, id: () => "a1" });
    expect(rows.assignment).toMatchObject({ status: "rejected", decision: "reject" });
    expect(rows.judgments.some((j) => j.counted)).toBe(false);
    expect(rows.payment).toBeNull();
    expect(rows.audit?.action).toBe("rejected-by-provider");
  });
});
