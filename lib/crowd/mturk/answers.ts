import { XMLParser } from "fast-xml-parser";
import { CrowdError } from "../errors";
import { decodeXmlEntities, stripInvalidXmlChars } from "./xml-text";

export const QUESTION_FORM_ANSWERS_NS =
  "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd";

/** One <Answer> of a QuestionFormAnswers document. */
export interface QuestionFormAnswer {
  questionId: string;
  freeText?: string;
  selectionIds?: string[];
  otherSelectionText?: string;
  uploadedFileKey?: string;
  uploadedFileSizeInBytes?: number;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: false,
  cdataPropName: "__cdata",
  isArray: (name) => name === "Answer" || name === "SelectionIdentifier",
});

type Node = string | { __cdata?: unknown; "#text"?: unknown } | undefined;

/** Text of a parsed node: entity-decoded text plus raw CDATA. */
function textOf(node: unknown): string | undefined {
  if (node === undefined || node === null) return undefined;
  if (typeof node === "string") return decodeXmlEntities(node);
  if (typeof node === "number" || typeof node === "boolean") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  const n = node as Exclude<Node, string | undefined>;
  const parts: string[] = [];
  if (n["#text"] !== undefined) parts.push(decodeXmlEntities(String(n["#text"])));
  if (n.__cdata !== undefined) parts.push(Array.isArray(n.__cdata) ? n.__cdata.map(String).join("") : String(n.__cdata));
  return parts.join("");
}

/**
 * Parses the QuestionFormAnswers XML that MTurk returns in Assignment.Answer (and QualificationRequest.Answer).
 * Non-ASCII characters arrive as numeric character references (MTurk writes encoding="ASCII"); they are decoded.
 */
export function parseQuestionFormAnswers(xml: string): QuestionFormAnswer[] {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (err) {
    throw new CrowdError(`The assignment's answer is not valid XML: ${err instanceof Error ? err.message : String(err)}`, "invalid_parameter");
  }
  const root = doc.QuestionFormAnswers as { Answer?: Array<Record<string, unknown>> } | undefined;
  if (!root || typeof root !== "object") {
    throw new CrowdError("The assignment's answer is not a QuestionFormAnswers document.", "invalid_parameter");
  }
  return (root.Answer ?? []).map((a) => {
    const answer: QuestionFormAnswer = { questionId: (textOf(a.QuestionIdentifier) ?? "").trim() };
    const free = textOf(a.FreeText);
    if (free !== undefined) answer.freeText = free;
    if (Array.isArray(a.SelectionIdentifier)) answer.selectionIds = a.SelectionIdentifier.map((s) => (textOf(s) ?? "").trim());
    const other = textOf(a.OtherSelectionText);
    if (other !== undefined) answer.otherSelectionText = other;
    const key = textOf(a.UploadedFileKey);
    if (key !== undefined) answer.uploadedFileKey = key.trim();
    const size = textOf(a.UploadedFileSizeInBytes);
    if (size !== undefined) answer.uploadedFileSizeInBytes = Number(size);
    return answer;
  });
}

/** Escapes for an encoding="ASCII" document: markup characters as entities, everything non-ASCII as &#N;. */
function escapeAscii(text: string): string {
  let out = "";
  for (const ch of stripInvalidXmlChars(text)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === "&") out += "&amp;";
    else if (ch === "<") out += "&lt;";
    else if (ch === ">") out += "&gt;";
    else if (ch === '"') out += "&quot;";
    else if (cp > 126 || (cp < 32 && ch !== "\n" && ch !== "\t" && ch !== "\r")) out += `&#${cp};`;
    else out += ch;
  }
  return out;
}

/** Writes a QuestionFormAnswers document the way MTurk does (ASCII, numeric references for anything else). */
export function buildQuestionFormAnswers(answers: QuestionFormAnswer[]): string {
  const body = answers
    .map((a) => {
      let inner = `<QuestionIdentifier>${escapeAscii(a.questionId)}</QuestionIdentifier>`;
      if (a.selectionIds) inner += a.selectionIds.map((s) => `<SelectionIdentifier>${escapeAscii(s)}</SelectionIdentifier>`).join("");
      if (a.otherSelectionText !== undefined) inner += `<OtherSelectionText>${escapeAscii(a.otherSelectionText)}</OtherSelectionText>`;
      if (a.freeText !== undefined) inner += `<FreeText>${escapeAscii(a.freeText)}</FreeText>`;
      return `<Answer>${inner}</Answer>`;
    })
    .join("");
  return `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NS}">${body}</QuestionFormAnswers>`;
}

/** Value of one crowd-form field: strings as is; a radio group such as {"a": false, "b": true} → "b". */
function crowdFieldValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const chosen = Object.entries(value as Record<string, unknown>).filter(([, v]) => v === true);
    if (chosen.length === 1) return chosen[0][0];
    const label = (value as Record<string, unknown>).label;
    if (typeof label === "string") return label;
  }
  return undefined;
}

/**
 * Flattens answers into form fields: per-field FreeText answers (plain HTML / External forms) and the fields of
 * a crowd-form's `taskAnswers` JSON ([{field: value, …}]), so both kinds of form read the same way.
 * Selection answers (QuestionForm HITs) give their first SelectionIdentifier.
 */
export function answerFields(answers: QuestionFormAnswer[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (const a of answers) {
    if (a.questionId === "taskAnswers" && a.freeText !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(a.freeText);
      } catch {
        throw new CrowdError("The assignment's taskAnswers is not valid JSON.", "invalid_parameter");
      }
      const objects = Array.isArray(parsed) ? parsed : [parsed];
      for (const obj of objects) {
        if (!obj || typeof obj !== "object") continue;
        for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
          const value = crowdFieldValue(v);
          if (value !== undefined) fields.set(k, value);
        }
      }
    } else if (a.freeText !== undefined) {
      fields.set(a.questionId, a.freeText);
    } else if (a.selectionIds && a.selectionIds.length > 0) {
      fields.set(a.questionId, a.selectionIds[0]);
    } else if (a.otherSelectionText !== undefined) {
      fields.set(a.questionId, a.otherSelectionText);
    }
  }
  return fields;
}
