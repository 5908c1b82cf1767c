import type { SchemeLabel } from "@/lib/labels/humaid";
import { CrowdError } from "../errors";
import { answerFields, parseQuestionFormAnswers } from "./answers";
import type { MturkMode } from "./client";
import { assertMturkXmlSize, cdata, escapeHtml } from "./xml-text";
import { displayText } from "@/lib/text/display-text";

export const HTML_QUESTION_NS = "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd";

export const EXTERNAL_SUBMIT_URLS = {
  production: "https://www.mturk.com/mturk/externalSubmit",
  sandbox: "https://workersandbox.mturk.com/mturk/externalSubmit",
} as const;

/**
 * Where the HIT form posts. Production and sandbox use MTurk's externalSubmit; the simulator serves the same
 * path (`<simulatorUrl>/mturk/externalSubmit`).
 */
export function externalSubmitUrl(mode: MturkMode, simulatorUrl?: string): string {
  if (mode === "simulator") {
    if (!simulatorUrl) throw new CrowdError("The simulator's URL is needed to build a HIT for the simulator.", "invalid_parameter");
    return `${simulatorUrl.replace(/\/+$/, "")}/mturk/externalSubmit`;
  }
  return EXTERNAL_SUBMIT_URLS[mode];
}

/** One tweet of a HIT. position is 1-based and implied by the order of `items`. */
export interface HitItem {
  /** Accord's HIT item id (letters, digits, "_" or "-", ≤ 64): one per HIT and tweet, so it links nothing across HITs. */
  itemId: string;
  /** The tweet's id, for Accord only: answers map back to it through the item; it is never put in the HIT. */
  tweetId: string;
  text: string;
}

export interface BuildHitQuestionInput {
  items: HitItem[];
  labels: SchemeLabel[];
  /** From externalSubmitUrl(mode, simulatorUrl). */
  submitUrl: string;
  title?: string;
  instructions?: string;
  /** FrameHeight in pixels; 0 = auto-size. */
  frameHeight?: number;
}

const ITEM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An attribute value: bare when it is a safe token, otherwise quoted and escaped. */
function attr(value: string): string {
  return /^[A-Za-z0-9_.:-]+$/.test(value) ? value : `"${escapeHtml(value)}"`;
}

/**
 * The form field of the item at `position` (1-based): `item-<position>-<itemId>`. The answer parser maps a field
 * back to both the position and Accord's item id.
 */
export function hitFieldName(position: number, itemId: string): string {
  return `item-${position}-${itemId}`;
}

export function parseHitFieldName(name: string): { position: number; itemId: string } | null {
  const m = /^item-([1-9][0-9]*)-([A-Za-z0-9_-]{1,64})$/.exec(name);
  return m ? { position: Number(m[1]), itemId: m[2] } : null;
}

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:56rem;margin:1rem auto;padding:0 1rem;color:#111}" +
  "fieldset{border:1px solid #ccc;border-radius:6px;margin:0 0 1rem;padding:.75rem}" +
  "legend{font-weight:600}.text{white-space:pre-wrap;font-size:1.05rem;margin:.25rem 0 .5rem}" +
  "label{display:inline-block;margin:.15rem .9rem .15rem 0}dl{font-size:.9rem}dt{font-weight:600}dd{margin:0 0 .4rem}";

// Fills the hidden assignmentId from the URL (as MTurk's externalHIT_v1.js turkSetAssignmentID() does) and
// disables submitting in preview (assignmentId missing or ASSIGNMENT_ID_NOT_AVAILABLE).
const SCRIPT =
  "(function(){var q=new URLSearchParams(window.location.search);var a=q.get('assignmentId')||'';" +
  "document.getElementById('assignmentId').value=a;if(!a||a==='ASSIGNMENT_ID_NOT_AVAILABLE'){" +
  "var b=document.getElementById('submitButton');b.disabled=true;b.value='Accept the HIT to submit';}})();";

/**
 * The HIT as an HTMLQuestion: a plain <form method=post action=externalSubmit> with a hidden assignmentId, and
 * per tweet a <fieldset data-position data-item-id> holding the escaped text and one required radio group named
 * hitFieldName(position, itemId) whose values are the scheme's label values. Nothing in it is the tweet's id (gold
 * recurs across HITs: a stable id would let workers learn it); workers, the simulator's too, know a tweet by its text.
 * Throws CrowdError("too_large") past 64 KB.
 */
export function buildHitQuestionXml(input: BuildHitQuestionInput): string {
  const { items, labels } = input;
  if (items.length === 0) throw new CrowdError("A HIT needs at least one item.", "invalid_parameter");
  if (labels.length < 2) throw new CrowdError("The label scheme needs at least two labels.", "invalid_parameter");
  const seen = new Set<string>();
  for (const it of items) {
    if (!ITEM_ID.test(it.itemId)) {
      throw new CrowdError(`HIT item id "${it.itemId}" must be 1–64 letters, digits, "_" or "-".`, "invalid_parameter");
    }
    if (seen.has(it.itemId)) throw new CrowdError(`HIT item id "${it.itemId}" appears twice.`, "invalid_parameter");
    seen.add(it.itemId);
  }
  const title = input.title ?? "Categorise disaster tweets";
  const instructions =
    input.instructions ?? "Read each tweet and choose the one category that best describes it. Every tweet needs an answer.";

  const definitions = labels
    .map((l) => `<dt>${escapeHtml(l.name)}</dt><dd>${escapeHtml(l.description ?? "")}</dd>`)
    .join("");
  const fieldsets = items
    .map((it, i) => {
      const position = i + 1;
      const name = attr(hitFieldName(position, it.itemId));
      // Compact markup (the 64 KB limit): unquoted safe attribute values; `required` on the group's first radio
      // makes the whole group required.
      const radios = labels
        .map((l, j) => `<label><input type=radio name=${name} value=${attr(l.value)}${j === 0 ? " required" : ""}>${escapeHtml(l.name)}</label>`)
        .join("");
      return (
        `<fieldset class="tweet" data-position="${position}" data-item-id="${escapeHtml(it.itemId)}">` +
        `<legend>Tweet ${position} of ${items.length}</legend><p class="text">${escapeHtml(displayText(it.text))}</p>${radios}</fieldset>`
      );
    })
    .join("\n");

  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>\n` +
    `<form id="accord-hit" name="mturk_form" method="post" action="${escapeHtml(input.submitUrl)}">` +
    `<input type="hidden" id="assignmentId" name="assignmentId" value="">\n` +
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(instructions)}</p><details><summary>Category definitions</summary><dl>${definitions}</dl></details>\n` +
    `${fieldsets}\n<p><input type="submit" id="submitButton" value="Submit"></p></form>\n<script>${SCRIPT}</script></body></html>`;

  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<HTMLQuestion xmlns="${HTML_QUESTION_NS}"><HTMLContent>${cdata(html)}</HTMLContent>` +
    `<FrameHeight>${input.frameHeight ?? 0}</FrameHeight></HTMLQuestion>\n`;
  assertMturkXmlSize(xml, "HIT question (HTMLQuestion)", "Use fewer tweets per HIT or shorter instructions.");
  return xml;
}

export interface ParsedHitAnswer {
  position: number;
  itemId: string;
  tweetId: string;
  label: string;
}

export interface ParsedHitAnswers {
  /** One entry per item that received a valid label, in item order. */
  answers: ParsedHitAnswer[];
  /** Positions (1-based) of items without an answer. */
  missing: number[];
  /** Answers whose value is not one of the scheme's labels. */
  invalid: Array<{ position: number; itemId: string; value: string }>;
  /** Fields that do not belong to this HIT's items (assignmentId excluded). */
  unknownFields: string[];
}

/**
 * Maps an assignment's QuestionFormAnswers (per-field answers or crowd-form taskAnswers) back to the HIT's
 * items. MTurk only guarantees a well-formed document, so everything is checked against the items and labels.
 */
export function parseHitAnswers({
  answerXml,
  items,
  labels,
}: {
  answerXml: string;
  /** The HIT's items in position order (their text is not needed). */
  items: ReadonlyArray<Pick<HitItem, "itemId" | "tweetId">>;
  labels: SchemeLabel[];
}): ParsedHitAnswers {
  const fields = answerFields(parseQuestionFormAnswers(answerXml));
  const values = new Set(labels.map((l) => l.value));
  const result: ParsedHitAnswers = { answers: [], missing: [], invalid: [], unknownFields: [] };
  const expected = new Set<string>();
  items.forEach((it, i) => {
    const position = i + 1;
    const name = hitFieldName(position, it.itemId);
    expected.add(name);
    const value = fields.get(name)?.trim();
    if (value === undefined || value === "") result.missing.push(position);
    else if (!values.has(value)) result.invalid.push({ position, itemId: it.itemId, value });
    else result.answers.push({ position, itemId: it.itemId, tweetId: it.tweetId, label: value });
  });
  for (const name of fields.keys()) {
    if (!expected.has(name) && name !== "assignmentId") result.unknownFields.push(name);
  }
  return result;
}
