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

/** The elements of an <Answer> whose text Accord reads; anything else inside an answer is skipped. */
const ANSWER_CHILD_NAMES = ["QuestionIdentifier", "FreeText", "SelectionIdentifier", "OtherSelectionText", "UploadedFileKey", "UploadedFileSizeInBytes"] as const;
type AnswerChild = (typeof ANSWER_CHILD_NAMES)[number];
const ANSWER_CHILDREN = new Set<string>(ANSWER_CHILD_NAMES);

function invalid(reason: string): CrowdError {
  return new CrowdError(`The assignment's answer is not valid XML: ${reason}`, "invalid_parameter");
}

const localName = (qname: string) => qname.slice(qname.indexOf(":") + 1);

/**
 * Parses the QuestionFormAnswers XML that MTurk returns in Assignment.Answer (and QualificationRequest.Answer).
 * Non-ASCII characters arrive as numeric character references (MTurk writes encoding="ASCII"); they are decoded.
 *
 * A single-pass scanner for this one document type (declaration, comments, processing instructions, CDATA,
 * namespace prefixes, attributes, nesting checked), several times faster than fast-xml-parser (README, benchmark
 * table): the sync loop parses every assignment's answers. answers.test.ts holds it to fast-xml-parser on generated
 * documents.
 */
export function parseQuestionFormAnswers(xml: string): QuestionFormAnswer[] {
  const answers: QuestionFormAnswer[] = [];
  const stack: string[] = [];
  let sawRoot = false;
  let rootIsForm = false;
  let answer: QuestionFormAnswer | null = null;
  let child: AnswerChild | null = null;
  let childDepth = -1;
  let text = "";
  let i = 0;
  const n = xml.length;
  const closeChild = () => {
    if (!answer || !child) return;
    if (child === "QuestionIdentifier") answer.questionId = (answer.questionId ?? "") + text;
    else if (child === "FreeText") answer.freeText = (answer.freeText ?? "") + text;
    else if (child === "SelectionIdentifier") (answer.selectionIds ??= []).push(text.trim());
    else if (child === "OtherSelectionText") answer.otherSelectionText = (answer.otherSelectionText ?? "") + text;
    else if (child === "UploadedFileKey") answer.uploadedFileKey = ((answer.uploadedFileKey ?? "") + text).trim();
    else answer.uploadedFileSizeInBytes = Number(text);
    child = null;
    childDepth = -1;
    text = "";
  };
  while (i < n) {
    const lt = xml.indexOf("<", i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      const raw = xml.slice(i, end);
      if (stack.length === 0) {
        if (raw.trim() !== "") throw invalid("text outside the root element");
      } else if (child && stack.length === childDepth) {
        text += raw.indexOf("&") === -1 ? raw : decodeXmlEntities(raw);
      }
    }
    if (lt === -1) break;
    if (xml.startsWith("<!--", lt)) {
      const close = xml.indexOf("-->", lt + 4);
      if (close === -1) throw invalid("unclosed comment");
      i = close + 3;
    } else if (xml.startsWith("<![CDATA[", lt)) {
      const close = xml.indexOf("]]>", lt + 9);
      if (close === -1) throw invalid("unclosed CDATA section");
      if (stack.length === 0) throw invalid("CDATA outside the root element");
      if (child && stack.length === childDepth) text += xml.slice(lt + 9, close);
      i = close + 3;
    } else if (xml.startsWith("<?", lt)) {
      const close = xml.indexOf("?>", lt + 2);
      if (close === -1) throw invalid("unclosed processing instruction");
      i = close + 2;
    } else if (xml.startsWith("<!", lt)) {
      throw invalid("document type declarations are not allowed");
    } else {
      // A start or end tag: its ">" (outside quoted attribute values, when there are quotes).
      let j = xml.indexOf(">", lt + 1);
      let inner = j === -1 ? xml.slice(lt + 1) : xml.slice(lt + 1, j);
      if (inner.indexOf('"') !== -1 || inner.indexOf("'") !== -1 || j === -1) {
        let quote = "";
        for (j = lt + 1; j < n; j++) {
          const c = xml[j];
          if (quote) {
            if (c === quote) quote = "";
          } else if (c === '"' || c === "'") quote = c;
          else if (c === ">") break;
        }
        if (j >= n) throw invalid("unclosed tag");
        inner = xml.slice(lt + 1, j);
      }
      if (inner.indexOf("<") !== -1) throw invalid(`"<" inside a tag at offset ${lt}`); // not even in attribute values
      i = j + 1;
      if (inner[0] === "/") {
        const name = inner.slice(1).trim();
        const open = stack.pop();
        if (open === undefined) throw invalid(`unexpected end tag </${name}>`);
        if (open !== name) throw invalid(`end tag </${name}> does not close <${open}>`);
        if (child && stack.length === childDepth - 1) closeChild();
        else if (answer && stack.length === 1 && localName(name) === "Answer") {
          answer.questionId = answer.questionId.trim();
          answers.push(answer);
          answer = null;
        }
        continue;
      }
      const selfClosing = inner.endsWith("/");
      const m = /^[^\s/]+/.exec(inner);
      if (!m) throw invalid(`a tag without a name at offset ${lt}`);
      const name = m[0];
      const local = localName(name);
      if (stack.length === 0) {
        if (sawRoot) throw invalid("more than one root element");
        sawRoot = true;
        rootIsForm = local === "QuestionFormAnswers";
      } else if (rootIsForm && stack.length === 1 && local === "Answer") {
        answer = { questionId: "" };
      } else if (answer && stack.length === 2 && ANSWER_CHILDREN.has(local) && !child) {
        child = local as AnswerChild;
        childDepth = stack.length + 1;
        text = "";
      }
      if (selfClosing) {
        if (child && childDepth === stack.length + 1) closeChild();
        else if (answer && stack.length === 1) {
          answers.push(answer);
          answer = null;
        }
      } else stack.push(name);
    }
  }
  if (stack.length > 0) throw invalid(`<${stack[stack.length - 1]}> is not closed`);
  if (!sawRoot) throw invalid("no root element");
  if (!rootIsForm) throw new CrowdError("The assignment's answer is not a QuestionFormAnswers document.", "invalid_parameter");
  return answers;
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
      if (a.uploadedFileKey !== undefined) {
        inner += `<UploadedFileSizeInBytes>${String(a.uploadedFileSizeInBytes ?? 0)}</UploadedFileSizeInBytes><UploadedFileKey>${escapeAscii(a.uploadedFileKey)}</UploadedFileKey>`;
      }
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
