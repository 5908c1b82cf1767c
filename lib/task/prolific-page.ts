import { escapeHtml } from "@/lib/crowd/mturk/xml-text";
import type { HitContent } from "./hit-content";
import type { ScreeningContent } from "./prolific-screening";
import type { ProlificTaskParams } from "./prolific-work";

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:56rem;margin:1rem auto;padding:0 1rem;color:#111}" +
  "fieldset{border:1px solid #ccc;border-radius:6px;margin:0 0 1rem;padding:.75rem}legend{font-weight:600}" +
  ".text{white-space:pre-wrap;font-size:1.05rem;margin:.25rem 0 .5rem}label{display:inline-block;margin:.15rem .9rem .15rem 0}" +
  ".error{color:#a00;font-weight:600}";

function page(title: string, body: string, nonce?: string): string {
  const style = nonce ? `<style nonce="${escapeHtml(nonce)}">${STYLE}</style>` : "";
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>${style}</head><body>${body}</body></html>`;
}

/**
 * Accord's Prolific task page, server-rendered without scripts: the HIT's tweets, one required radio group per tweet
 * under the HIT's own field name (its HIT item's id: per HIT, never the tweet's id), the attention checks among them
 * when the event has them on, the Prolific ids in hidden inputs, posted back to the same address. `posted` keeps the
 * choices of a refused submission.
 */
type PageOptions = { action: string; error?: string; posted?: Record<string, unknown>; nonce?: string };

function hiddenInputs(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
}

function form(title: string, instructions: string, params: Record<string, string>, fieldsets: string, opts: PageOptions): string {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : "";
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(instructions)}</p>${error}` +
      `<form method="post" action="${escapeHtml(opts.action)}">${hiddenInputs(params)}\n${fieldsets}\n<p><button type="submit">Submit and return to Prolific</button></p></form>`,
    opts.nonce,
  );
}

export function renderProlificTaskPage(content: HitContent, params: ProlificTaskParams, opts: PageOptions): string {
  const radios = (fieldName: string) =>
    content.labels
      .map((l, j) => {
        const checked = opts.posted?.[fieldName] === l.value ? " checked" : "";
        return `<label><input type="radio" name="${escapeHtml(fieldName)}" value="${escapeHtml(l.value)}"${j === 0 ? " required" : ""}${checked}> ${escapeHtml(l.name)}</label>`;
      })
      .join("");
  // An attention check is an item like the tweets, its instruction as the item's text, after the tweet it follows.
  const checksAfter = (position: number) =>
    (content.checks ?? []).filter((c) => c.after === position).map((c) => `\n<fieldset data-check="${c.number}"><legend>Attention check</legend><p class="text">${escapeHtml(c.text)}</p>${radios(c.fieldName)}</fieldset>`);
  const fieldsets = content.items
    .map((it) => {
      const tweet = `<fieldset data-position="${it.position}" data-item-id="${escapeHtml(it.itemId)}"><legend>Tweet ${it.position} of ${content.items.length}</legend><p class="text">${escapeHtml(it.text)}</p>${radios(it.fieldName)}</fieldset>`;
      return tweet + checksAfter(it.position).join("");
    })
    .join("\n");
  return form(content.title, content.instructions, params, fieldsets, opts);
}

/** The screening test: one required radio group per gold tweet (its positional QuestionIdentifier), the text only. */
export function renderProlificScreeningPage(content: ScreeningContent, params: Record<string, string>, opts: PageOptions): string {
  const fieldsets = content.questions
    .map((q, i) => {
      const radios = q.selections
        .map((sel, j) => {
          const checked = opts.posted?.[q.questionId] === sel.selectionId ? " checked" : "";
          return `<label><input type="radio" name="${escapeHtml(q.questionId)}" value="${escapeHtml(sel.selectionId)}"${j === 0 ? " required" : ""}${checked}> ${escapeHtml(sel.text)}</label>`;
        })
        .join("");
      return `<fieldset data-position="${i + 1}"><legend>Question ${i + 1} of ${content.questions.length}</legend><p class="text">${escapeHtml(q.text)}</p>${radios}</fieldset>`;
    })
    .join("\n");
  return form(content.title || "Qualification test", content.instructions, params, fieldsets, opts);
}

/** A page without a form: nothing to work on here (the participant returns the study on Prolific). */
export function renderProlificMessagePage(title: string, message: string, nonce?: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, nonce);
}
