import { describe, expect, it } from "vitest";
import { crowdPolicySettingsSchema, type PolicyInput } from "../policy";
import { localPolicy } from "../local/policy";
import { mturkPolicy } from "../mturk/policy";
import { prolificPolicy, tooQuick } from "./policy";

const below = { decision: "reject" as const, text: "Rejected: 6 of 10 gold tweets correct; at least 7 of 10 (70%) needed.", correct: 6, total: 10 };
const passed = { decision: "approve" as const, text: "Approved: 9 of 10 gold tweets correct.", correct: 9, total: 10 };
const input = (over: Partial<PolicyInput> = {}): PolicyInput => ({
  verdict: below,
  attention: null,
  durationSeconds: 600,
  study: { completionSeconds: [], places: 60, rejected: 0, assignmentDurationSeconds: 3600 },
  settings: crowdPolicySettingsSchema.parse({}),
  ...over,
});
/** Prolific refuses a rejection message under 100 characters. */
const prolificMessageOk = (text: string) => text.length >= 100;
const checks = crowdPolicySettingsSchema.parse({ attentionChecks: true, rejectFailedChecks: true });

describe("the crowds' decision policies", () => {
  it("Prolific by default: below the gold rule approved and excluded (block list), above approved; never rejected", () => {
    expect(prolificPolicy.decide(input())).toMatchObject({ action: "exclude", block: true });
    expect(prolificPolicy.decide(input({ verdict: passed }))).toEqual({ action: "approve" });
    // Checks failed but rejection for them off (the default): still no rejection.
    expect(prolificPolicy.decide(input({ attention: { names: ["a", "b"], failed: ["a", "b"] } })).action).toBe("exclude");
  });

  it("Prolific with attention checks: two failed reject as FAILED_CHECK with a ≥ 100-character message naming them; one does not (one does under 5 minutes)", () => {
    const attention = { names: ["Item 4: choose Not humanitarian", "Item 17: choose Sympathy and support"], failed: ["Item 4: choose Not humanitarian", "Item 17: choose Sympathy and support"] };
    const r = prolificPolicy.decide(input({ settings: checks, attention, verdict: passed }));
    expect(r).toMatchObject({ action: "reject", category: "FAILED_CHECK" });
    const message = (r as { message: string }).message;
    expect(prolificMessageOk(message)).toBe(true);
    for (const name of attention.failed) expect(message).toContain(name);
    const one = { ...attention, failed: attention.failed.slice(0, 1) };
    expect(prolificPolicy.decide(input({ settings: checks, attention: one, verdict: passed })).action).toBe("approve");
    expect(prolificPolicy.decide(input({ settings: checks, attention: one, verdict: passed, study: { completionSeconds: [], places: 60, rejected: 0, assignmentDurationSeconds: 720 } })).action).toBe("reject");
  });

  it("Prolific TOO_QUICKLY: only 3 SD below the mean, only once the study has 10 completions", () => {
    const others = [600, 620, 580, 610, 590, 605, 595, 615, 585, 600];
    expect(tooQuick(100, others.slice(0, 9))).toBe(false);
    expect(tooQuick(100, others)).toBe(true);
    expect(tooQuick(580, others)).toBe(false);
    const settings = crowdPolicySettingsSchema.parse({ rejectTooQuick: true });
    const r = prolificPolicy.decide(input({ settings, durationSeconds: 100, study: { completionSeconds: others, places: 60, rejected: 0, assignmentDurationSeconds: 3600 } }));
    expect(r).toMatchObject({ action: "reject", category: "TOO_QUICKLY" });
    expect(prolificMessageOk((r as { message: string }).message)).toBe(true);
  });

  it("Prolific's rejection cap: at most 5% of the study's places; the rest held", () => {
    const attention = { names: ["a", "b"], failed: ["a", "b"] };
    expect(prolificPolicy.decide(input({ settings: checks, attention, study: { completionSeconds: [], places: 60, rejected: 2, assignmentDurationSeconds: 3600 } })).action).toBe("reject");
    expect(prolificPolicy.decide(input({ settings: checks, attention, study: { completionSeconds: [], places: 60, rejected: 3, assignmentDurationSeconds: 3600 } })).action).toBe("hold");
    expect(prolificPolicy.decide(input({ settings: checks, attention, study: { completionSeconds: [], places: 10, rejected: 0, assignmentDurationSeconds: 3600 } })).action).toBe("hold");
  });

  it("the pre-launch check refuses what Prolific forbids, with a one-sentence reason", () => {
    const describe = (raw: object) => prolificPolicy.describe({ settings: crowdPolicySettingsSchema.parse(raw), belowThresholdAction: "reject" });
    expect(describe({}).refusal).toBeNull();
    expect(describe({}).statements.join(" ")).toContain("approved and paid, its judgments are left out");
    expect(describe({ rejectFailedChecks: true }).refusal).toMatch(/^Prolific allows rejection for failed checks only when the study has fair attention checks[^.]*\.$/);
    expect(describe({ belowGold: "reject" }).refusal).toMatch(/knowledge questions/);
    // Accord's Prolific page carries the checks: the setting is allowed and stated, with the rejection it allows.
    const withChecks = describe({ attentionChecks: true, rejectFailedChecks: true });
    expect(withChecks.refusal).toBeNull();
    expect(withChecks.statements.join(" ")).toContain("carries 2 instructed-response attention checks");
    expect(withChecks.statements.join(" ")).toContain("rejected as FAILED_CHECK with a message naming the checks");
    expect(describe({ attentionChecks: true, belowGold: "reject" }).refusal).toMatch(/knowledge questions/);
  });

  it("MTurk unchanged: reject with the rule as feedback, or hold; in-house never rejects", () => {
    expect(mturkPolicy.decide(input())).toEqual({ action: "reject", category: null, message: below.text });
    expect(mturkPolicy.decide(input({ verdict: { ...below, decision: "hold" } })).action).toBe("hold");
    expect(localPolicy.decide(input())).toMatchObject({ action: "exclude", block: false });
    expect(localPolicy.decide(input({ verdict: passed }))).toEqual({ action: "approve" });
  });
});
