import { toRequesterFeedback } from "./feedback";
import { meetsRatio, minCountFor, ratioPercentText, type Ratio } from "./ratio";
import { mturkPercent, qualificationPassPercent, type ProcedureSettings } from "./settings";
import { DECISION, type Decision } from "@/lib/db/enums";
import { type GoldRecord, judgeWholeRecord } from "./whole-record";

export type GoldAnswer = {
  /** The worker's label; null/undefined when the gold tweet was left unanswered (counts as wrong). */
  given: string | null | undefined;
  /** The expert label. */
  expected: string;
};

export type AssignmentDecision = Decision;

export type AssignmentGrade = {
  correct: number;
  total: number;
  decision: AssignmentDecision;
  reason: {
    rule: "assignment_approval" | "whole_record" | "no_gold";
    correct: number;
    total: number;
    threshold: Ratio;
    /** Smallest number of correct gold answers that approves (7 of 10). */
    required: number;
    /** Worker-facing text; valid MTurk RequesterFeedback (≤ 1024 characters, no control characters). */
    text: string;
    /** Rule "whole_record": the worker's gold record in the event up to and including this assignment, and its posterior. */
    record?: { correct: number; total: number; posterior: number; level: number };
  };
};

/**
 * Grades one assignment on its gold tweets: approve when correct/total ≥ settings.assignmentApproval (7/10),
 * otherwise reject or hold (settings.belowThresholdAction). With settings.goldRule "whole-record" the worker's
 * record in the event before this assignment (`priorRecord`, none when absent) is added to its gold and judged by
 * the whole-record rule (whole-record.ts). The reason is for the audit log and, as `text`, for the worker. The text
 * never names the gold tweets or their labels.
 */
export function gradeAssignment({
  goldAnswers,
  settings,
  priorRecord,
}: {
  goldAnswers: readonly GoldAnswer[];
  settings: ProcedureSettings;
  priorRecord?: GoldRecord;
}): AssignmentGrade {
  const total = goldAnswers.length;
  let correct = 0;
  for (const a of goldAnswers) if (a.given != null && a.given === a.expected) correct++;
  const threshold = settings.assignmentApproval;
  const required = minCountFor(total, threshold);
  if (total === 0) {
    return {
      correct,
      total,
      decision: DECISION.hold,
      reason: {
        rule: "no_gold",
        correct,
        total,
        threshold,
        required,
        text: toRequesterFeedback("Held for review: this assignment had no gold tweets to grade automatically."),
      },
    };
  }
  if (settings.goldRule === "whole-record") return gradeOnRecord(correct, total, priorRecord ?? { correct: 0, total: 0 }, settings);
  const passed = meetsRatio(correct, total, threshold);
  const decision: AssignmentDecision = passed ? DECISION.approve : settings.belowThresholdAction;
  const counts = `${correct} of ${total} gold tweets correct`;
  const need = `at least ${required} of ${total} (${ratioPercentText(threshold)})`;
  const text =
    decision === DECISION.approve
      ? `Approved: ${counts}; ${need} needed.`
      : decision === DECISION.reject
        ? `Rejected: ${counts}; ${need} needed.`
        : `Held for review: ${counts}; ${need} needed for automatic approval.`;
  return {
    correct,
    total,
    decision,
    reason: { rule: "assignment_approval", correct, total, threshold, required, text: toRequesterFeedback(text) },
  };
}

const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** The whole-record rule's grade of an assignment with gold (`total` > 0). */
function gradeOnRecord(correct: number, total: number, prior: GoldRecord, settings: ProcedureSettings): AssignmentGrade {
  const threshold = settings.assignmentApproval;
  const judged = judgeWholeRecord({ correct, total }, prior, settings);
  const decision: AssignmentDecision = judged.passes ? DECISION.approve : settings.belowThresholdAction;
  const counts = `${correct} of ${total} gold tweets correct here, ${judged.record.correct} of ${judged.record.total} over your HITs of this event`;
  const rule = `the chance that your accuracy is below ${ratioPercentText(threshold)} is ${percent(judged.posterior)}`;
  const limit = `at most ${percent(judged.level)} allowed`;
  const text =
    decision === DECISION.approve
      ? `Approved: ${counts}; ${rule} (${limit}).`
      : decision === DECISION.reject
        ? `Rejected: ${counts}; ${rule}, above the ${percent(judged.level)} allowed.`
        : `Held for review: ${counts}; ${rule}, above the ${percent(judged.level)} allowed for automatic approval.`;
  return {
    correct,
    total,
    decision,
    reason: {
      rule: "whole_record",
      correct,
      total,
      threshold,
      required: minCountFor(total, threshold),
      text: toRequesterFeedback(text),
      record: { ...judged.record, posterior: judged.posterior, level: judged.level },
    },
  };
}

export type QualificationGrade = {
  passed: boolean;
  correct: number;
  total: number;
  /** MTurk's PercentageMapping score: round(correct/total·100). */
  percent: number;
  /** The percent a worker needs (60 for 6/10); use it as the HIT's GreaterThanOrEqualTo IntegerValue. */
  requiredPercent: number;
  /** Correct answers needed for `total` questions. */
  required: number;
  reason: { rule: "qualification"; text: string };
};

/**
 * Grades a qualification test: pass with ≥ passCorrect of questions correct (6 of 10). When the test had a
 * different number of questions, the same ratio applies (passCorrect/questions).
 */
export function gradeQualification({
  correct,
  total,
  settings,
}: {
  correct: number;
  total: number;
  settings: ProcedureSettings;
}): QualificationGrade {
  if (!Number.isInteger(correct) || !Number.isInteger(total) || correct < 0 || total < 0 || correct > total) {
    throw new RangeError(`invalid qualification score ${correct}/${total}`);
  }
  const ratio: Ratio = { num: settings.qualification.passCorrect, den: settings.qualification.questions };
  const required = minCountFor(total, ratio);
  const passed = total > 0 && correct * ratio.den >= ratio.num * total;
  const percent = mturkPercent(correct, total);
  const requiredPercent =
    total === settings.qualification.questions ? qualificationPassPercent(settings) : mturkPercent(required, total);
  const text = `${passed ? "Passed" : "Not passed"}: ${correct} of ${total} correct; at least ${required} of ${total} needed.`;
  return { passed, correct, total, percent, requiredPercent, required, reason: { rule: "qualification", text } };
}
