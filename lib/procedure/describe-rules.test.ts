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
      tweetAcceptance: "≥ 2/3",
      hitApproval: "≥ 14/20",
      judgments: "3 (up to 5)",
      qualification: "≥ 6/10",
    });
    expect(r.lines.map((l) => l.key)).toEqual(["hit", "judgments", "qualification", "assignment", "tweet", "hitApproval", "extension", "unresolvedHits", "release"]);
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

  it("describes each extension policy", () => {
    const text = (input: object) => describeRules(parseProcedureSettings(input)).lines.find((l) => l.key === "extension")?.text;
    expect(text({})).toContain("only while the HIT can still reach 14/20");
    expect(text({ extendWhen: "any-unresolved" })).toContain("even after the HIT is approved");
    expect(text({ dynamicOverlap: { enabled: true } })).toContain("starts with 2 assignments");
  });
});
