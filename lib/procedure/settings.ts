import { z } from "zod";
import { UserError } from "@/lib/errors";
import { minCountFor, type Ratio } from "./ratio";

/**
 * Every number of the HumAID procedure as a named setting, with the paper's defaults (section 4 of
 * seeds/humaid-paper.txt and the rule table of DESIGN.md). Events store these as JSON; read them back with
 * parseProcedureSettings, which fills defaults (also inside nested objects) and validates.
 * Fractions are exact integer ratios {num, den}; "7/10" strings are accepted on input.
 */
export type ProcedureSettings = {
  /** Tweets per HIT (gold + unknown). */
  hitSize: number;
  /** Gold tweets per HIT. */
  goldPerHit: number;
  /** Unknown tweets per HIT; always hitSize − goldPerHit. */
  unknownPerHit: number;
  /** Judgments wanted per tweet (= assignments per HIT when published). */
  judgmentsPerTweet: number;
  /** Hard cap of judgments per tweet (= MaxAssignments per HIT after extensions). */
  maxJudgmentsPerTweet: number;
  /** Qualification test: `questions` gold tweets, pass with at least `passCorrect` correct. */
  qualification: { questions: number; passCorrect: number };
  /** Assignment approved when gold correct/gold total ≥ this (7/10). */
  assignmentApproval: Ratio;
  /** Tweet label accepted when unique top and top/approved judgments ≥ this (2/3: 3·top ≥ 2·n). */
  tweetAcceptance: Ratio;
  /** HIT approved when accepted unknown tweets/unknown tweets ≥ this (14/20). */
  hitApproval: Ratio;
  /** What happens to an assignment below the approval threshold. */
  belowThresholdAction: "reject" | "hold";
  /**
   * Dynamic overlap (off by default): publish with `initial` assignments and add the remaining ones only when
   * the first judgments disagree on more than `maxDisagreements` unknown tweets. See README.md.
   */
  dynamicOverlap: { enabled: boolean; initial: number; maxDisagreements: number };
  /**
   * Ask for more assignments only when they can still change the outcome (a tweet can still reach acceptance
   * within maxJudgmentsPerTweet). With the paper's 2/3 rule a 1/1/1 split can never be accepted, so paying for
   * a 4th and 5th judgment would be wasted. Set false to always extend up to the cap.
   */
  extendOnlyWhenReachable: boolean;
  /**
   * When a HIT gets more assignments: "hit-reachable" (the paper's reading, the default) only while the HIT can
   * still reach hitApproval; "any-unresolved" also after it is approved, while any of its tweets lacks an accepted
   * label and could get one (up to maxJudgmentsPerTweet). Dynamic overlap is dynamicOverlap.enabled.
   */
  extendWhen: "hit-reachable" | "any-unresolved";
  /** Accepted labels of tweets in HITs that end unresolved: "keep" them (default) or "drop" them. */
  unresolvedHitLabels: "keep" | "drop";
  /** What the released (exported) dataset leaves out: these labels, and labels with fewer tweets per event. */
  release: { dropLabels: string[]; minTweetsPerLabel: number };
  /**
   * Which gold rule decides assignments: "per-hit" (the paper's, the default) grades each assignment on its own gold
   * tweets against assignmentApproval; "whole-record" on the worker's gold record across this event's HITs up to and
   * including the assignment (whole-record.ts).
   */
  goldRule: "per-hit" | "whole-record";
  /**
   * The whole-record rule (decides when goldRule is "whole-record", else shown beside the per-HIT rule as what it
   * would have changed): reject when the posterior probability that the worker's accuracy is below
   * assignmentApproval exceeds this level.
   */
  wholeRecordLevel: number;
};

const RATIO_STRING = /^\s*(\d+)\s*\/\s*(\d+)\s*$/;

/** A ratio as {num, den} (or "num/den"), 0 ≤ num ≤ den, den ≥ 1, integers. */
export const ratioSchema = z
  .union([
    z.strictObject({ num: z.number().int().min(0), den: z.number().int().min(1) }),
    z
      .string()
      .regex(RATIO_STRING, 'expected "num/den", e.g. "7/10"')
      .transform((s) => {
        const m = RATIO_STRING.exec(s) as RegExpExecArray;
        return { num: Number(m[1]), den: Number(m[2]) };
      }),
  ])
  .refine((r) => r.den >= 1 && r.num <= r.den, { message: "a ratio needs 0 ≤ num ≤ den and den ≥ 1" });

const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const procedureSettingsSchema = z
  .strictObject({
    hitSize: int(2, 100).optional(),
    goldPerHit: int(1, 99).optional(),
    unknownPerHit: int(1, 99).optional(),
    judgmentsPerTweet: int(2, 50).default(3),
    maxJudgmentsPerTweet: int(2, 100).default(5),
    qualification: z
      .strictObject({ questions: int(1, 50).default(10), passCorrect: int(0, 50).default(6) })
      .prefault({}),
    assignmentApproval: ratioSchema.default({ num: 7, den: 10 }),
    tweetAcceptance: ratioSchema.default({ num: 2, den: 3 }),
    hitApproval: ratioSchema.default({ num: 14, den: 20 }),
    belowThresholdAction: z.enum(["reject", "hold"]).default("reject"),
    dynamicOverlap: z
      .strictObject({
        enabled: z.boolean().default(false),
        initial: int(2, 49).default(2),
        maxDisagreements: int(0, 99).optional(),
      })
      .prefault({}),
    extendOnlyWhenReachable: z.boolean().default(true),
    extendWhen: z.enum(["hit-reachable", "any-unresolved"]).default("hit-reachable"),
    unresolvedHitLabels: z.enum(["keep", "drop"]).default("keep"),
    release: z
      .strictObject({
        dropLabels: z.array(z.string().min(1).max(100)).max(50).default(["dont_know_cant_judge"]),
        minTweetsPerLabel: int(1, 10_000).default(15),
      })
      .prefault({}),
    goldRule: z.enum(["per-hit", "whole-record"]).default("per-hit"),
    wholeRecordLevel: z.number().min(0.5).max(0.999).default(0.95),
  })
  .transform((raw, ctx): ProcedureSettings => {
    const sizes = deriveSizes(raw.hitSize, raw.goldPerHit, raw.unknownPerHit);
    if (typeof sizes === "string") {
      ctx.addIssue({ code: "custom", message: sizes, path: ["hitSize"] });
      return z.NEVER;
    }
    const hitApproval = raw.hitApproval;
    const derivedMaxDisagreements = sizes.unknownPerHit - minCountFor(sizes.unknownPerHit, hitApproval);
    const settings: ProcedureSettings = {
      ...sizes,
      judgmentsPerTweet: raw.judgmentsPerTweet,
      maxJudgmentsPerTweet: raw.maxJudgmentsPerTweet,
      qualification: raw.qualification,
      assignmentApproval: raw.assignmentApproval,
      tweetAcceptance: raw.tweetAcceptance,
      hitApproval,
      belowThresholdAction: raw.belowThresholdAction,
      dynamicOverlap: {
        enabled: raw.dynamicOverlap.enabled,
        initial: raw.dynamicOverlap.initial,
        maxDisagreements: raw.dynamicOverlap.maxDisagreements ?? derivedMaxDisagreements,
      },
      extendOnlyWhenReachable: raw.extendOnlyWhenReachable,
      extendWhen: raw.extendWhen,
      unresolvedHitLabels: raw.unresolvedHitLabels,
      release: raw.release,
      goldRule: raw.goldRule,
      wholeRecordLevel: raw.wholeRecordLevel,
    };
    for (const issue of crossFieldIssues(settings)) ctx.addIssue({ code: "custom", ...issue });
    return settings;
  });

function deriveSizes(
  hit: number | undefined,
  gold: number | undefined,
  unknown: number | undefined,
): { hitSize: number; goldPerHit: number; unknownPerHit: number } | string {
  let h = hit;
  let g = gold;
  let u = unknown;
  if (h !== undefined && g !== undefined && u !== undefined) {
    if (h !== g + u) return `hitSize (${h}) must equal goldPerHit (${g}) + unknownPerHit (${u})`;
  } else if (h !== undefined && g !== undefined) u = h - g;
  else if (h !== undefined && u !== undefined) g = h - u;
  else if (g !== undefined && u !== undefined) h = g + u;
  else if (h !== undefined) {
    g = 10;
    u = h - g;
  } else if (g !== undefined) {
    h = 30;
    u = h - g;
  } else if (u !== undefined) {
    g = 10;
    h = g + u;
  } else {
    h = 30;
    g = 10;
    u = 20;
  }
  if (g === undefined || u === undefined || h === undefined) return "hitSize, goldPerHit and unknownPerHit are incomplete";
  if (g < 1 || u < 1) return `a HIT needs at least one gold and one unknown tweet (hitSize ${h}, goldPerHit ${g})`;
  if (h > 100) return `hitSize ${h} is above the maximum of 100`;
  return { hitSize: h, goldPerHit: g, unknownPerHit: u };
}

function crossFieldIssues(s: ProcedureSettings): Array<{ message: string; path: string[] }> {
  const issues: Array<{ message: string; path: string[] }> = [];
  if (s.maxJudgmentsPerTweet < s.judgmentsPerTweet) {
    issues.push({
      message: `maxJudgmentsPerTweet (${s.maxJudgmentsPerTweet}) must be at least judgmentsPerTweet (${s.judgmentsPerTweet})`,
      path: ["maxJudgmentsPerTweet"],
    });
  }
  if (s.qualification.passCorrect > s.qualification.questions) {
    issues.push({
      message: `qualification.passCorrect (${s.qualification.passCorrect}) cannot exceed qualification.questions (${s.qualification.questions})`,
      path: ["qualification", "passCorrect"],
    });
  }
  if (s.dynamicOverlap.enabled && s.dynamicOverlap.initial >= s.judgmentsPerTweet) {
    issues.push({
      message: `dynamicOverlap.initial (${s.dynamicOverlap.initial}) must be below judgmentsPerTweet (${s.judgmentsPerTweet})`,
      path: ["dynamicOverlap", "initial"],
    });
  }
  if (s.dynamicOverlap.maxDisagreements > s.unknownPerHit) {
    issues.push({
      message: `dynamicOverlap.maxDisagreements (${s.dynamicOverlap.maxDisagreements}) cannot exceed unknownPerHit (${s.unknownPerHit})`,
      path: ["dynamicOverlap", "maxDisagreements"],
    });
  }
  if (s.tweetAcceptance.num === 0) {
    issues.push({ message: "tweetAcceptance must be above 0", path: ["tweetAcceptance"] });
  }
  return issues;
}

/** What a form or stored JSON may hold before defaults are filled (every field optional). */
export type ProcedureSettingsInput = z.input<typeof procedureSettingsSchema>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The paper's settings (deeply frozen): 30 = 10 gold + 20 unknown, 3 (up to 5) judgments, qualification 6/10, 7/10, 2/3, 14/20. */
export const DEFAULT_PROCEDURE_SETTINGS: ProcedureSettings = deepFreeze(procedureSettingsSchema.parse({}));

/**
 * Settings from stored JSON (an object, a JSON string, or null/undefined for all defaults): fills defaults and
 * validates; throws UserError listing every problem.
 */
export function parseProcedureSettings(json: unknown): ProcedureSettings {
  let input: unknown = json ?? {};
  if (typeof input === "string") {
    try {
      input = input.trim() === "" ? {} : JSON.parse(input);
    } catch {
      throw new UserError("Procedure settings are not valid JSON.", "invalid_settings");
    }
  }
  const parsed = procedureSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    const lines = parsed.error.issues.map((issue) => {
      const key = issue.path.join(".") || "(settings)";
      (fieldErrors[key] ??= []).push(issue.message);
      return `${key}: ${issue.message}`;
    });
    throw new UserError(`Invalid procedure settings: ${lines.join("; ")}`, "invalid_settings", fieldErrors);
  }
  return parsed.data;
}

/**
 * The qualification passing score as MTurk sees it: the AnswerKey's PercentageMapping gives
 * round(correct/questions·100), and the HIT requires GreaterThanOrEqualTo this percent (60 for 6 of 10).
 * With at most 50 questions each extra correct answer adds ≥ 2 points, so the percent threshold accepts exactly
 * the workers with ≥ passCorrect correct.
 */
export function qualificationPassPercent(settings: ProcedureSettings): number {
  return mturkPercent(settings.qualification.passCorrect, settings.qualification.questions);
}

/** MTurk PercentageMapping: round(sum / max × 100), halves rounded up. */
export function mturkPercent(correct: number, total: number): number {
  if (total <= 0) return 0;
  return Math.floor((200 * correct + total) / (2 * total));
}
