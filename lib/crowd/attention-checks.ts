import type { SchemeLabel } from "@/lib/labels/humaid";
import { createRng, seedFrom } from "@/lib/util/random";

/**
 * Instructed-response attention checks (Prolific's fair checks): an item among a HIT's tweets whose question itself
 * says which answer to choose. They are derived from the HIT's id alone, so the task page and the sync loop's grading
 * compute the same checks with nothing stored; their answers are neither judgments nor gold.
 */
export type AttentionCheck = {
  /** 1-based, in page order. */
  number: number;
  /** The form field of the check's radio group (never an `item-…` field: the answer parser leaves it out of judgments). */
  fieldName: string;
  /** The 1-based tweet position the check comes after on the page. */
  after: number;
  /** The label value the instruction asks for, and its display name. */
  value: string;
  name: string;
  /** The explicit instruction, shown as the item's question. */
  text: string;
};

/** Checks per HIT (Prolific: a submission failing 2 may be rejected). */
export const ATTENTION_CHECKS_PER_HIT = 2;

export const checkFieldName = (n: number) => `check-${n}`;

const instruction = (name: string) => `Attention check: for this item, choose “${name}”.`;

/**
 * The HIT's checks, deterministic from its id: the tweets are split into `count` equal runs and each check follows a
 * tweet of its own run (distinct positions, spread over the HIT); each asks for a different label while the scheme
 * has enough. A HIT of fewer tweets than `count` gets one check per tweet.
 */
export function attentionChecksFor(hitId: string, labels: readonly SchemeLabel[], tweets: number, count = ATTENTION_CHECKS_PER_HIT): AttentionCheck[] {
  const n = Math.min(count, Math.max(0, Math.floor(tweets)));
  if (n === 0 || labels.length === 0) return [];
  const rng = createRng(seedFrom("attention-checks", hitId));
  const unused = [...labels];
  const checks: AttentionCheck[] = [];
  for (let i = 0; i < n; i++) {
    const lo = Math.floor((i * tweets) / n) + 1;
    const hi = Math.floor(((i + 1) * tweets) / n);
    const after = lo + Math.floor(rng() * (hi - lo + 1));
    const label = unused.length > 0 ? unused.splice(Math.floor(rng() * unused.length), 1)[0]! : labels[Math.floor(rng() * labels.length)]!;
    checks.push({ number: i + 1, fieldName: checkFieldName(i + 1), after, value: label.value, name: label.name, text: instruction(label.name) });
  }
  return checks;
}

/** What an answer shows in a message: the label's name, else the value as given (bounded), or nothing. */
function shown(value: string | undefined, labels: ReadonlyMap<string, string>): string {
  const v = value?.trim();
  if (!v) return "nothing";
  return `“${labels.get(v) ?? (v.length > 40 ? `${v.slice(0, 40)}…` : v)}”`;
}

/** A check as a message names it: "check 2 (after tweet 14)". */
export const checkName = (c: AttentionCheck) => `check ${c.number} (after tweet ${c.after})`;

/**
 * The submission's answers to its HIT's checks: every check by name, and each failed one with what it asked for and
 * what was answered (the policy's rejection message quotes them). A missing answer fails its check.
 */
export function gradeAttentionChecks(checks: readonly AttentionCheck[], answers: ReadonlyMap<string, string>, labels: readonly SchemeLabel[] = []): { names: string[]; failed: string[] } {
  const names = new Map(labels.map((l) => [l.value, l.name]));
  for (const c of checks) names.set(c.value, c.name);
  const failed = checks
    .filter((c) => answers.get(c.fieldName)?.trim() !== c.value)
    .map((c) => `${checkName(c)}: asked for “${c.name}”, answered ${shown(answers.get(c.fieldName), names)}`);
  return { names: checks.map(checkName), failed };
}

/**
 * The attention checks a submission answered, graded; null when its answers hold none of the checks' fields: the
 * page it was given showed none (submitted before the setting was turned on; the page requires every check it shows),
 * so there is nothing it could have failed.
 */
export function attentionOf(checks: readonly AttentionCheck[], answers: ReadonlyMap<string, string>, labels: readonly SchemeLabel[] = []): { names: string[]; failed: string[] } | null {
  if (!checks.some((c) => answers.has(c.fieldName))) return null;
  return gradeAttentionChecks(checks, answers, labels);
}
