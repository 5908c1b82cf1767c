import { z } from "zod";
import { extensionPolicyOf, extensionPolicySettings } from "@/lib/procedure/policies";
import { ratioText } from "@/lib/procedure/ratio";
import { allAtOnce, type FieldErrors, mergeErrors, parseFieldByField } from "./form-checks";
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
  hitSize: intField("Tweets per HIT", 2, 100, D.hitSize),
  goldPerHit: intField("Gold tweets per HIT", 1, 99, D.goldPerHit),
  judgmentsPerTweet: intField("Judgments per tweet", 2, 50, D.judgmentsPerTweet),
  maxJudgmentsPerTweet: intField("The most judgments per tweet", 2, 100, D.maxJudgmentsPerTweet),
  qualificationQuestions: intField("Qualification test questions", 1, 50, D.qualification.questions),
  qualificationPass: intField("The pass mark", 0, 50, D.qualification.passCorrect),
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
/** The Settings page's action input: every rule problem at once (the event's own settings are checked when saving). */
export const editProcedureSettingsInput = allAtOnce(editProcedureSettingsSchema, (raw) => ruleFieldErrors(raw, { finalCheck: false }));

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
    (fieldErrors[field] ??= []).push(inFormWords(issue.message));
  }
  return { ok: false, fieldErrors };
}

/** lib/procedure's names of settings → the form's words, for a message that reaches the form. */
const WORDS: Array<[RegExp, string]> = [
  [/\bqualification\.passCorrect\b/g, "the pass mark"],
  [/\bqualification\.questions\b/g, "the number of test questions"],
  [/\bmaxJudgmentsPerTweet\b/g, "the most judgments per tweet"],
  [/\bjudgmentsPerTweet\b/g, "judgments per tweet"],
  [/\bdynamicOverlap\.initial\b/g, "the first judgments under dynamic overlap"],
  [/\bdynamicOverlap\.maxDisagreements\b/g, "the disagreements allowed"],
  [/\bunknownPerHit\b/g, "unknown tweets per HIT"],
  [/\bgoldPerHit\b/g, "gold tweets per HIT"],
  [/\bhitSize\b/g, "tweets per HIT"],
  [/\btweetAcceptance\b/g, "the tweet acceptance share"],
];

export function inFormWords(message: string): string {
  const s = WORDS.reduce((m, [re, words]) => m.replace(re, words), message);
  return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
}

const RATIO = /^(\d+)\s*\/\s*(\d+)$/;
const RATIO_LABELS: Record<"assignmentApproval" | "tweetAcceptance" | "hitApproval", string> = {
  assignmentApproval: "The assignment approval share",
  tweetAcceptance: "The tweet acceptance share",
  hitApproval: "The HIT approval share",
};

/**
 * Every problem of the rule fields at once, keyed by form field, in the form's words: each field on its own, then the
 * rules between fields on whatever parsed (a pass mark above the questions, at most fewer than the judgments, gold
 * filling the HIT, a share above 1), then anything lib/procedure still refuses once those pass.
 */
export function ruleFieldErrors(raw: Record<string, unknown>, { finalCheck = true }: { finalCheck?: boolean } = {}): FieldErrors {
  const { values: f, errors } = parseFieldByField(procedureFormFields, raw);
  const cross: FieldErrors = {};
  const add = (field: string, message: string) => (cross[field] ??= []).push(message);
  for (const field of Object.keys(RATIO_LABELS) as Array<keyof typeof RATIO_LABELS>) {
    const m = RATIO.exec(f[field] ?? "");
    if (!m) continue;
    const [num, den] = [Number(m[1]), Number(m[2])];
    if (den < 1) add(field, `${RATIO_LABELS[field]} ${f[field]} has nothing below the line: write e.g. 7/10.`);
    else if (num > den) add(field, `${RATIO_LABELS[field]} ${num}/${den} is more than all of them: the top number cannot exceed the bottom one.`);
    else if (field === "tweetAcceptance" && num === 0) add(field, `${RATIO_LABELS[field]} must be above 0 (e.g. 2/3).`);
  }
  if (!errors.hitSize && !errors.goldPerHit && f.goldPerHit >= f.hitSize) {
    add("goldPerHit", `${f.goldPerHit} gold tweets leave no room for unknown tweets in a HIT of ${f.hitSize} tweets: at most ${f.hitSize - 1}.`);
  }
  if (!errors.judgmentsPerTweet && !errors.maxJudgmentsPerTweet && f.maxJudgmentsPerTweet < f.judgmentsPerTweet) {
    add("maxJudgmentsPerTweet", `At most ${f.maxJudgmentsPerTweet} judgments is fewer than the ${f.judgmentsPerTweet} judgments per tweet: at least ${f.judgmentsPerTweet}.`);
  }
  if (!errors.qualificationQuestions && !errors.qualificationPass && f.qualificationPass > f.qualificationQuestions) {
    add("qualificationPass", `A pass mark of ${f.qualificationPass} cannot be reached with ${f.qualificationQuestions} test questions: at most ${f.qualificationQuestions}.`);
  }
  const found = mergeErrors(errors, cross);
  if (Object.keys(found).length > 0 || !finalCheck) return found;
  const settings = settingsFromForm(f as ProcedureForm);
  return settings.ok ? {} : settings.fieldErrors;
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
