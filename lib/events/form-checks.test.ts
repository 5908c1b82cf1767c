import { describe, expect, it } from "vitest";
import { newEventFormInput } from "./events.validation";
import { editProcedureSettingsInput, inFormWords } from "./procedure-form.validation";

const errorsOf = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) => {
  const out: Record<string, string[]> = {};
  for (const i of r.error?.issues ?? []) (out[String(i.path[0] ?? "_form")] ??= []).push(i.message);
  return out;
};

const absurd = {
  name: "Absurd rules",
  type: "flood",
  schemeId: "scheme-1",
  assignmentApproval: "15/10",
  hitApproval: "30/20",
  qualificationQuestions: "10",
  qualificationPass: "11",
  judgmentsPerTweet: "3",
  maxJudgmentsPerTweet: "2",
};

describe("the New-event form answers once", () => {
  it("names every absurd rule in one reply, in the field's words", () => {
    const errors = errorsOf(newEventFormInput.safeParse(absurd));
    expect(Object.keys(errors).sort()).toEqual(["assignmentApproval", "hitApproval", "maxJudgmentsPerTweet", "qualificationPass"]);
    expect(errors.assignmentApproval[0]).toBe("The assignment approval share 15/10 is more than all of them: the top number cannot exceed the bottom one.");
    expect(errors.hitApproval[0]).toContain("30/20");
    expect(errors.qualificationPass[0]).toBe("A pass mark of 11 cannot be reached with 10 test questions: at most 10.");
    expect(errors.maxJudgmentsPerTweet[0]).toBe("At most 2 judgments is fewer than the 3 judgments per tweet: at least 3.");
    expect(JSON.stringify(errors)).not.toMatch(/qualification\.passCorrect|maxJudgmentsPerTweet \(|passCorrect/);
  });

  it("reports field-level problems and rules together (a bad name does not hide the rules, nor the dates)", () => {
    const errors = errorsOf(newEventFormInput.safeParse({ ...absurd, name: "x", startDate: "2017-09-02", endDate: "2017-09-01", hitSize: "10", goldPerHit: "10" }));
    expect(errors.name).toBeDefined();
    expect(errors.endDate).toEqual(["The end date is before the start date."]);
    expect(errors.goldPerHit).toEqual(["10 gold tweets leave no room for unknown tweets in a HIT of 10 tweets: at most 9."]);
    expect(errors.qualificationPass).toBeDefined();
    expect(errors.assignmentApproval).toBeDefined();
  });

  it("passes a sensible form through as the form schema's value", () => {
    const r = newEventFormInput.safeParse({ name: "Flood 2026", type: "flood", schemeId: "scheme-1" });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ name: "Flood 2026", hitSize: 30, goldPerHit: 10 });
  });

  it("does the same on the Settings page, and turns lib/procedure's names into words", () => {
    const errors = errorsOf(editProcedureSettingsInput.safeParse({ ...absurd, eventId: "e1", basis: "a".repeat(64) }));
    expect(Object.keys(errors).sort()).toEqual(["assignmentApproval", "hitApproval", "maxJudgmentsPerTweet", "qualificationPass"]);
    expect(inFormWords("qualification.passCorrect (11) cannot exceed qualification.questions (10)")).toBe("The pass mark (11) cannot exceed the number of test questions (10).");
  });
});
