import { describe, expect, it } from "vitest";
import { DEFAULT_PROCEDURE_SETTINGS, parseProcedureSettings } from "@/lib/procedure/settings";
import { gradePending, gradeWrites, pendingGold, withGrades } from "./grade";
import { hitRow, storedAssignment } from "./step-fixture";

describe("grade: decisions from gold answers", () => {
  const hit = hitRow("h1", { gold: 10, unknown: 2 });
  const hits = new Map([["h1", hit]]);
  const settings = DEFAULT_PROCEDURE_SETTINGS;

  it("approves at 7/10 gold right, rejects below, and leaves decided or provider-decided assignments alone", () => {
    const list = [
      storedAssignment(hit, "a7", { correct: 7 }),
      storedAssignment(hit, "a6", { correct: 6 }),
      storedAssignment(hit, "done", { correct: 10, decision: "approve" }),
      storedAssignment(hit, "auto", { correct: 10, providerStatus: "Approved" }),
    ];
    const graded = gradePending(list, hits, settings);
    expect(graded.map((g) => [g.a.id, g.grade.decision, g.grade.correct, g.grade.total])).toEqual([
      ["a7", "approve", 7, 10],
      ["a6", "reject", 6, 10],
    ]);
  });

  it("writes the decision with its reason, an audit entry and a live message for each grade", () => {
    const at = new Date("2026-12-01T12:00:00Z");
    const [w] = gradeWrites(gradePending([storedAssignment(hit, "a6", { correct: 6 })], hits, settings), at);
    expect(w.update).toMatchObject({ id: "a6", decision: "reject", decidedBy: "system", decidedAt: at, goldCorrect: 6, goldTotal: 10 });
    expect(w.update.feedback).toBe(w.update.decisionReason.text);
    expect(w.audit).toMatchObject({ eventId: "ev", entityType: "assignment", entityId: "a6", action: "reject" });
    expect(w.live).toMatchObject({ eventId: "ev", kind: "decision", data: { assignmentId: "a6", hitId: "h1", decision: "reject" } });
  });

  it("gives delivery the assignments with the grades this process won, the others unchanged", () => {
    const list = [storedAssignment(hit, "a7", { correct: 7 }), storedAssignment(hit, "a6", { correct: 6 })];
    const [won] = gradePending(list, hits, settings);
    const after = withGrades(list, [won]);
    expect(after.map((a) => [a.id, a.decision])).toEqual([
      ["a7", "approve"],
      ["a6", null],
    ]);
    expect(list[0].decision).toBeNull(); // the input is not changed
  });

  it("under the whole-record rule, grades each assignment with its worker's record before it and writes the record", () => {
    const whole = parseProcedureSettings({ goldRule: "whole-record" });
    const list = [storedAssignment(hit, "a6", { correct: 6 }), storedAssignment(hit, "a4", { correct: 4 })];
    expect(pendingGold(list, hits).map((p) => p.gold.own)).toEqual([
      { correct: 6, total: 10 },
      { correct: 4, total: 10 },
    ]);
    // a6 is the worker's first (6/10: P(accuracy < 70%) = 0.79), a4 comes after 6 of 10 (10/20: 0.97 > 0.95).
    const graded = gradePending(list, hits, whole, new Map([["a4", { correct: 6, total: 10 }]]));
    expect(graded.map((g) => [g.a.id, g.grade.decision, g.grade.reason.rule, g.grade.reason.record?.correct, g.grade.reason.record?.total])).toEqual([
      ["a6", "approve", "whole_record", 6, 10],
      ["a4", "reject", "whole_record", 10, 20],
    ]);
    const [, w] = gradeWrites(graded, new Date());
    expect(w.update).toMatchObject({ decision: "reject", goldCorrect: 4, goldTotal: 10 });
    expect(w.audit.details).toMatchObject({ rule: "whole_record", record: { correct: 10, total: 20, level: 0.95 } });
  });
});
