import type { SchemeLabel } from "@/lib/labels/humaid";
import { CrowdError } from "../errors";
import type { QualificationRequirement } from "../provider";
import { assertMturkXmlSize, escapeXml } from "./xml-text";
import { displayText } from "@/lib/text/display-text";

/** Namespace Accord writes (current); the 2005-10-01 namespace is still accepted and has the same structure. */
export const QUESTION_FORM_NS = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd";
export const QUESTION_FORM_NS_2005 = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionForm.xsd";
export const ANSWER_KEY_NS = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd";

export interface GoldTweet {
  tweetId: string;
  text: string;
  /** The expert label: one of the scheme's values. */
  label: string;
}

export interface BuildQualificationTestInput {
  gold: GoldTweet[];
  labels: SchemeLabel[];
  title?: string;
  instructions?: string;
}

export interface QualificationTestXml {
  questionFormXml: string;
  answerKeyXml: string;
  /** QuestionIdentifier of each gold tweet, in order ("gold-1", "gold-2", …). */
  questionIds: string[];
  /** MaximumSummedScore (= number of questions). */
  maxScore: number;
}

const DEFAULT_TITLE = "Qualification test: categorise disaster tweets";
const DEFAULT_INSTRUCTIONS =
  "Read each tweet and choose the one category that best describes it. Enough correct answers qualify you to work on these HITs.";

export function goldQuestionId(position: number): string {
  return `gold-${position}`;
}

function validate({ gold, labels }: BuildQualificationTestInput): void {
  if (gold.length === 0) throw new CrowdError("The qualification test needs at least one gold tweet.", "invalid_parameter");
  if (labels.length < 2) throw new CrowdError("The label scheme needs at least two labels.", "invalid_parameter");
  const values = new Set(labels.map((l) => l.value));
  for (const l of labels) {
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(l.value)) {
      throw new CrowdError(`Label value "${l.value}" must be 1–64 letters, digits, "_", ".", ":" or "-".`, "invalid_parameter");
    }
  }
  gold.forEach((g, i) => {
    if (!values.has(g.label)) {
      throw new CrowdError(
        `Gold tweet ${i + 1} (${g.tweetId}) has label "${g.label}", which is not in the scheme (${[...values].join(", ")}).`,
        "invalid_parameter",
      );
    }
    if (g.text.trim() === "") throw new CrowdError(`Gold tweet ${i + 1} (${g.tweetId}) has no text.`, "invalid_parameter");
  });
}

/**
 * The qualification test (QuestionForm, one required radio-button question per gold tweet listing the scheme's
 * labels) and its AnswerKey (1 point per correct answer, PercentageMapping → score 0–100). All text is escaped.
 * Throws CrowdError("too_large") past MTurk's 64 KB limits, CrowdError("invalid_parameter") on bad input.
 */
export function buildQualificationTest(input: BuildQualificationTestInput): QualificationTestXml {
  validate(input);
  const { gold, labels } = input;
  const title = input.title ?? DEFAULT_TITLE;
  const instructions = input.instructions ?? DEFAULT_INSTRUCTIONS;
  const questionIds = gold.map((_, i) => goldQuestionId(i + 1));

  const selections = labels
    .map((l) => `<Selection><SelectionIdentifier>${escapeXml(l.value)}</SelectionIdentifier><Text>${escapeXml(l.name)}</Text></Selection>`)
    .join("");
  const categoryList = labels.map((l) => `<ListItem>${escapeXml(l.description ? `${l.name}: ${l.description}` : l.name)}</ListItem>`).join("");

  const questions = gold
    .map(
      (g, i) =>
        `<Question><QuestionIdentifier>${questionIds[i]}</QuestionIdentifier><DisplayName>Tweet ${i + 1}</DisplayName>` +
        `<IsRequired>true</IsRequired><QuestionContent><Text>${escapeXml(displayText(g.text))}</Text></QuestionContent>` +
        `<AnswerSpecification><SelectionAnswer><MinSelectionCount>1</MinSelectionCount><MaxSelectionCount>1</MaxSelectionCount>` +
        `<StyleSuggestion>radiobutton</StyleSuggestion><Selections>${selections}</Selections></SelectionAnswer></AnswerSpecification></Question>`,
    )
    .join("\n");

  const questionFormXml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<QuestionForm xmlns="${QUESTION_FORM_NS}">\n` +
    `<Overview><Title>${escapeXml(title)}</Title><Text>${escapeXml(instructions)}</Text><List>${categoryList}</List></Overview>\n` +
    `${questions}\n</QuestionForm>\n`;

  const keyQuestions = gold
    .map(
      (g, i) =>
        `<Question><QuestionIdentifier>${questionIds[i]}</QuestionIdentifier>` +
        `<AnswerOption><SelectionIdentifier>${escapeXml(g.label)}</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>`,
    )
    .join("\n");
  const answerKeyXml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<AnswerKey xmlns="${ANSWER_KEY_NS}">\n${keyQuestions}\n` +
    `<QualificationValueMapping><PercentageMapping><MaximumSummedScore>${gold.length}</MaximumSummedScore></PercentageMapping></QualificationValueMapping>\n` +
    `</AnswerKey>\n`;

  assertMturkXmlSize(questionFormXml, "qualification test (QuestionForm)", "Use fewer or shorter gold tweets.");
  assertMturkXmlSize(answerKeyXml, "answer key", "Use fewer gold tweets.");
  return { questionFormXml, answerKeyXml, questionIds, maxScore: gold.length };
}

/**
 * The HIT requirement that goes with a test built above: score (percentage) ≥ minPercent.
 * With 10 gold tweets and minPercent 60, 6/10 passes and 5/10 does not.
 */
export function passingScoreRequirement({
  qualificationTypeId,
  minPercent = 60,
  actionsGuarded = "Accept",
}: {
  qualificationTypeId: string;
  minPercent?: number;
  actionsGuarded?: QualificationRequirement["actionsGuarded"];
}): QualificationRequirement {
  return { qualificationTypeId, comparator: "GreaterThanOrEqualTo", integerValues: [minPercent], actionsGuarded };
}
