import { XMLValidator } from "fast-xml-parser";
import { parseAnswerKey } from "../mturk/answer-key";
import { questionRootName } from "../mturk/question-form";
import { plainRequestError, SimError } from "./errors";

/**
 * The rules a qualification type's test fields follow, at creation and at update: a Test needs a duration and is a
 * well-formed QuestionForm, cannot be auto-granted, and an AnswerKey needs a Test and must parse.
 */
export function checkQualificationTest(
  q: { Test?: string; AnswerKey?: string; TestDurationInSeconds?: number; AutoGranted?: boolean },
  nowMs: number,
): void {
  if (q.Test !== undefined) {
    if (q.TestDurationInSeconds === undefined) throw plainRequestError("TestDurationInSeconds is required when a Test is given.", nowMs);
    if (q.AutoGranted) throw plainRequestError("AutoGranted cannot be used with a Test.", nowMs);
    if (questionRootName(q.Test) !== "QuestionForm" || XMLValidator.validate(q.Test) !== true) {
      throw new SimError("ParameterValidationError", 400, `The Test must be a well-formed QuestionForm. (${nowMs})`);
    }
  }
  if (q.AnswerKey !== undefined) {
    if (q.Test === undefined) throw plainRequestError("An AnswerKey needs a Test.", nowMs);
    try {
      parseAnswerKey(q.AnswerKey);
    } catch (err) {
      throw new SimError("ParameterValidationError", 400, `${err instanceof Error ? err.message : String(err)} (${nowMs})`);
    }
  }
}
