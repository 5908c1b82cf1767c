import { XMLParser } from "fast-xml-parser";
import { parseQuestionForm, type QuestionFormQuestion } from "@/lib/crowd/mturk/question-form";
import { decodeXmlEntities } from "@/lib/crowd/mturk/xml-text";
import { htmlOfHtmlQuestion } from "@/lib/crowd/simulator/html-form";
import { UserError } from "@/lib/errors";
import type { AttentionCheck } from "@/lib/crowd/attention-checks";
import type { SchemeLabel } from "@/lib/labels/humaid";

/**
 * What the task page shows of a HIT, read from the HIT's own HTMLQuestion (lib/crowd/mturk/hit-question.ts
 * buildHitQuestionXml): annotators of the in-house crowd see exactly what MTurk workers see, and their answers go
 * under the HIT's own form field names (`item-<position>-<itemId>`), so the sync loop parses both alike.
 */
export interface HitContentItem {
  position: number;
  /** Accord's HIT item id (one per HIT and tweet, so it links nothing across HITs); the tweet's own id is never shown. */
  itemId: string;
  /** The form field of this tweet's radio group (the answer's QuestionIdentifier). */
  fieldName: string;
  /** Plain text (entities decoded); render as text, never as HTML. */
  text: string;
}

export interface HitContent {
  title: string;
  instructions: string;
  labels: SchemeLabel[];
  items: HitContentItem[];
  /** Instructed-response attention checks among the tweets (Accord's Prolific page, when the event has them on). */
  checks?: AttentionCheck[];
}

function attributes(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) out.set(m[1].toLowerCase(), decodeXmlEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  return out;
}

/** Text content of an HTML fragment: tags dropped, entities decoded. */
function textOf(html: string): string {
  return decodeXmlEntities(html.replace(/<[^>]*>/g, "")).trim();
}

const unreadable = () => new UserError("This HIT's question cannot be shown on the task page (it is not one of Accord's tweet HITs).", "unreadable_hit");

export function readHitContent(questionXml: string): HitContent {
  const html = htmlOfHtmlQuestion(questionXml);
  if (!html) throw unreadable();
  const clean = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "");
  const title = textOf(/<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(clean)?.[1] ?? "");
  const instructions = textOf(/<\/h1>\s*<p\b[^>]*>([\s\S]*?)<\/p>/i.exec(clean)?.[1] ?? "");
  const descriptions = new Map<string, string>();
  for (const m of clean.matchAll(/<dt\b[^>]*>([\s\S]*?)<\/dt>\s*<dd\b[^>]*>([\s\S]*?)<\/dd>/gi)) descriptions.set(textOf(m[1]), textOf(m[2]));

  const items: HitContentItem[] = [];
  let labels: SchemeLabel[] | null = null;
  for (const m of clean.matchAll(/<fieldset\b([^>]*)>([\s\S]*?)<\/fieldset>/gi)) {
    const attrs = attributes(m[1]);
    const body = m[2];
    const choices = [...body.matchAll(/<label\b[^>]*>\s*<input\b([^>]*)>([\s\S]*?)<\/label>/gi)]
      .map((c) => ({ attrs: attributes(c[1]), name: textOf(c[2]) }))
      .filter((c) => (c.attrs.get("type") ?? "").toLowerCase() === "radio" && c.attrs.get("name"));
    if (choices.length === 0) continue;
    const fieldName = choices[0].attrs.get("name") as string;
    const here = choices.map((c) => ({ value: c.attrs.get("value") ?? "", name: c.name, description: descriptions.get(c.name) ?? "" }));
    if (choices.some((c) => c.attrs.get("name") !== fieldName)) throw unreadable();
    if (labels === null) labels = here;
    else if (labels.map((l) => l.value).join("\u0000") !== here.map((l) => l.value).join("\u0000")) throw unreadable();
    const textHtml = /<p\b[^>]*class="?text"?[^>]*>([\s\S]*?)<\/p>/i.exec(body)?.[1];
    items.push({
      position: Number(attrs.get("data-position") ?? items.length + 1),
      itemId: attrs.get("data-item-id") ?? "",
      fieldName,
      text: textHtml === undefined ? "" : decodeXmlEntities(textHtml.replace(/<[^>]*>/g, "")),
    });
  }
  if (items.length === 0 || labels === null) throw unreadable();
  if (new Set(items.map((i) => i.fieldName)).size !== items.length) throw unreadable();
  return { title, instructions, labels, items };
}

/**
 * Checks posted answers against the HIT: every tweet, and every attention check, needs one of the HIT's labels.
 * Returns the fields to submit (exactly the HIT's own field names, the checks' included) or the 1-based tweet
 * positions and check numbers still missing a valid label.
 */
export function collectHitAnswers(
  content: HitContent,
  posted: Record<string, unknown>,
): { ok: true; fields: Record<string, string> } | { ok: false; missing: number[]; missingChecks: number[] } {
  const values = new Set(content.labels.map((l) => l.value));
  const fields: Record<string, string> = {};
  const missing: number[] = [];
  const missingChecks: number[] = [];
  const take = (fieldName: string, onMissing: () => void) => {
    const v = posted[fieldName];
    if (typeof v === "string" && values.has(v)) fields[fieldName] = v;
    else onMissing();
  };
  for (const it of content.items) take(it.fieldName, () => missing.push(it.position));
  for (const c of content.checks ?? []) take(c.fieldName, () => missingChecks.push(c.number));
  return missing.length === 0 && missingChecks.length === 0 ? { ok: true, fields } : { ok: false, missing, missingChecks };
}

/** "Tweets 3 and 7 still need a label. Attention check 2 still needs an answer." */
export function missingAnswersMessage({ missing, missingChecks }: { missing: number[]; missingChecks: number[] }): string {
  const parts: string[] = [];
  const n = missing.length;
  if (n > 0) parts.push(`${n === 1 ? "Tweet" : "Tweets"} ${listPositions(missing)} still ${n === 1 ? "needs" : "need"} a label.`);
  const c = missingChecks.length;
  if (c > 0) parts.push(`${c === 1 ? "Attention check" : "Attention checks"} ${listPositions(missingChecks)} still ${c === 1 ? "needs" : "need"} an answer.`);
  return parts.join(" ");
}

/** "3, 7 and 12" */
export function listPositions(positions: number[]): string {
  if (positions.length <= 1) return positions.join("");
  return `${positions.slice(0, -1).join(", ")} and ${positions[positions.length - 1]}`;
}

// ───────── the qualification test (QuestionForm) ─────────

export interface QualificationTestContent {
  title: string;
  instructions: string;
  /** The Overview's list (the categories and their definitions). */
  notes: string[];
  questions: QuestionFormQuestion[];
}

const overviewParser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  isArray: (name) => name === "ListItem" || name === "Overview" || name === "List",
});

function plain(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return decodeXmlEntities(v);
  if (Array.isArray(v)) return v.map(plain).join(" ");
  if (typeof v === "object") return plain((v as Record<string, unknown>)["#text"]);
  return String(v);
}

export function readQualificationTest(testXml: string): QualificationTestContent {
  const questions = parseQuestionForm(testXml);
  const doc = overviewParser.parse(testXml) as { QuestionForm?: { Overview?: Array<Record<string, unknown>> } };
  const overview = doc.QuestionForm?.Overview?.[0] ?? {};
  const lists = (overview.List as Array<{ ListItem?: unknown[] }> | undefined) ?? [];
  return {
    title: plain(overview.Title),
    instructions: plain(overview.Text),
    notes: lists.flatMap((l) => (l.ListItem ?? []).map(plain)),
    questions,
  };
}

/** The test's answers (QuestionIdentifier → SelectionIdentifier), or the 1-based numbers of unanswered questions. */
export function collectTestAnswers(test: QualificationTestContent, posted: Record<string, unknown>): { ok: true; answers: Record<string, string> } | { ok: false; missing: number[] } {
  const answers: Record<string, string> = {};
  const missing: number[] = [];
  test.questions.forEach((q, i) => {
    const v = posted[q.questionId];
    if (typeof v === "string" && q.selections.some((s) => s.selectionId === v)) answers[q.questionId] = v;
    else if (q.isRequired || q.kind === "selection") missing.push(i + 1);
  });
  return missing.length === 0 ? { ok: true, answers } : { ok: false, missing };
}
