import { XMLParser } from "fast-xml-parser";
import { CrowdError } from "../errors";
import type { QuestionFormAnswer } from "./answers";
import { decodeXmlEntities } from "./xml-text";

/** A parsed AnswerKey (docs/mturk-protocol.md §3, "AnswerKey scoring"). */
export interface AnswerKey {
  questions: Array<{
    questionId: string;
    options: Array<{ selectionIds: string[]; score: number }>;
    defaultScore: number;
  }>;
  mapping:
    | { kind: "none" }
    | { kind: "percentage"; maximumSummedScore: number }
    | { kind: "scale"; multiplier: number }
    | { kind: "range"; ranges: Array<{ lower: number; upper: number; value: number }>; outOfRangeValue?: number };
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  isArray: (name) => ["Question", "AnswerOption", "SelectionIdentifier", "SummedScoreRange"].includes(name),
});

type Obj = Record<string, unknown>;

function str(v: unknown): string {
  return decodeXmlEntities(typeof v === "string" ? v : v === undefined || v === null ? "" : String(v)).trim();
}

function num(v: unknown, what: string): number {
  const n = Number(str(v));
  if (str(v) === "" || !Number.isFinite(n)) throw new CrowdError(`The answer key's ${what} is not a number.`, "invalid_parameter");
  return n;
}

export function parseAnswerKey(xml: string): AnswerKey {
  let doc: Obj;
  try {
    doc = parser.parse(xml) as Obj;
  } catch (err) {
    throw new CrowdError(`The answer key is not valid XML: ${err instanceof Error ? err.message : String(err)}`, "invalid_parameter");
  }
  const root = doc.AnswerKey as Obj | undefined;
  if (!root || typeof root !== "object") throw new CrowdError("The document is not an AnswerKey.", "invalid_parameter");
  const questions = ((root.Question as Obj[] | undefined) ?? []).map((q) => ({
    questionId: str(q.QuestionIdentifier),
    options: ((q.AnswerOption as Obj[] | undefined) ?? []).map((o) => ({
      selectionIds: ((o.SelectionIdentifier as unknown[] | undefined) ?? []).map(str),
      score: num(o.AnswerScore, "AnswerScore"),
    })),
    defaultScore: q.DefaultScore === undefined ? 0 : num(q.DefaultScore, "DefaultScore"),
  }));
  let mapping: AnswerKey["mapping"] = { kind: "none" };
  const m = root.QualificationValueMapping as Obj | undefined;
  if (m && typeof m === "object") {
    if (m.PercentageMapping) {
      mapping = { kind: "percentage", maximumSummedScore: num((m.PercentageMapping as Obj).MaximumSummedScore, "MaximumSummedScore") };
    } else if (m.ScaleMapping) {
      mapping = { kind: "scale", multiplier: num((m.ScaleMapping as Obj).SummedScoreMultiplier, "SummedScoreMultiplier") };
    } else if (m.RangeMapping) {
      const r = m.RangeMapping as Obj;
      mapping = {
        kind: "range",
        ranges: ((r.SummedScoreRange as Obj[] | undefined) ?? []).map((x) => ({
          lower: num(x.InclusiveLowerBound, "InclusiveLowerBound"),
          upper: num(x.InclusiveUpperBound, "InclusiveUpperBound"),
          value: num(x.QualificationValue, "QualificationValue"),
        })),
        outOfRangeValue: r.OutOfRangeQualificationValue === undefined ? undefined : num(r.OutOfRangeQualificationValue, "OutOfRangeQualificationValue"),
      };
    }
  }
  return { questions, mapping };
}

function sameSet(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

/**
 * Grades answers with an AnswerKey as MTurk does: an option scores only if the worker selected exactly its set
 * of SelectionIdentifiers; otherwise DefaultScore (0). The sum goes through the mapping:
 * Percentage → round(sum / max × 100); Scale → sum × multiplier; Range → the matching range's value.
 */
export function gradeAnswerKey(key: AnswerKey, answers: QuestionFormAnswer[]): { summedScore: number; value: number } {
  const byId = new Map(answers.map((a) => [a.questionId, a]));
  let sum = 0;
  for (const q of key.questions) {
    const given = byId.get(q.questionId)?.selectionIds ?? [];
    const option = q.options.find((o) => sameSet(o.selectionIds, given));
    sum += option ? option.score : q.defaultScore;
  }
  let value: number;
  switch (key.mapping.kind) {
    case "percentage":
      value = key.mapping.maximumSummedScore > 0 ? Math.round((sum / key.mapping.maximumSummedScore) * 100) : 0;
      break;
    case "scale":
      value = Math.round(sum * key.mapping.multiplier);
      break;
    case "range": {
      const r = key.mapping.ranges.find((x) => sum >= x.lower && sum <= x.upper);
      value = r ? r.value : (key.mapping.outOfRangeValue ?? 0);
      break;
    }
    default:
      value = sum;
  }
  return { summedScore: sum, value };
}

/** The best-scoring option of each question (what a perfectly accurate worker would select). */
export function bestAnswers(key: AnswerKey): Map<string, string[]> {
  const best = new Map<string, string[]>();
  for (const q of key.questions) {
    const top = [...q.options].sort((a, b) => b.score - a.score)[0];
    if (top && top.score > q.defaultScore) best.set(q.questionId, top.selectionIds);
  }
  return best;
}
