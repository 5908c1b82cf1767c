import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { CrowdError } from "../errors";
import { goldTweets, nastyItems } from "../test-fixtures";
import { htmlOfHtmlQuestion, parseHitForm } from "../simulator/html-form";
import { textKey } from "../simulator/truth";
import { displayText } from "@/lib/text/display-text";
import { answerFields, buildQuestionFormAnswers, parseQuestionFormAnswers } from "./answers";
import { gradeAnswerKey, parseAnswerKey } from "./answer-key";
import { buildHitQuestionXml, externalSubmitUrl, hitFieldName, parseHitAnswers, parseHitFieldName } from "./hit-question";
import { parseQuestionForm } from "./question-form";
import { buildQualificationTest, passingScoreRequirement, QUESTION_FORM_NS, QUESTION_FORM_NS_2005 } from "./qualification-xml";
import { escapeXml, stripInvalidXmlChars } from "./xml-text";

const XSD = readFileSync(path.resolve(process.cwd(), "lib/crowd/mturk/schemas/QuestionForm-2005-10-01.xsd"), "utf8");

async function validateQuestionForm(xml: string) {
  // Accord writes the current 2017-11-06 namespace. Only the 2005-10-01 XSD is in schemas/; the two schemas
  // have the same structure for what Accord uses (2017 only drops FileUploadAnswer and Application), so the same
  // document is validated with the 2005 namespace swapped in.
  const swapped = xml.replace(QUESTION_FORM_NS, QUESTION_FORM_NS_2005);
  return validateXML({ xml: [{ fileName: "form.xml", contents: swapped }], schema: [{ fileName: "QuestionForm.xsd", contents: XSD }] });
}

describe("qualification test XML", () => {
  it("builds a QuestionForm that validates against MTurk's XSD, with escaped text", async () => {
    const gold = goldTweets(10);
    gold[3] = { ...gold[3], text: `<script>alert(1)</script> & ]]> "quotes" 'single' 😀 \u0007bell` };
    const { questionFormXml, answerKeyXml, questionIds, maxScore } = buildQualificationTest({ gold, labels: HUMAID_LABELS });
    expect(questionFormXml).toContain(`xmlns="${QUESTION_FORM_NS}"`);
    expect(questionFormXml).not.toContain("<script>");
    expect(questionFormXml).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; ]]&gt; &quot;quotes&quot; &#39;single&#39; 😀 bell");
    const result = await validateQuestionForm(questionFormXml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(questionIds).toHaveLength(10);
    expect(maxScore).toBe(10);

    const questions = parseQuestionForm(questionFormXml);
    expect(questions).toHaveLength(10);
    expect(questions[3].text).toBe(`<script>alert(1)</script> & ]]> "quotes" 'single' 😀 bell`);
    expect(questions[0].selections.map((s) => s.selectionId)).toEqual(HUMAID_LABELS.map((l) => l.value));
    expect(questions[0].selections.map((s) => s.text)).toEqual(HUMAID_LABELS.map((l) => l.name));
    expect(questions.every((q) => q.isRequired && q.kind === "selection")).toBe(true);

    expect(answerKeyXml).toContain('xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd"');
    const key = parseAnswerKey(answerKeyXml);
    expect(key.mapping).toEqual({ kind: "percentage", maximumSummedScore: 10 });
    expect(key.questions.map((q) => q.options[0].selectionIds[0])).toEqual(gold.map((g) => g.label));
  });

  it("the XSD check is real: a broken form fails validation", async () => {
    const { questionFormXml } = buildQualificationTest({ gold: goldTweets(2), labels: HUMAID_LABELS });
    const broken = questionFormXml.replace("<StyleSuggestion>radiobutton</StyleSuggestion>", "<StyleSuggestion>slider</StyleSuggestion>");
    expect((await validateQuestionForm(broken)).valid).toBe(false);
  });

  it("grades 6/10 as 60 (pass) and 5/10 as 50 (fail) with the answer key", () => {
    const gold = goldTweets(10);
    const { answerKeyXml, questionIds } = buildQualificationTest({ gold, labels: HUMAID_LABELS });
    const key = parseAnswerKey(answerKeyXml);
    const answersWith = (correct: number) =>
      questionIds.map((questionId, i) => ({
        questionId,
        selectionIds: [i < correct ? gold[i].label : gold[i].label === "not_humanitarian" ? "caution_and_advice" : "not_humanitarian"],
      }));
    const req = passingScoreRequirement({ qualificationTypeId: "3X" });
    expect(req).toEqual({ qualificationTypeId: "3X", comparator: "GreaterThanOrEqualTo", integerValues: [60], actionsGuarded: "Accept" });
    expect(gradeAnswerKey(key, answersWith(6))).toEqual({ summedScore: 6, value: 60 });
    expect(gradeAnswerKey(key, answersWith(5))).toEqual({ summedScore: 5, value: 50 });
    expect(gradeAnswerKey(key, answersWith(10)).value).toBe(100);
    // two selections where one is expected: no points (the selected set must match exactly)
    const multi = answersWith(10).map((a) => ({ ...a, selectionIds: [...a.selectionIds, "sympathy_and_support"] }));
    expect(gradeAnswerKey(key, multi).summedScore).toBeLessThan(10);
  });

  it("supports the other mappings and default scores", () => {
    const key = parseAnswerKey(`<AnswerKey xmlns="x"><Question><QuestionIdentifier>a</QuestionIdentifier>
      <AnswerOption><SelectionIdentifier>1</SelectionIdentifier><AnswerScore>3</AnswerScore></AnswerOption>
      <DefaultScore>-1</DefaultScore></Question>
      <QualificationValueMapping><RangeMapping>
        <SummedScoreRange><InclusiveLowerBound>0</InclusiveLowerBound><InclusiveUpperBound>2</InclusiveUpperBound><QualificationValue>10</QualificationValue></SummedScoreRange>
        <SummedScoreRange><InclusiveLowerBound>3</InclusiveLowerBound><InclusiveUpperBound>3</InclusiveUpperBound><QualificationValue>99</QualificationValue></SummedScoreRange>
        <OutOfRangeQualificationValue>5</OutOfRangeQualificationValue></RangeMapping></QualificationValueMapping></AnswerKey>`);
    expect(gradeAnswerKey(key, [{ questionId: "a", selectionIds: ["1"] }]).value).toBe(99);
    expect(gradeAnswerKey(key, [{ questionId: "a", selectionIds: ["2"] }])).toEqual({ summedScore: -1, value: 5 });
  });

  it("rejects labels outside the scheme and oversized tests with a clear error", () => {
    expect(() => buildQualificationTest({ gold: [{ tweetId: "1", text: "x", label: "flood" }], labels: HUMAID_LABELS })).toThrow(/not in the scheme/);
    const huge = Array.from({ length: 60 }, (_, i) => ({ tweetId: String(i), text: "x".repeat(1000), label: "not_humanitarian" }));
    let err: unknown;
    try {
      buildQualificationTest({ gold: huge, labels: HUMAID_LABELS });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CrowdError);
    expect((err as CrowdError).code).toBe("too_large");
    expect((err as CrowdError).message).toMatch(/MTurk accepts at most 65,535 bytes/);
  });
});

describe("HIT HTMLQuestion", () => {
  const items = nastyItems(30);
  const xml = buildHitQuestionXml({ items, labels: HUMAID_LABELS, submitUrl: externalSubmitUrl("production") });

  it("escapes tweet text, carries no tweet id and one required radio group per tweet (known to workers by its text)", () => {
    expect(xml).toContain('xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"');
    const html = htmlOfHtmlQuestion(xml) ?? "";
    expect(html).toContain('action="https://www.mturk.com/mturk/externalSubmit"');
    expect(html).toContain('<input type="hidden" id="assignmentId" name="assignmentId" value="">');
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    // Stored "&amp;" (as Twitter escapes it) is shown as "&": decoded once, then escaped for the HTML.
    expect(html).toContain("]]&gt; here &amp; there");
    expect(html).not.toContain("&amp;amp;");
    expect(html).not.toMatch(/<script>alert|<img src=x/);
    expect(html).toContain("🚨🙏");
    // the only script is Accord's own
    expect(html.match(/<script>/g)).toHaveLength(1);
    const form = parseHitForm(html);
    expect(form.kind).toBe("html");
    expect(form.groups).toHaveLength(30);
    form.groups.forEach((g, i) => {
      expect(g.kind).toBe("radio");
      expect(g.required).toBe(true);
      expect(g.name).toBe(hitFieldName(i + 1, items[i].itemId));
      expect(g.tweetId).toBe(textKey(displayText(items[i].text)));
      expect(g.options).toEqual(HUMAID_LABELS.map((l) => l.value));
    });
    expect(Buffer.byteLength(xml)).toBeLessThan(65_535);
    for (const it of items) expect(xml).not.toContain(it.tweetId);
    expect(xml).not.toContain("data-tweet-id");
  });

  it("uses the sandbox or simulator submit URL by mode", () => {
    expect(externalSubmitUrl("sandbox")).toBe("https://workersandbox.mturk.com/mturk/externalSubmit");
    expect(externalSubmitUrl("simulator", "http://127.0.0.1:9400/")).toBe("http://127.0.0.1:9400/mturk/externalSubmit");
    expect(() => externalSubmitUrl("simulator")).toThrow(CrowdError);
  });

  it("maps field names back to positions and item ids", () => {
    expect(parseHitFieldName("item-12-abc_D-9")).toEqual({ position: 12, itemId: "abc_D-9" });
    expect(parseHitFieldName("assignmentId")).toBeNull();
    expect(() => buildHitQuestionXml({ items: [{ itemId: "bad id", tweetId: "1", text: "t" }], labels: HUMAID_LABELS, submitUrl: "https://x" })).toThrow(/item id/);
  });

  it("rejects a HIT over 64 KB with a clear error", () => {
    const long = nastyItems(30).map((it) => ({ ...it, text: "😀".repeat(700) }));
    expect(() => buildHitQuestionXml({ items: long, labels: HUMAID_LABELS, submitUrl: "https://x" })).toThrow(/HIT question \(HTMLQuestion\) is [\d,]+ bytes; MTurk accepts at most 65,535 bytes/);
  });
});

describe("QuestionFormAnswers", () => {
  const items = nastyItems(3);

  it("parses per-field answers (ASCII with numeric references) back to the tweets", () => {
    const xml = buildQuestionFormAnswers([
      { questionId: hitFieldName(1, items[0].itemId), freeText: "caution_and_advice" },
      { questionId: hitFieldName(2, items[1].itemId), freeText: "sympathy_and_support" },
      { questionId: hitFieldName(3, items[2].itemId), freeText: "flood" },
      { questionId: "comment", freeText: `it's <ok> & "fine" 😀` },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="ASCII"?>')).toBe(true);
    // eslint-disable-next-line no-control-regex -- the answer document must be pure ASCII
    expect(/[^\x00-\x7f]/.test(xml)).toBe(false);
    expect(xml).toContain("&#128512;");
    const parsed = parseHitAnswers({ answerXml: xml, items, labels: HUMAID_LABELS });
    expect(parsed.answers).toEqual([
      { position: 1, itemId: items[0].itemId, tweetId: items[0].tweetId, label: "caution_and_advice" },
      { position: 2, itemId: items[1].itemId, tweetId: items[1].tweetId, label: "sympathy_and_support" },
    ]);
    expect(parsed.invalid).toEqual([{ position: 3, itemId: items[2].itemId, value: "flood" }]);
    expect(parsed.unknownFields).toEqual(["comment"]);
    expect(answerFields(parseQuestionFormAnswers(xml)).get("comment")).toBe(`it's <ok> & "fine" 😀`);
  });

  it("parses crowd-form taskAnswers JSON (strings and radio objects) and reports missing items", () => {
    const task = [{ [hitFieldName(1, items[0].itemId)]: "not_humanitarian", [hitFieldName(2, items[1].itemId)]: { caution_and_advice: false, requests_or_urgent_needs: true } }];
    const xml = `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd"><Answer><QuestionIdentifier>taskAnswers</QuestionIdentifier><FreeText>${escapeXml(JSON.stringify(task))}</FreeText></Answer></QuestionFormAnswers>`;
    const parsed = parseHitAnswers({ answerXml: xml, items, labels: HUMAID_LABELS });
    expect(parsed.answers.map((a) => [a.position, a.label])).toEqual([
      [1, "not_humanitarian"],
      [2, "requests_or_urgent_needs"],
    ]);
    expect(parsed.missing).toEqual([3]);
  });

  it("reads selection answers and does not double-decode entities", () => {
    const xml = `<QuestionFormAnswers xmlns="x"><Answer><QuestionIdentifier>q1</QuestionIdentifier><SelectionIdentifier>b</SelectionIdentifier><SelectionIdentifier>c</SelectionIdentifier></Answer><Answer><QuestionIdentifier>q2</QuestionIdentifier><FreeText>&amp;lt; &#x1F600;</FreeText></Answer></QuestionFormAnswers>`;
    expect(parseQuestionFormAnswers(xml)).toEqual([
      { questionId: "q1", selectionIds: ["b", "c"] },
      { questionId: "q2", freeText: "&lt; 😀" },
    ]);
    expect(() => parseQuestionFormAnswers("<nope>")).toThrow(CrowdError);
  });

  it("strips characters XML cannot carry", () => {
    expect(stripInvalidXmlChars("a\u0000b\u0008c\td\ud800e😀")).toBe("abc\tde😀");
  });
});
