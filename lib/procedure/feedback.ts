/** MTurk's RequesterFeedback limit (ApproveAssignment / RejectAssignment). */
export const REQUESTER_FEEDBACK_MAX_CHARS = 1024;

// ASCII 0–8, 11, 12 and 14–31 are refused by MTurk (tab, LF and CR are allowed); DEL is removed as well.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * Makes any text safe as MTurk RequesterFeedback: forbidden control characters become spaces, runs of spaces
 * collapse, and the text is cut to 1024 characters (ending with "…", never splitting a surrogate pair).
 */
export function toRequesterFeedback(text: string): string {
  const clean = text.replace(FORBIDDEN, " ").replace(/ {2,}/g, " ").trim();
  if (clean.length <= REQUESTER_FEEDBACK_MAX_CHARS) return clean;
  let cut = REQUESTER_FEEDBACK_MAX_CHARS - 1;
  const code = clean.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // do not leave a lone high surrogate
  return clean.slice(0, cut) + "…";
}

/** True when the text already satisfies MTurk's RequesterFeedback constraints. */
export function isValidRequesterFeedback(text: string): boolean {
  return text.length <= REQUESTER_FEEDBACK_MAX_CHARS && !new RegExp(FORBIDDEN.source).test(text);
}
