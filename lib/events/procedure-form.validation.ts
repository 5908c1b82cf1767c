import { z } from "zod";
import { extensionPolicyOf, extensionPolicySettings } from "@/lib/procedure/policies";
import { ratioText } from "@/lib/procedure/ratio";
import { DEFAULT_PROCEDURE_SETTINGS, procedureSettingsSchema, type ProcedureSettings, type ProcedureSettingsInput } from "@/lib/procedure/settings";

/**
 * The procedure's rules as form fields: one zod shape shared by the "New event" form and the event's Settings page
 * (and their server actions). Every field arrives as a string from FormData; lib/procedure validates the result.
 */
/** A whole number from a text field; empty → the fallback. */
export const intField = (label: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : String(fallback)))
    .pipe(z.coerce.number<string>({ message: `${label} must be a whole number.` }).int(`${label} must be a whole number.`).min(min, `${label} must be at least ${min}.`).max(max, `${label} must be at most ${max}.`));

const ratioField = (fallback: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : fallback))
    .pipe(z.string().regex(/^\d+\s*\/\s*\d+$/, 'Write a fraction such as "7/10".'));

const D = DEFAULT_PROCEDURE_SETTINGS;

export const procedureFormFields = {
  hitSize: intField("HIT size", 2, 100, D.hitSize),
  goldPerHit: intField("Gold per HIT", 1, 99, D.goldPerHit),
  judgmentsPerTweet: intField("Judgments per tweet", 2, 50, D.judgmentsPerTweet),
  maxJudgmentsPerTweet: intField("Maximum judgments", 2, 100, D.maxJudgmentsPerTweet),
  qualificationQuestions: intField("Qualification questions", 1, 50, D.qualification.questions),
  qualificationPass: intField("Qualification pass mark", 0, 50, D.qualification.passCorrect),
  assignmentApproval: ratioField(ratioText(D.assignmentApproval)),
  tweetAcceptance: ratioField(ratioText(D.tweetAcceptance)),
  hitApproval: ratioField(ratioText(D.hitApproval)),
  belowThresholdAction: z.enum(["reject", "hold"]).default(D.belowThresholdAction),
  extensionPolicy: z.enum(["hit-reachable", "any-unresolved", "dynamic-overlap"]).default("hit-reachable"),
  unresolvedHitLabels: z.enum(["keep", "drop"]).default(D.unresolvedHitLabels),
  keepDontKnow: z.literal("on").optional(),
  goldRule: z.enum(["per-hit", "whole-record"]).default(D.goldRule),
  wholeRecordLevel: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : String(D.wholeRecordLevel * 100)))
    .pipe(z.coerce.number<string>({ message: "A percentage, e.g. 95." }).min(50, "At least 50%.").max(99.9, "At most 99.9%.")),
};

export const procedureFormSchema = z.object(procedureFormFields);
export type ProcedureForm = z.infer<typeof procedureFormSchema>;

/** The event's Settings page: the rules, the settings they were read from (to refuse a stale form), and a reason. */
export const editProcedureSettingsSchema = procedureFormSchema.extend({
  eventId: z.string().min(1).max(60),
  basis: z.string().regex(/^[0-9a-f]{64}$/, "Reload the page and try again."),
  reason: z.string().trim().max(500, "At most 500 characters.").optional(),
});
export type EditProcedureSettingsForm = z.infer<typeof editProcedureSettingsSchema>;

/** Field name in the form → path prefix in the procedure settings (to put their errors next to the field). */
const SETTINGS_FIELDS: Record<string, string> = {
  hitSize: "hitSize",
  goldPerHit: "goldPerHit",
  unknownPerHit: "goldPerHit",
  judgmentsPerTweet: "judgmentsPerTweet",
  maxJudgmentsPerTweet: "maxJudgmentsPerTweet",
  "qualification.questions": "qualificationQuestions",
  "qualification.passCorrect": "qualificationPass",
  assignmentApproval: "assignmentApproval",
  tweetAcceptance: "tweetAcceptance",
  hitApproval: "hitApproval",
  belowThresholdAction: "belowThresholdAction",
  dynamicOverlap: "extensionPolicy",
  extendWhen: "extensionPolicy",
  unresolvedHitLabels: "unresolvedHitLabels",
  release: "keepDontKnow",
  goldRule: "goldRule",
  wholeRecordLevel: "wholeRecordLevel",
};

const DONT_KNOW = "dont_know_cant_judge";

/**
 * The procedure settings of the form, validated by lib/procedure; errors keyed by form field. With `base` (an
 * event's current settings, on the Settings page) the settings the form does not show are kept from it.
 */
export function settingsFromForm(form: ProcedureForm, base?: ProcedureSettings): { ok: true; settings: ProcedureSettings } | { ok: false; fieldErrors: Record<string, string[]> } {
  const policy = extensionPolicySettings(form.extensionPolicy);
  const keepsDontKnow = (s: ProcedureSettings) => !s.release.dropLabels.includes(DONT_KNOW);
  const dropLabels = base
    ? form.keepDontKnow === "on"
      ? base.release.dropLabels.filter((l) => l !== DONT_KNOW)
      : keepsDontKnow(base)
        ? [...base.release.dropLabels, DONT_KNOW]
        : base.release.dropLabels
    : form.keepDontKnow === "on"
      ? []
      : D.release.dropLabels;
  const input: ProcedureSettingsInput = {
    ...(base ? { extendOnlyWhenReachable: base.extendOnlyWhenReachable } : {}),
    hitSize: form.hitSize,
    goldPerHit: form.goldPerHit,
    judgmentsPerTweet: form.judgmentsPerTweet,
    maxJudgmentsPerTweet: form.maxJudgmentsPerTweet,
    qualification: { questions: form.qualificationQuestions, passCorrect: form.qualificationPass },
    assignmentApproval: form.assignmentApproval.replace(/\s+/g, ""),
    tweetAcceptance: form.tweetAcceptance.replace(/\s+/g, ""),
    hitApproval: form.hitApproval.replace(/\s+/g, ""),
    belowThresholdAction: form.belowThresholdAction,
    extendWhen: policy.extendWhen,
    dynamicOverlap: { enabled: policy.dynamicOverlap.enabled, ...(base ? { initial: base.dynamicOverlap.initial } : {}) },
    unresolvedHitLabels: form.unresolvedHitLabels,
    release: { dropLabels, minTweetsPerLabel: base?.release.minTweetsPerLabel ?? D.release.minTweetsPerLabel },
    goldRule: form.goldRule,
    wholeRecordLevel: Math.round(form.wholeRecordLevel * 10) / 1000,
  };
  const parsed = procedureSettingsSchema.safeParse(input);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".");
    const field = SETTINGS_FIELDS[path] ?? SETTINGS_FIELDS[String(issue.path[0])] ?? "_form";
    (fieldErrors[field] ??= []).push(issue.message);
  }
  return { ok: false, fieldErrors };
}

/** The form's values for settings (the paper's for a new event, an event's own on its Settings page). */
export function procedureFormValues(s: ProcedureSettings) {
  return {
    hitSize: String(s.hitSize),
    goldPerHit: String(s.goldPerHit),
    judgmentsPerTweet: String(s.judgmentsPerTweet),
    maxJudgmentsPerTweet: String(s.maxJudgmentsPerTweet),
    qualificationQuestions: String(s.qualification.questions),
    qualificationPass: String(s.qualification.passCorrect),
    assignmentApproval: ratioText(s.assignmentApproval),
    tweetAcceptance: ratioText(s.tweetAcceptance),
    hitApproval: ratioText(s.hitApproval),
    belowThresholdAction: s.belowThresholdAction,
    extensionPolicy: extensionPolicyOf(s),
    unresolvedHitLabels: s.unresolvedHitLabels,
    keepDontKnow: s.release.dropLabels.includes(DONT_KNOW) ? undefined : ("on" as const),
    goldRule: s.goldRule,
    wholeRecordLevel: String(Math.round(s.wholeRecordLevel * 1000) / 10),
  };
}
export type ProcedureFormValues = ReturnType<typeof procedureFormValues>;
