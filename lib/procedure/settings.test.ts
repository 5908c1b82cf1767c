import { describe, expect, it } from "vitest";
import { UserError } from "@/lib/errors";
import { meetsRatio, minCountFor, ratioPercentText } from "./ratio";
import {
  DEFAULT_PROCEDURE_SETTINGS,
  mturkPercent,
  parseProcedureSettings,
  qualificationPassPercent,
} from "./settings";

describe("ratios", () => {
  it("compares with integers: 2/3 and 3/4 pass, 3/5 and 2/4 fail at 2/3", () => {
    const r = { num: 2, den: 3 };
    expect(meetsRatio(2, 3, r)).toBe(true);
    expect(meetsRatio(3, 4, r)).toBe(true);
    expect(meetsRatio(3, 5, r)).toBe(false);
    expect(meetsRatio(2, 4, r)).toBe(false);
    expect(meetsRatio(4, 6, r)).toBe(true);
    expect(meetsRatio(0, 0, r)).toBe(false);
  });
  it("finds the minimal count and formats percentages", () => {
    expect(minCountFor(10, { num: 7, den: 10 })).toBe(7);
    expect(minCountFor(20, { num: 14, den: 20 })).toBe(14);
    expect(minCountFor(9, { num: 7, den: 10 })).toBe(7); // 6.3 → 7
    expect(minCountFor(3, { num: 2, den: 3 })).toBe(2);
    expect(minCountFor(17, { num: 14, den: 20 })).toBe(12); // 11.9 → 12
    expect(ratioPercentText({ num: 7, den: 10 })).toBe("70%");
    expect(ratioPercentText({ num: 2, den: 3 })).toBe("66.7%");
    expect(ratioPercentText({ num: 14, den: 20 })).toBe("70%");
  });
});

describe("procedure settings", () => {
  it("has the paper's defaults", () => {
    expect(DEFAULT_PROCEDURE_SETTINGS).toEqual({
      hitSize: 30,
      goldPerHit: 10,
      unknownPerHit: 20,
      judgmentsPerTweet: 3,
      maxJudgmentsPerTweet: 5,
      qualification: { questions: 10, passCorrect: 6 },
      assignmentApproval: { num: 7, den: 10 },
      tweetAcceptance: { num: 2, den: 3 },
      hitApproval: { num: 14, den: 20 },
      belowThresholdAction: "reject",
      dynamicOverlap: { enabled: false, initial: 2, maxDisagreements: 6 },
      extendOnlyWhenReachable: true,
      extendWhen: "hit-reachable",
      unresolvedHitLabels: "keep",
      release: { dropLabels: ["dont_know_cant_judge"], minTweetsPerLabel: 15 },
      goldRule: "per-hit",
      wholeRecordLevel: 0.95,
    });
    expect(qualificationPassPercent(DEFAULT_PROCEDURE_SETTINGS)).toBe(60);
    expect(Object.isFrozen(DEFAULT_PROCEDURE_SETTINGS.hitApproval)).toBe(true);
    // parsing returns fresh objects that callers may change
    const copy = parseProcedureSettings({});
    copy.hitApproval.num = 15;
    expect(DEFAULT_PROCEDURE_SETTINGS.hitApproval.num).toBe(14);
  });

  it("fills defaults from null, {}, JSON strings and partial nested objects, and round-trips", () => {
    expect(parseProcedureSettings(null)).toEqual(DEFAULT_PROCEDURE_SETTINGS);
    expect(parseProcedureSettings(undefined)).toEqual(DEFAULT_PROCEDURE_SETTINGS);
    expect(parseProcedureSettings("")).toEqual(DEFAULT_PROCEDURE_SETTINGS);
    const s = parseProcedureSettings('{"qualification":{"passCorrect":7},"dynamicOverlap":{"enabled":true}}');
    expect(s.qualification).toEqual({ questions: 10, passCorrect: 7 });
    expect(s.dynamicOverlap).toEqual({ enabled: true, initial: 2, maxDisagreements: 6 });
    expect(parseProcedureSettings(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it("derives the third HIT size from any two, or from one with the default gold", () => {
    expect(parseProcedureSettings({ hitSize: 20 })).toMatchObject({ hitSize: 20, goldPerHit: 10, unknownPerHit: 10 });
    expect(parseProcedureSettings({ goldPerHit: 5 })).toMatchObject({ hitSize: 30, goldPerHit: 5, unknownPerHit: 25 });
    expect(parseProcedureSettings({ unknownPerHit: 40 })).toMatchObject({ hitSize: 50, goldPerHit: 10 });
    expect(parseProcedureSettings({ hitSize: 12, unknownPerHit: 8 })).toMatchObject({ goldPerHit: 4 });
    // derived maxDisagreements follows the HIT approval rule for the new size: 10 − ceil(0.7·10) = 3
    expect(parseProcedureSettings({ hitSize: 20 }).dynamicOverlap.maxDisagreements).toBe(3);
  });

  it("accepts ratios as num/den strings", () => {
    expect(parseProcedureSettings({ assignmentApproval: "8/10" }).assignmentApproval).toEqual({ num: 8, den: 10 });
  });

  it("rejects invalid settings with every problem listed", () => {
    const bad = [
      { hitSize: 30, goldPerHit: 10, unknownPerHit: 25 },
      { judgmentsPerTweet: 4, maxJudgmentsPerTweet: 3 },
      { qualification: { questions: 5, passCorrect: 6 } },
      { assignmentApproval: { num: 11, den: 10 } },
      { assignmentApproval: { num: 1, den: 0 } },
      { tweetAcceptance: "0/3" },
      { belowThresholdAction: "ignore" },
      { dynamicOverlap: { enabled: true, initial: 3 } },
      { goldPerhit: 10 },
      { hitSize: 10, goldPerHit: 10 },
      "{not json",
      42,
    ];
    for (const b of bad) {
      expect(() => parseProcedureSettings(b), JSON.stringify(b)).toThrow(UserError);
    }
    try {
      parseProcedureSettings({ judgmentsPerTweet: 4, maxJudgmentsPerTweet: 3, qualification: { passCorrect: 11 } });
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      const e = err as UserError;
      expect(e.message).toContain("maxJudgmentsPerTweet");
      expect(e.message).toContain("qualification.passCorrect");
      expect(Object.keys(e.fieldErrors ?? {})).toContain("maxJudgmentsPerTweet");
    }
  });

  it("computes MTurk's PercentageMapping and keeps the percent threshold exact for every test size", () => {
    expect(mturkPercent(6, 10)).toBe(60);
    expect(mturkPercent(2, 3)).toBe(67);
    expect(mturkPercent(1, 8)).toBe(13); // 12.5 rounds up
    for (let questions = 1; questions <= 50; questions++) {
      for (let pass = 0; pass <= questions; pass++) {
        const s = { ...DEFAULT_PROCEDURE_SETTINGS, qualification: { questions, passCorrect: pass } };
        const p = qualificationPassPercent(s);
        for (let c = 0; c <= questions; c++) {
          expect(mturkPercent(c, questions) >= p).toBe(c >= pass);
        }
      }
    }
  });
});
