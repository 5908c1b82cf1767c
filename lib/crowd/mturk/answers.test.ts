import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createRng, randomInt } from "@/lib/util/random";
import { CrowdError } from "../errors";
import { buildQuestionFormAnswers, parseQuestionFormAnswers, QUESTION_FORM_ANSWERS_NS, type QuestionFormAnswer } from "./answers";
import { decodeXmlEntities } from "./xml-text";

// parseQuestionFormAnswers is a dedicated scanner; this test holds it to a general XML parser (fast-xml-parser,
// which Accord used before) on generated documents with everything MTurk's answers may contain.

const reference = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: false,
  cdataPropName: "__cdata",
  isArray: (name) => name === "Answer" || name === "SelectionIdentifier",
});

function textOf(node: unknown): string | undefined {
  if (node === undefined || node === null) return undefined;
  if (typeof node === "string") return decodeXmlEntities(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  const n = node as { __cdata?: unknown; "#text"?: unknown };
  const parts: string[] = [];
  if (n["#text"] !== undefined) parts.push(decodeXmlEntities(String(n["#text"])));
  if (n.__cdata !== undefined) parts.push(Array.isArray(n.__cdata) ? n.__cdata.map(String).join("") : String(n.__cdata));
  return parts.join("");
}

function referenceParse(xml: string): QuestionFormAnswer[] {
  const root = (reference.parse(xml) as Record<string, { Answer?: Array<Record<string, unknown>> }>).QuestionFormAnswers;
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

const PIECES = ["flood", "caution_and_advice", " spaced  out ", "a&amp;b", "&lt;tag&gt;", "&#128512;", "&#x1F30A;", "&quot;q&quot;", "&apos;", "tab\there", "line\nbreak", "ünï", "Ω"];

function randomDoc(rng: () => number): string {
  const pick = <T,>(xs: readonly T[]) => xs[randomInt(rng, xs.length)];
  const ws = () => pick(["", "", " ", "\n  ", "\t"]);
  const text = () => Array.from({ length: randomInt(rng, 3) + 1 }, () => pick(PIECES)).join(pick(["", " "]));
  // (CDATA alone: the reference puts a node's text before its CDATA whatever their order in the document)
  const content = () => (rng() < 0.2 ? `<![CDATA[${pick(["<b>raw & bold</b>", "x]]y", " cdata "])}]]>` : text() + (rng() < 0.15 ? `<!-- note -->${text()}` : ""));
  const p = rng() < 0.3 ? "q:" : "";
  const answers = Array.from({ length: randomInt(rng, 6) }, (_, k) => {
    let inner = `${ws()}<${p}QuestionIdentifier>${ws()}item_${k}${ws()}</${p}QuestionIdentifier>${ws()}`;
    const kind = randomInt(rng, 4);
    if (kind === 0) inner += `<${p}FreeText>${content()}</${p}FreeText>`;
    else if (kind === 1) inner += Array.from({ length: randomInt(rng, 3) + 1 }, () => `<${p}SelectionIdentifier>${ws()}${pick(["a", "b", "c"])}${ws()}</${p}SelectionIdentifier>`).join(ws());
    else if (kind === 2) inner += `<${p}SelectionIdentifier>x</${p}SelectionIdentifier><${p}OtherSelectionText>${content()}</${p}OtherSelectionText>`;
    else inner += `<${p}UploadedFileKey> key/${k} </${p}UploadedFileKey><${p}UploadedFileSizeInBytes>${randomInt(rng, 99999)}</${p}UploadedFileSizeInBytes>`;
    return `<${p}Answer${rng() < 0.2 ? ' data-x="a>b"' : ""}>${inner}${ws()}</${p}Answer>`;
  }).join(ws());
  const decl = rng() < 0.7 ? `<?xml version="1.0" encoding="ASCII"?>${ws()}` : "";
  const ns = p ? `xmlns:q="${QUESTION_FORM_ANSWERS_NS}"` : `xmlns="${QUESTION_FORM_ANSWERS_NS}"`;
  return `${decl}${rng() < 0.2 ? "<!-- MTurk -->" : ""}<${p}QuestionFormAnswers ${ns}>${ws()}${answers}${ws()}</${p}QuestionFormAnswers>${ws()}`;
}

describe("parseQuestionFormAnswers", () => {
  it("agrees with a general XML parser on 2,000 generated answer documents", () => {
    const rng = createRng(42);
    for (let k = 0; k < 2_000; k++) {
      const xml = randomDoc(rng);
      expect(parseQuestionFormAnswers(xml), xml).toEqual(referenceParse(xml));
    }
  });

  it("reads back what buildQuestionFormAnswers writes, non-ASCII included", () => {
    const answers: QuestionFormAnswer[] = [
      { questionId: "t1", freeText: 'it\'s <ok> & "fine" 😀 — ünï' },
      { questionId: "t2", selectionIds: ["a", "b"] },
      { questionId: "t3", selectionIds: ["other"], otherSelectionText: "my own" },
    ];
    expect(parseQuestionFormAnswers(buildQuestionFormAnswers(answers))).toEqual(answers);
  });

  it("handles self-closing elements and skips unknown ones", () => {
    const xml = `<QuestionFormAnswers><Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText/><Extra><FreeText>no</FreeText></Extra></Answer><Answer/></QuestionFormAnswers>`;
    expect(parseQuestionFormAnswers(xml)).toEqual([{ questionId: "a", freeText: "" }, { questionId: "" }]);
    expect(parseQuestionFormAnswers("<QuestionFormAnswers/>")).toEqual([]);
  });

  it("keeps text and CDATA in document order", () => {
    const xml = `<QuestionFormAnswers><Answer><QuestionIdentifier>c</QuestionIdentifier><FreeText>a &amp; <![CDATA[<b>&amp;</b>]]> z</FreeText></Answer></QuestionFormAnswers>`;
    expect(parseQuestionFormAnswers(xml)).toEqual([{ questionId: "c", freeText: "a & <b>&amp;</b> z" }]);
  });

  it.each([
    ["<QuestionFormAnswers><Answer></QuestionFormAnswers>", /does not close <Answer>/],
    ["<QuestionFormAnswers><Answer>", /<Answer> is not closed/],
    ["<QuestionFormAnswers></Answer>", /does not close/],
    ["</QuestionFormAnswers>", /unexpected end tag/],
    ["<QuestionFormAnswers><!-- open </QuestionFormAnswers>", /unclosed comment/],
    ["<QuestionFormAnswers><Answer><FreeText><![CDATA[x</FreeText></Answer></QuestionFormAnswers>", /unclosed CDATA/],
    ['<QuestionFormAnswers a="1></QuestionFormAnswers>', /unclosed tag/],
    ["<QuestionFormAnswers></QuestionFormAnswers><QuestionFormAnswers></QuestionFormAnswers>", /more than one root/],
    ["junk<QuestionFormAnswers></QuestionFormAnswers>", /text outside the root/],
    ['<!DOCTYPE x [<!ENTITY e "boom">]><QuestionFormAnswers></QuestionFormAnswers>', /document type/],
    ["", /no root element/],
  ])("rejects malformed XML with a clear message: %s", (xml, message) => {
    expect(() => parseQuestionFormAnswers(xml)).toThrow(CrowdError);
    expect(() => parseQuestionFormAnswers(xml)).toThrow(message);
  });

  it("says so when the document is well-formed but not QuestionFormAnswers", () => {
    expect(() => parseQuestionFormAnswers("<nope></nope>")).toThrow("not a QuestionFormAnswers document");
  });
});
