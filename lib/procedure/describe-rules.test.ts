import { describe, expect, it } from "vitest";
import { describeRules } from "./describe-rules";
import { DEFAULT_PROCEDURE_SETTINGS, parseProcedureSettings } from "./settings";

describe("describeRules", () => {
  it("prints the paper's numbers from the default settings", () => {
    const r = describeRules(DEFAULT_PROCEDURE_SETTINGS);
    expect(r.short).toEqual({
      hitComposition: "10 gold + 20 unknown",
      hitSize: "30 tweets",
      assignmentApproval: "≥ 7/10",
      goldRule: "≥ 7/10 correct",
      tweetAcceptance: "≥ 2/3",
      hitApproval: "≥ 14/20",
      judgments: "3 (up to 5)",
      qualification: "≥ 6/10",
    });
    expect(r.lines.map((l) => l.key)).toEqual(["hit", "judgments", "qualification", "assignment", "goldRule", "tweet", "hitApproval", "extension", "unresolvedHits", "release"]);
    expect(r.lines.find((l) => l.key === "release")?.text).toContain("dont_know_cant_judge");
  });

  it("prints other settings' numbers and never the paper's", () => {
    const s = parseProcedureSettings({ goldPerHit: 5, unknownPerHit: 15, assignmentApproval: "8/10", tweetAcceptance: "3/4", belowThresholdAction: "hold", release: { dropLabels: [] } });
    const r = describeRules(s);
    const text = r.lines.map((l) => l.text).join("\n") + JSON.stringify(r.short);
    expect(r.short.hitComposition).toBe("5 gold + 15 unknown");
    expect(r.short.assignmentApproval).toBe("≥ 8/10");
    expect(r.short.tweetAcceptance).toBe("≥ 3/4");
    expect(r.short.hitApproval).toBe("≥ 11/15");
    expect(text).toContain("held for a researcher's review");
    expect(text).not.toMatch(/2\/3|7\/10|14\/20|10 gold \+|20 unknown|dont_know/);
  });

  it("describes the whole-record gold rule from the settings, with what each gold rule costs", () => {
    const lines = (input: object) => describeRules(parseProcedureSettings(input)).lines;
    const whole = lines({ goldRule: "whole-record", wholeRecordLevel: 0.9, assignmentApproval: "8/10", goldPerHit: 5, unknownPerHit: 15 });
    expect(whole.find((l) => l.key === "assignment")?.text).toBe(
      "An assignment is judged on its worker's gold record over this event's HITs up to it (5 gold tweets per HIT): it is rejected (and not paid) when, under a uniform prior, the probability that the worker's accuracy is below 8/10 (80%) exceeds 90%, and approved otherwise.",
    );
    expect(describeRules(parseProcedureSettings({ goldRule: "whole-record", wholeRecordLevel: 0.9, assignmentApproval: "8/10" })).short.goldRule).toBe("P(accuracy < 8/10) ≤ 90% over the worker's gold record");
    expect(whole.find((l) => l.key === "goldRule")?.text).toContain("Rejects fewer honest workers for one unlucky HIT");
    expect(lines({}).find((l) => l.key === "goldRule")?.text).toContain("Catches a spammer on their first HIT");
    expect(lines({}).find((l) => l.key === "assignment")?.text).toContain("at least 7 of its 10 gold tweets are right");
  });

  it("describes each extension policy", () => {
    const text = (input: object) => describeRules(parseProcedureSettings(input)).lines.find((l) => l.key === "extension")?.text;
    expect(text({})).toContain("only while the HIT can still reach 14/20");
    expect(text({ extendWhen: "any-unresolved" })).toContain("even after the HIT is approved");
    expect(text({ dynamicOverlap: { enabled: true } })).toContain("starts with 2 assignments");
  });
});
