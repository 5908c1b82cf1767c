import { describe, expect, it } from "vitest";
import { buildHitQuestionXml, hitFieldName, type HitItem } from "@/lib/crowd/mturk/hit-question";
import { buildQualificationTest } from "@/lib/crowd/mturk/qualification-xml";
import { HUMAID_LABELS } from "@/lib/labels/humaid";
import { UserError } from "@/lib/errors";
import { displayText } from "@/lib/text/display-text";
import { collectHitAnswers, collectTestAnswers, listPositions, readHitContent, readQualificationTest } from "./hit-content";
import { labelIndexForKey, labelKeys } from "@/lib/task/label-keys";

const TEXTS = [
  `<script>alert("x")</script> help needed`,
  `Water & food at "Main St" shelter 🚨🙏`,
  `it's <b>bad</b> ]]> here &amp; there\nsecond line`,
  `Power lines down on 5th & Elm <img src=x onerror=alert(1)>`,
];

function items(n = 30): HitItem[] {
  return Array.from({ length: n }, (_, i) => ({ itemId: `cm${i}x-${i + 1}`, tweetId: `1${String(i).padStart(18, "0")}`, text: `${TEXTS[i % TEXTS.length]} #${i + 1}` }));
}

describe("reading a HIT for the task page", () => {
  it("gives back every tweet's text as people read it (entities decoded once, markup kept as text), its own field name and the scheme's labels", () => {
    const its = items();
    const xml = buildHitQuestionXml({ items: its, labels: HUMAID_LABELS, submitUrl: "https://example.org/submit", title: "Tweets & <more>", instructions: "Pick one \"category\"." });
    const content = readHitContent(xml);
    expect(content.title).toBe("Tweets & <more>");
    expect(content.instructions).toBe('Pick one "category".');
    expect(content.labels).toEqual(HUMAID_LABELS.map((l) => ({ value: l.value, name: l.name, description: l.description })));
    expect(content.items).toEqual(its.map((it, i) => ({ position: i + 1, itemId: it.itemId, fieldName: hitFieldName(i + 1, it.itemId), text: displayText(it.text) })));
    expect(content.items[2].text).toBe("it's <b>bad</b> ]]> here & there\nsecond line #3");
  });

  it("refuses a question it cannot show", () => {
    expect(() => readHitContent(`<?xml version="1.0"?><QuestionForm xmlns="x"></QuestionForm>`)).toThrow(UserError);
    const noRadios = `<HTMLQuestion xmlns="x"><HTMLContent><![CDATA[<form><input type=text name=a></form>]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>`;
    expect(() => readHitContent(noRadios)).toThrow("cannot be shown");
  });

  it("collects exactly the HIT's fields and names the tweets still missing a valid label", () => {
    const content = readHitContent(buildHitQuestionXml({ items: items(4), labels: HUMAID_LABELS, submitUrl: "https://example.org/s" }));
    const names = content.items.map((i) => i.fieldName);
    const posted: Record<string, unknown> = { [names[0]]: "not_humanitarian", [names[1]]: "bogus", [names[3]]: "caution_and_advice", assignmentId: "A1", extra: "x" };
    expect(collectHitAnswers(content, posted)).toEqual({ ok: false, missing: [2, 3], missingChecks: [] });
    posted[names[1]] = "sympathy_and_support";
    posted[names[2]] = "dont_know_cant_judge";
    expect(collectHitAnswers(content, posted)).toEqual({
      ok: true,
      fields: { [names[0]]: "not_humanitarian", [names[1]]: "sympathy_and_support", [names[2]]: "dont_know_cant_judge", [names[3]]: "caution_and_advice" },
    });
    expect(listPositions([2, 3, 9])).toBe("2, 3 and 9");
    expect(listPositions([5])).toBe("5");
  });
});

describe("reading the qualification test", () => {
  it("gives the overview and one selection question per gold tweet, and checks the answers", () => {
    const gold = Array.from({ length: 10 }, (_, i) => ({ tweetId: `${i}`, text: `Gold <${i}> & "q"`, label: HUMAID_LABELS[i].value }));
    const built = buildQualificationTest({ gold, labels: HUMAID_LABELS, title: "Test & go", instructions: "6 of 10 <to pass>" });
    const test = readQualificationTest(built.questionFormXml);
    expect(test.title).toBe("Test & go");
    expect(test.instructions).toBe("6 of 10 <to pass>");
    expect(test.notes).toHaveLength(HUMAID_LABELS.length);
    expect(test.notes[0]).toBe(`${HUMAID_LABELS[0].name}: ${HUMAID_LABELS[0].description}`);
    expect(test.questions.map((q) => q.questionId)).toEqual(built.questionIds);
    expect(test.questions[3].text).toBe(`Gold <3> & "q"`);
    expect(test.questions[0].selections.map((s) => s.selectionId)).toEqual(HUMAID_LABELS.map((l) => l.value));

    const posted: Record<string, unknown> = Object.fromEntries(built.questionIds.map((q, i) => [q, gold[i].label]));
    posted["gold-4"] = "nonsense";
    delete posted["gold-9"];
    expect(collectTestAnswers(test, posted)).toEqual({ ok: false, missing: [4, 9] });
    posted["gold-4"] = gold[3].label;
    posted["gold-9"] = gold[0].label;
    const res = collectTestAnswers(test, posted);
    expect(res.ok && Object.keys(res.answers)).toEqual(built.questionIds);
  });
});

describe("label keys", () => {
  it("uses 1–9, 0, then letters", () => {
    expect(labelKeys(11)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "a"]);
    expect(labelKeys(3)).toEqual(["1", "2", "3"]);
    expect(labelIndexForKey("0", 11)).toBe(9);
    expect(labelIndexForKey("A", 11)).toBe(10);
    expect(labelIndexForKey("b", 11)).toBe(-1);
    expect(labelIndexForKey("4", 3)).toBe(-1);
    expect(labelIndexForKey("Enter", 11)).toBe(-1);
  });
});
