import { escapeHtml } from "@/lib/crowd/mturk/xml-text";
import type { HitContent } from "./hit-content";
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
 * under the HIT's own field name (data-tweet-id on its fieldset), the Prolific ids in hidden inputs, posted back to
 * the same address. `posted` keeps the choices of a refused submission.
 */
export function renderProlificTaskPage(content: HitContent, params: ProlificTaskParams, opts: { action: string; error?: string; posted?: Record<string, unknown>; nonce?: string }): string {
  const hidden = (["hit", "PROLIFIC_PID", "STUDY_ID", "SESSION_ID"] as const).map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params[k])}">`).join("");
  const fieldsets = content.items
    .map((it) => {
      const radios = content.labels
        .map((l, j) => {
          const checked = opts.posted?.[it.fieldName] === l.value ? " checked" : "";
          return `<label><input type="radio" name="${escapeHtml(it.fieldName)}" value="${escapeHtml(l.value)}"${j === 0 ? " required" : ""}${checked}> ${escapeHtml(l.name)}</label>`;
        })
        .join("");
      return `<fieldset data-position="${it.position}" data-item-id="${escapeHtml(it.itemId)}" data-tweet-id="${escapeHtml(it.tweetId)}"><legend>Tweet ${it.position} of ${content.items.length}</legend><p class="text">${escapeHtml(it.text)}</p>${radios}</fieldset>`;
    })
    .join("\n");
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : "";
  return page(
    content.title,
    `<h1>${escapeHtml(content.title)}</h1><p>${escapeHtml(content.instructions)}</p>${error}` +
      `<form method="post" action="${escapeHtml(opts.action)}">${hidden}\n${fieldsets}\n<p><button type="submit">Submit and return to Prolific</button></p></form>`,
    opts.nonce,
  );
}

/** A page without a form: nothing to work on here (the participant returns the study on Prolific). */
export function renderProlificMessagePage(title: string, message: string, nonce?: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, nonce);
}
